/* The play page: talks to the JSON interface of `rattus play --web` (see rattus_rules/games/rattus/playweb.py). */
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

  /* The actions naming a region (a word of the action is the region's name). */
  function naming(region) {
    return game.actions.filter(function (a) { return a.words.indexOf(region) >= 0; });
  }

  /* The actions choosing the token at place `index` of `region`: `verb REGION index ...`, or `reveal index`
     while a region is being devastated (the only region with tokens to reveal). */
  function choosing(region, index) {
    return game.actions.filter(function (a) {
      var at = a.words.indexOf(region);
      if (at >= 0 && a.words[at + 1] === String(index)) { return true; }
      return a.verb === "reveal" && a.words.length === 1 && a.words[0] === String(index) &&
        devastated() === region;
    });
  }

  /* The region whose tokens `reveal N` counts: the one the plague is in. */
  function devastated() {
    var mark = document.querySelector("#picture g.region[data-plague=yes]");
    return mark ? mark.getAttribute("data-region") : null;
  }

  /* Take the one action a click means, or mark the few it may mean and move the focus to the first. */
  function chooseAmong(found, what) {
    var texts = found.map(function (a) { return a.text; });
    var unique = texts.filter(function (t, i) { return texts.indexOf(t) === i; });
    if (unique.length === 1) { act(unique[0]); return; }
    var first = null;
    document.querySelectorAll("#actions button").forEach(function (b) {
      var on = unique.indexOf(b.dataset.action) >= 0;
      b.classList.toggle("suggested", on);
      if (on && first === null) { first = b; }
    });
    $("hint").textContent = unique.length ? what + " is in " + unique.length +
      " of your actions (marked in red): choose one." : what + " is in none of your actions now.";
    if (first) { first.focus(); }
  }

  function clickable(node, label, run) {
    node.classList.add("clickable");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", label);
    node.addEventListener("click", function (ev) { ev.stopPropagation(); run(); });
    node.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); run(); }
    });
  }

  function picture(view) {
    var svg = Rattus.picture($("picture"), view.svg);
    svg.querySelectorAll("g.region[data-in-play=yes]").forEach(function (g) {
      var region = g.getAttribute("data-region");
      g.querySelectorAll("g.token[data-index]").forEach(function (tile) {
        var index = tile.getAttribute("data-index");
        if (choosing(region, index).length) {
          clickable(tile, region + ", token " + index, function () {
            chooseAmong(choosing(region, index), region + "'s token " + index);
          });
        }
      });
      var found = naming(region);
      if (!found.length) { return; }
      var verbs = found.map(function (a) { return a.verb; }).filter(function (v, i, all) { return all.indexOf(v) === i; });
      clickable(g, region + ": " + verbs.join(" or "), function () { chooseAmong(naming(region), region); });
    });
  }

  /* The rule of an action and its German sentences, shown while the action has the focus or the pointer. */
  function help(action) {
    var box = $("action-help");
    box.replaceChildren();
    if (!action) { return; }
    var head = el("p");
    head.appendChild(el("strong", action.text));
    head.appendChild(document.createTextNode(" — rule "));
    head.appendChild(el("code", action.rule));
    box.appendChild(head);
    citations(box, game.action_cites[action.cites] || []);
  }

  /* Whose turn it is, and what happened since the person last acted (the bots' and chance's steps). */
  function since(view) {
    var box = $("recent");
    box.replaceChildren();
    var last = -1;
    view.log.forEach(function (step, i) { if (step.you) { last = i; } });
    var steps = view.log.slice(last + 1);
    box.appendChild(el("h2", last < 0 ? "Before your first move" : "Since your last move"));
    if (!steps.length) { box.appendChild(el("p", "Nothing: it is your turn again.", "note")); return; }
    var list = el("ol", null, "recent");
    steps.forEach(function (step) {
      list.appendChild(el("li", step.entries.join(" · "), step.by === "chance" ? "chance" : "bot"));
    });
    box.appendChild(list);
  }

  function turn(view) {
    var box = $("turn");
    box.replaceChildren();
    var banner = $("whose");
    if (view.over) {
      banner.textContent = "The game is over.";
      box.appendChild(el("h2", "The game is over"));
      var scores = view.scores.map(function (s, p) { return "P" + p + " " + s; }).join(", ");
      box.appendChild(el("p", "Scores: " + scores + ". Winner: " +
                          view.winners.map(function (w) { return "P" + w; }).join(" and ") + "."));
      return;
    }
    banner.textContent = "Your turn (" + view.seat + "): " + (view.actions.length === 1 ? "one action" :
      view.actions.length + " actions") + ". Click a region or a token on the board, or a button below.";
    box.appendChild(el("h2", "Your turn (" + view.seat + ")"));
    var rule = el("p", "The rule asking: ");
    rule.appendChild(el("code", view.rule));
    box.appendChild(rule);
    var actions = el("div", null, "actions");
    actions.id = "actions";
    var groups = {};
    var seen = {};
    view.actions.forEach(function (a) {
      if (seen[a.text]) { return; }
      seen[a.text] = true;
      var group = groups[a.verb];
      if (!group) {
        group = groups[a.verb] = el("fieldset", null, "verb");
        group.dataset.verb = a.verb;
        group.appendChild(el("legend", a.verb));
        actions.appendChild(group);
      }
      var b = el("button", a.words.length ? a.words.join(" ") : a.verb);
      b.type = "button";
      b.dataset.action = a.text;
      var quote = (view.action_cites[a.cites] || []).map(function (c) { return c.quote; }).join(" / ");
      b.title = a.text + " — rule " + a.rule + (quote ? ": " + quote : "");
      b.setAttribute("aria-describedby", "action-help");
      b.addEventListener("click", function () { act(a.text); });
      b.addEventListener("focus", function () { help(a); });
      b.addEventListener("mouseenter", function () { help(a); });
      group.appendChild(b);
    });
    box.appendChild(actions);
    var hint = el("p", "", "note");
    hint.id = "hint";
    hint.setAttribute("aria-live", "polite");
    box.appendChild(hint);
    var about = el("div", null, "action-help");
    about.id = "action-help";
    about.setAttribute("aria-live", "polite");
    box.appendChild(about);
    help(view.actions[0]);
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
    since(view);
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
