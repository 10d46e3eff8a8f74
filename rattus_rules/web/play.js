/* The play page: talks to the JSON interface of `rattus play --web` (see rattus_rules/tools/views/play.py). */
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

  /* Choosing on the picture.  Each action carries `paths`: the places (the picture's data-place keys)
     whose clicks, in turn, choose it; an action of a verb whose clicks the spec declares also carries
     `pick`, the words the clicks do not choose (chosen first, with the buttons of its verb). */
  var path = [];     /* the places clicked so far */
  var picked = {};   /* verb -> the pick chosen for it */

  function startsWith(p, prefix) {
    if (p.length < prefix.length) { return false; }
    for (var i = 0; i < prefix.length; i++) { if (p[i] !== prefix[i]) { return false; } }
    return true;
  }

  /* The actions a click path may still mean (for a verb with picks, only those of the pick chosen). */
  function candidates(prefix) {
    return game.actions.filter(function (a) {
      if (a.pick !== undefined && picked[a.verb] !== a.pick) { return false; }
      return a.paths.some(function (p) { return startsWith(p, prefix); });
    });
  }

  /* The places a next click may take, each with the verbs it leads to. */
  function nextPlaces() {
    var out = {};
    candidates(path).forEach(function (a) {
      a.paths.forEach(function (p) {
        if (p.length > path.length && startsWith(p, path)) {
          var key = p[path.length];
          out[key] = out[key] || [];
          if (out[key].indexOf(a.verb) < 0) { out[key].push(a.verb); }
        }
      });
    });
    return out;
  }

  function unique(found) {
    var texts = found.map(function (a) { return a.text; });
    return texts.filter(function (t, i) { return texts.indexOf(t) === i; });
  }

  /* Take the one action a click means, or mark the few it may mean and move the focus to the first. */
  function chooseAmong(texts, what) {
    if (texts.length === 1) { act(texts[0]); return; }
    var first = null;
    var choices = $("choices");
    choices.replaceChildren();
    document.querySelectorAll("#actions button[data-action]").forEach(function (b) {
      var on = texts.indexOf(b.dataset.action) >= 0;
      b.classList.toggle("suggested", on);
      if (on && first === null) { first = b; }
    });
    texts.forEach(function (t) {  /* an action with no button of its own (a verb chosen on the picture) */
      if (document.querySelector("#actions button[data-action='" + CSS.escape(t) + "']")) { return; }
      var b = el("button", t, "suggested");
      b.type = "button";
      b.dataset.action = t;
      b.addEventListener("click", function () { act(t); });
      choices.appendChild(b);
      if (first === null) { first = b; }
    });
    $("hint").textContent = texts.length ? what + " is in " + texts.length +
      " of your actions (marked in red): choose one." : what + " is in none of your actions now.";
    if (first) { first.focus(); }
  }

  function placeLabel(node) {
    var title = node.querySelector("title");
    var key = node.getAttribute("data-place");
    return title && title.textContent.indexOf(key) === 0 ? title.textContent : key;
  }

  /* A click (or Enter) on a place: go on along the paths through it, or take the action it completes. */
  function clickPlace(key, node) {
    var prefix = path.concat([key]);
    var found = candidates(prefix);
    var further = found.filter(function (a) {
      return a.paths.some(function (p) { return p.length > prefix.length && startsWith(p, prefix); });
    });
    if (!further.length) {
      path = [];
      mark();
      chooseAmong(unique(found), placeLabel(node));
      return;
    }
    path = prefix;
    mark();
    $("place-hint").textContent = "From " + path.join(", ") + ": now click where it goes (marked in blue); " +
      "Escape goes back.";
    var next = document.querySelector("#picture [data-place].clickable");
    if (next) { next.focus(); }
  }

  /* Mark the places a click may take now (focusable, a button each) and the ones clicked already. */
  function mark() {
    var svg = document.querySelector("#picture svg");
    if (!svg) { return; }
    var next = game.over ? {} : nextPlaces();
    svg.querySelectorAll("[data-place]").forEach(function (node) {
      var key = node.getAttribute("data-place");
      var on = Object.prototype.hasOwnProperty.call(next, key);
      node.classList.toggle("clickable", on);
      node.classList.toggle("chosen", path.indexOf(key) >= 0);
      if (on) {
        node.setAttribute("tabindex", "0");
        node.setAttribute("role", "button");
        node.setAttribute("aria-label", placeLabel(node) + ": " + next[key].join(" or "));
      } else {
        node.removeAttribute("tabindex");
        node.removeAttribute("role");
        node.removeAttribute("aria-label");
      }
    });
    if (!path.length) {
      var verbs = [];
      Object.keys(next).forEach(function (k) {
        next[k].forEach(function (v) { if (verbs.indexOf(v) < 0) { verbs.push(v); } });
      });
      $("place-hint").textContent = verbs.length ? "Click a place marked in blue to " + verbs.join(" or ") +
        " (or Tab to it, Enter), or a button." : "";
    }
  }

  function picture(view) {
    path = [];
    var box = $("picture");
    if (!view.svg) {
      box.replaceChildren(el("pre", view.text, "position"));
      $("zoom").hidden = true;
      $("place-hint").textContent = "";
      return;
    }
    $("zoom").hidden = false;
    var svg = Rattus.picture(box, view.svg);
    svg.querySelectorAll("[data-place]").forEach(function (node) {
      var key = node.getAttribute("data-place");
      node.addEventListener("click", function (ev) {
        if (!node.classList.contains("clickable")) { return; }
        ev.stopPropagation();
        clickPlace(key, node);
      });
      node.addEventListener("keydown", function (ev) {
        if (!node.classList.contains("clickable")) { return; }
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); clickPlace(key, node); }
      });
    });
    mark();
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
    var banner = $("whose-text");
    if (view.over) {
      banner.textContent = "The game is over.";
      box.appendChild(el("h2", "The game is over"));
      var scores = view.scores.map(function (s, p) { return "P" + p + " " + s; }).join(", ");
      box.appendChild(el("p", "Scores: " + scores + ". Winner: " +
                          view.winners.map(function (w) { return "P" + w; }).join(" and ") + "."));
      return;
    }
    banner.textContent = "Your turn (" + view.seat + "): " + (view.actions.length === 1 ? "one action" :
      view.actions.length + " actions") + ".";
    box.appendChild(el("h2", "Your turn (" + view.seat + ")"));
    var rule = el("p", "The rule asking: ");
    rule.appendChild(el("code", view.rule));
    box.appendChild(rule);
    var actions = el("div", null, "actions");
    actions.id = "actions";
    var groups = {};
    var seen = {};
    var picks = {};  /* verb -> its picks, in order; the one chosen stays chosen while it is legal */
    var onPicture = !!view.svg;  /* with no picture to click, every action is a button */
    view.actions.forEach(function (a) {
      if (a.pick === undefined || !onPicture) { return; }
      picks[a.verb] = picks[a.verb] || [];
      if (picks[a.verb].indexOf(a.pick) < 0) { picks[a.verb].push(a.pick); }
    });
    Object.keys(picks).forEach(function (v) { if (picks[v].indexOf(picked[v]) < 0) { picked[v] = picks[v][0]; } });
    var made = {};
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
      if (a.pick !== undefined && onPicture) {  /* chosen on the picture: a button per pick, then the clicks */
        if (made[a.verb + "\n" + a.pick]) { return; }
        made[a.verb + "\n" + a.pick] = true;
        var p = el("button", a.pick || a.verb, "pick");
        p.type = "button";
        p.dataset.verb = a.verb;
        p.dataset.pick = a.pick;
        p.setAttribute("aria-pressed", picked[a.verb] === a.pick ? "true" : "false");
        p.title = "choose " + a.verb + " " + a.pick + ", then click on the picture where it goes";
        p.addEventListener("click", function () {
          picked[a.verb] = a.pick;
          path = [];
          group.querySelectorAll("button.pick").forEach(function (o) {
            o.setAttribute("aria-pressed", o.dataset.pick === a.pick ? "true" : "false");
          });
          mark();
          var first = document.querySelector("#picture [data-place].clickable");
          if (first) { first.focus(); }
        });
        p.addEventListener("focus", function () { help(a); });
        p.addEventListener("mouseenter", function () { help(a); });
        group.appendChild(p);
        return;
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
    Object.keys(picks).forEach(function (verb) {
      groups[verb].appendChild(el("p", (picks[verb].length > 1 ? "Choose one, then click" : "Click") +
        " on the picture where it goes: the place it goes from, then the place it goes to.", "note"));
    });
    box.appendChild(actions);
    var choices = el("div", null, "actions");
    choices.id = "choices";
    box.appendChild(choices);
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
    turn(view);
    picture(view);
    since(view);
    players(view);
    log(view);
  }

  $("title").textContent = page.title;
  $("components").textContent = page.components;
  document.addEventListener("keydown", function (ev) {  /* Escape takes back the places clicked */
    if (ev.key === "Escape" && path.length && game) {
      path = [];
      mark();
      var first = document.querySelector("#picture [data-place].clickable");
      if (first) { first.focus(); }
    }
  });
  $("zoom").addEventListener("click", function () {
    var on = $("picture").classList.toggle("zoomed");
    $("zoom").setAttribute("aria-pressed", on ? "true" : "false");
    $("zoom").textContent = on ? "fit" : "zoom";
  });
  $("new-game").addEventListener("click", function () {
    $("game-view").hidden = true;
    $("setup-view").hidden = false;
  });
  call("GET", "/api/setup").then(setup, function (err) { showError($("setup-error"), err); });
}());
