/* The replay viewer: steps through the frames embedded in the page (see rattus_rules/tools/views/viewer.py). */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("rattus-data").textContent);
  var frames = data.frames;
  var current = -1;
  var slider = document.getElementById("slider");

  var el = Rattus.el;
  var citations = Rattus.citations;

  /* The seats' table, where the game has one (frame.players is null otherwise: the section hides). */
  function players(frame) {
    document.getElementById("players-section").hidden = frame.players === null;
    if (frame.players !== null) { Rattus.players(document.getElementById("players"), frame.players, null); }
  }

  /* The position: the game's SVG picture, or else the position as text. */
  function position(frame) {
    var box = document.getElementById("picture");
    var text = function (numbers) { return numbers.map(function (n) { return data.lines[n]; }).join("\n"); };
    if (frame.svg) { Rattus.picture(box, text(frame.svg)); }
    else { box.replaceChildren(el("pre", text(frame.text), "position")); }
    document.getElementById("zoom").hidden = !frame.svg;  /* a position written as text wraps: nothing to zoom */
  }

  function step(frame, k) {
    var box = document.getElementById("step");
    box.replaceChildren();
    var last = k === frames.length - 1;
    if (frame.index === null) {
      box.appendChild(el("h2", "The end of the record"));
      box.appendChild(el("p", frame.status));
      return;
    }
    box.appendChild(el("h2", (last && data.verdict.status === "illegal" ? "Refused: record entry " : "Record entry ") +
                       frame.index + " (step " + k + ")"));
    var list = el("div", null, "entry");
    frame.entries.forEach(function (i) { list.appendChild(el("div", data.entries[i].text)); });
    box.appendChild(list);
    box.appendChild(el("p", frame.status));
    if (frame.rule) {
      var rule = el("p", "Rule: ");
      rule.appendChild(el("code", frame.rule));
      box.appendChild(rule);
      citations(box, frame.citations);
    }
  }

  function verdict(k) {
    var box = document.getElementById("verdict");
    box.replaceChildren();
    if (k !== frames.length - 1) { return; }
    var v = data.verdict;
    var div = el("div", null, "verdict " + v.status);
    div.id = "verdict-box";
    div.appendChild(el("h2", v.headline));
    if (v.status === "illegal") {
      div.appendChild(el("p", "Why: " + v.reason));
      if (v.rule) {
        var rule = el("p", "Rule: ");
        rule.appendChild(el("code", v.rule));
        div.appendChild(rule);
      }
      citations(div, v.citations);
      if (v.legal.length) { div.appendChild(el("p", "Legal there: " + v.legal.join(", "))); }
      if (v.legal_hidden) { div.appendChild(el("p", v.legal_hidden, "note")); }
    }
    if (v.final.length) { div.appendChild(finalScores(v.final)); }
    v.warnings.forEach(function (w) { div.appendChild(el("p", "Warning: " + w, "note")); });
    box.appendChild(div);
  }

  /* The final scores, highest first, and the winner named plainly. */
  function finalScores(rows) {
    var box = el("div", null, "final");
    var won = rows.filter(function (r) { return r.winner; }).map(function (r) { return r.label; });
    box.appendChild(el("p", (won.length > 1 ? "Winners: " : "Winner: ") + won.join(", "), "winner"));
    var table = el("table", null, "scores");
    table.id = "final-scores";
    var head = el("tr");
    ["player", "final score"].forEach(function (h) { head.appendChild(el("th", h)); });
    table.appendChild(head);
    rows.slice().sort(function (a, b) { return b.score - a.score; }).forEach(function (r) {
      var row = el("tr", null, r.winner ? "winner" : "");
      row.appendChild(el("td", r.label + (r.winner ? " (winner)" : "")));
      row.appendChild(el("td", r.score));
      table.appendChild(row);
    });
    box.appendChild(table);
    return box;
  }

  function entries(frame) {
    var mine = {};
    frame.entries.forEach(function (i) { mine[i] = true; });
    var items = document.getElementById("entries").children;
    var first = null;
    for (var i = 0; i < items.length; i++) {
      var on = !!mine[i];
      items[i].classList.toggle("current", on);
      if (on && first === null) { first = items[i]; }
    }
    if (first) {  /* scroll the record list only, never the window */
      var list = document.getElementById("entries");
      var top = first.offsetTop, bottom = top + first.offsetHeight;
      if (top < list.scrollTop) { list.scrollTop = top - 4; }
      else if (bottom > list.scrollTop + list.clientHeight) { list.scrollTop = bottom - list.clientHeight + 4; }
    }
  }

  function show(k) {
    k = Math.max(0, Math.min(frames.length - 1, k));
    if (k === current) { return; }
    current = k;
    var frame = frames[k];
    slider.value = String(k);
    document.getElementById("where").textContent = "step " + k + " of " + (frames.length - 1) +
      (frame.index === null ? " · the end" : " · record entry " + frame.index);
    position(frame);
    step(frame, k);
    verdict(k);
    players(frame);
    entries(frame);
    document.getElementById("prev").disabled = k === 0;
    document.getElementById("first").disabled = k === 0;
    document.getElementById("next").disabled = k === frames.length - 1;
    document.getElementById("last").disabled = k === frames.length - 1;
    if (window.location.hash !== "#" + k) { window.history.replaceState(null, "", "#" + k); }
  }

  document.getElementById("title").textContent = data.title;
  document.getElementById("about").textContent = data.about;
  document.getElementById("components").textContent = data.components;
  document.getElementById("settings").textContent = "Interpretations: " + data.settings + ".";
  var list = document.getElementById("entries");
  data.entries.forEach(function (e, i) {
    var li = el("li", e.text, e.state);
    li.dataset.entry = String(i);
    li.addEventListener("click", function () { if (e.frame !== null) { show(e.frame); } });
    list.appendChild(li);
  });
  slider.max = String(frames.length - 1);
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1); });
  document.getElementById("last").addEventListener("click", function () { show(frames.length - 1); });
  document.addEventListener("keydown", function (ev) {
    if (ev.target === slider) { return; }  /* the slider moves by itself */
    var moves = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1};
    if (ev.key in moves) { show(current + moves[ev.key]); ev.preventDefault(); }
    else if (ev.key === "Home") { show(0); ev.preventDefault(); }
    else if (ev.key === "End") { show(frames.length - 1); ev.preventDefault(); }
  });
  var zoom = document.getElementById("zoom");
  zoom.addEventListener("click", function () {
    var on = document.getElementById("picture").classList.toggle("zoomed");
    zoom.setAttribute("aria-pressed", on ? "true" : "false");
    zoom.textContent = on ? "fit board" : "zoom board";
  });
  function fromHash() {
    var start = parseInt(window.location.hash.slice(1), 10);
    show(isNaN(start) ? (data.verdict.status === "illegal" ? frames.length - 1 : 0) : start);
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
}());
