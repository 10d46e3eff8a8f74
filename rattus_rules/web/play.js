/* The play page: talks to the JSON interface of `rattus play --web` (see rattus_rules/playweb.py). */
(function () {
  "use strict";
  var page = JSON.parse(document.getElementById("rattus-data").textContent);
  var game = null;   /* the last view the server sent */
  var busy = false;

  function $(id) { return document.getElementById(id); }

  var el = Rattus.el;
  var citations = Rattus.citations;

  function call(method, path, body) {
    var options = {method: method, headers: {"Accept": "application/json"}};
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.headers["X-Rattus-Token"] = page.token;  /* the server takes a change only from its own page */
      options.body = JSON.stringify(body);
    }
    return fetch(path, options).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) { throw answer; }
        return answer;
      });
    });
  }

  function showError(box, err) {
    box.replaceChildren();
    box.hidden = false;
    box.appendChild(el("p", err && err.error ? err.error : String(err)));
    if (err && err.citations) { citations(box, err.citations); }
  }

  /* ------------------------------------------------------------ setup */
  function setup(options) {
    var players = $("players");
    options.players.forEach(function (n) {
      var o = el("option", n + " players");
      o.value = String(n);
      players.appendChild(o);
    });
    players.value = String(options.selected);
    function seats() {
      var seat = $("seat");
      var was = seat.value || "0";
      seat.replaceChildren();
      for (var p = 0; p < parseInt(players.value, 10); p++) {
        var o = el("option", "P" + p + (p === 0 ? " (starts)" : ""));
        o.value = String(p);
        seat.appendChild(o);
      }
      seat.value = parseInt(was, 10) < parseInt(players.value, 10) ? was : "0";
    }
    players.addEventListener("change", seats);
    seats();
    if (options.seed !== null) { $("seed").value = String(options.seed); }
    var box = $("switches");
    options.switches.forEach(function (s) {
      var item = el("details");
      var summary = el("summary");
      var label = el("label");
      label.appendChild(el("code", s.id));
      label.appendChild(document.createTextNode(" " + s.question + " "));
      var select = el("select");
      select.dataset.switch = s.id;
      s.options.forEach(function (o) {
        var opt = el("option", o.value + (o.value === s.default ? " (default)" : ""));
        opt.value = o.value;
        select.appendChild(opt);
      });
      select.value = s.selected;
      label.appendChild(select);
      summary.appendChild(label);
      item.appendChild(summary);
      s.options.forEach(function (o) {
        item.appendChild(el("p", o.value + ": " + o.description));
        citations(item, o.citations);
      });
      box.appendChild(item);
    });
    $("setup").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var chosen = {};
      document.querySelectorAll("#switches select").forEach(function (s) { chosen[s.dataset.switch] = s.value; });
      var body = {players: parseInt(players.value, 10), seat: parseInt($("seat").value, 10),
                  interpretations: chosen};
      if ($("seed").value !== "") { body.seed = parseInt($("seed").value, 10); }
      call("POST", "/api/games", body).then(function (view) {
        $("setup-error").hidden = true;
        $("setup-view").hidden = true;
        $("game-view").hidden = false;
        draw(view);
      }, function (err) { showError($("setup-error"), err); });
    });
  }

  /* ------------------------------------------------------------- game */
  function act(text) {
    if (busy) { return; }
    busy = true;
    call("POST", "/api/games/" + encodeURIComponent(game.game) + "/actions", {action: text}).then(function (view) {
      busy = false;
      $("error").hidden = true;
      draw(view);
    }, function (err) { busy = false; showError($("error"), err); });
  }

  function regionClicked(region) {
    var matching = game.legal.filter(function (t) { return t.split(" ").indexOf(region) > 0; });
    if (matching.length === 1) { act(matching[0]); return; }
    document.querySelectorAll("#actions button").forEach(function (b) {
      b.classList.toggle("suggested", matching.indexOf(b.dataset.action) >= 0);
    });
  }

  function picture(view) {
    var svg = Rattus.picture($("picture"), view.svg);
    svg.querySelectorAll("g.region[data-in-play=yes]").forEach(function (g) {
      var region = g.getAttribute("data-region");
      var usable = view.legal.some(function (t) { return t.split(" ").indexOf(region) > 0; });
      if (!usable) { return; }
      g.classList.add("clickable");
      g.addEventListener("click", function () { regionClicked(region); });
    });
  }

  function turn(view) {
    var box = $("turn");
    box.replaceChildren();
    if (view.over) {
      box.appendChild(el("h2", "The game is over"));
      var scores = view.scores.map(function (s, p) { return "P" + p + " " + s; }).join(", ");
      box.appendChild(el("p", "Scores: " + scores + ". Winner: " +
                          view.winners.map(function (w) { return "P" + w; }).join(" and ") + "."));
      return;
    }
    box.appendChild(el("h2", "Your turn (" + view.seat + ")"));
    var rule = el("p", "The rule asking: ");
    rule.appendChild(el("code", view.rule));
    box.appendChild(rule);
    citations(box, view.citations);
    var actions = el("div", null, "actions");
    actions.id = "actions";
    view.legal.forEach(function (text) {
      var b = el("button", text);
      b.type = "button";
      b.dataset.action = text;
      b.title = "rule " + view.rule;
      b.addEventListener("click", function () { act(text); });
      actions.appendChild(b);
    });
    box.appendChild(actions);
    if (document.querySelector("#picture g.region.clickable")) {
      box.appendChild(el("p", "Or click a region on the board (outlined in blue).", "note"));
    }
  }

  function players(view) {
    Rattus.players($("players-table"), view.players, view.seat);
  }

  function log(view) {
    var list = $("log");
    list.replaceChildren();
    view.log.forEach(function (step) {
      var item = el("li", null, step.you ? "mine" : "");
      item.appendChild(el("span", step.entries.join(" · ")));
      var details = el("details");
      details.appendChild(el("summary", "rule " + step.rule));
      citations(details, view.rules[step.rule] || []);
      item.appendChild(details);
      list.appendChild(item);
    });
    list.scrollTop = list.scrollHeight;
  }

  function draw(view) {
    game = view;
    var base = "/api/games/" + encodeURIComponent(view.game) + "/record";
    $("download").href = base + "?kind=players-eye";
    $("download-full").href = base + "?kind=omniscient";
    $("download-full").hidden = !view.over;
    picture(view);
    turn(view);
    players(view);
    log(view);
  }

  $("components").textContent = page.components;
  $("new-game").addEventListener("click", function () {
    $("game-view").hidden = true;
    $("setup-view").hidden = false;
  });
  call("GET", "/api/setup").then(setup, function (err) { showError($("setup-error"), err); });
}());
