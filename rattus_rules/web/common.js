/* Shared by the replay viewer and the play page: safe DOM building (text only, never HTML). */
var Rattus = (function () {
  "use strict";

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    if (cls) { node.className = cls; }
    return node;
  }

  /* Text with the rulebook's circled letters (Ⓐ Ⓑ Ⓒ) drawn as a letter in a ring: few fonts have them. */
  function ringed(tag, text) {
    var node = el(tag);
    String(text).split(/([\u24B6-\u24E9])/).forEach(function (part, i) {
      if (i % 2 === 0) { node.appendChild(document.createTextNode(part)); return; }
      var code = part.charCodeAt(0);
      var letter = String.fromCharCode(code < 0x24D0 ? code - 0x24B6 + 65 : code - 0x24D0 + 97);
      var ring = el("span", letter, "ringed");
      ring.title = part;
      node.appendChild(ring);
    });
    return node;
  }

  /* Each citation: the German sentence as a quote, then its source and section. */
  function citations(parent, cites) {
    cites.forEach(function (c) {
      var q = ringed("blockquote", c.quote);
      q.lang = "de";
      parent.appendChild(q);
      parent.appendChild(ringed("cite", c.source + ", " + c.section));
    });
  }

  /* An SVG picture (text from the server or the page's data), parsed as XML and put into a box. */
  function picture(box, text) {
    var doc = new DOMParser().parseFromString(text, "image/svg+xml");
    var svg = document.importNode(doc.documentElement, true);
    box.replaceChildren(svg);
    var view = svg.viewBox && svg.viewBox.baseVal;
    if (view && view.width > 0) {  /* its size at one unit a pixel: what "zoom" shows (rattus.css) */
      svg.style.setProperty("--natural-width", view.width + "px");
    }
    return svg;
  }

  /* The seats' table: the seat, then every other key of a row in order (a list written with commas); the one to
     move in bold, a winner marked.  A row's seat, label, to_move and winner are not columns. */
  var NOT_COLUMNS = ["seat", "label", "to_move", "winner"];

  function players(table, rows, mine) {
    table.replaceChildren();
    var columns = rows.length ? Object.keys(rows[0]).filter(function (k) { return NOT_COLUMNS.indexOf(k) < 0; }) : [];
    var head = el("tr");
    ["seat"].concat(columns).forEach(function (h) { head.appendChild(el("th", h)); });
    table.appendChild(head);
    rows.forEach(function (p) {
      var row = el("tr", null, (p.to_move ? "to-move" : "") + (p.winner ? " winner" : ""));
      row.dataset.seat = p.seat;
      var label = p.label + (p.seat === mine ? " (you)" : "") + (p.to_move ? " ◀" : "") +
        (p.winner ? " (winner)" : "");
      row.appendChild(el("td", label));
      columns.forEach(function (k) {
        var v = p[k];
        row.appendChild(el("td", Array.isArray(v) ? (v.join(", ") || "none") : v));
      });
      table.appendChild(row);
    });
  }

  return {el: el, ringed: ringed, citations: citations, picture: picture, players: players};
}());
