"""The documentation in a real browser (Debian's Chromium, driven by Playwright): the rulebook page
at laptop and phone widths.  Skips, saying why, where no browser is installed (`make browser`).

Checked on screen: the navigation does not fill the first screen, every paragraph of the rules
(English and German, nested rules too) keeps at least 40 characters per line at 1280 px, and no
circled letter (Ⓐ, Ⓑ, Ⓒ) is left for a font that may lack it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .browser import WIDTHS, browser, open_page, screenshot, shots  # noqa: F401

#: Measured in the page: the first screen, the narrowest paragraph of the rules, the circled letters.
MEASURE = """
() => {
  const canvas = document.createElement('canvas').getContext('2d');
  const sample = 'Jeder Spieler setzt zwei seiner Würfel in eine beliebige Region. ';
  const paragraphs = [];
  for (const p of document.querySelectorAll('div.rules-en p, div.rules-de p')) {
    if (p.clientWidth === 0 || !p.textContent.trim()) continue;
    const cs = getComputedStyle(p);
    const pad = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
    canvas.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const perChar = canvas.measureText(sample).width / sample.length;
    paragraphs.push({chars: (p.clientWidth - pad) / perChar, width: p.clientWidth,
                     text: p.textContent.trim().slice(0, 80)});
  }
  paragraphs.sort((a, b) => a.chars - b.chars);
  const side = document.querySelector('div.sphinxsidebar').getBoundingClientRect();
  const visible = (r) => Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0))
                         * Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0));
  const heading = document.querySelector('div.body h1').getBoundingClientRect();
  const left = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const t = walker.currentNode;
    if (/[\\u24b6-\\u24e9]/.test(t.nodeValue) && t.parentElement.closest('script, style') === null) {
      left.push(t.nodeValue.trim().slice(0, 60));
    }
  }
  const circles = [...document.querySelectorAll('span.rattus-circled')].map(
    s => ({text: s.textContent, width: s.getBoundingClientRect().width,
           round: getComputedStyle(s).borderTopLeftRadius}));
  return {paragraphs: paragraphs.length, narrowest: paragraphs.slice(0, 3),
          navShare: visible(side) / (innerWidth * innerHeight),
          heading: {top: heading.top, bottom: heading.bottom}, left, circles};
}
"""


@pytest.mark.parametrize(("width", "least_chars"), [("1440", 40), ("1280", 40), ("phone", 30)])
def test_rulebook_columns_navigation_and_circled_letters(width: str, least_chars: int,
                                                        open_page: Any, site: Path, shots: Path,  # noqa: F811
                                                        ) -> None:
    w, h = WIDTHS[width]
    page = open_page(w, h).page
    page.goto((site / "rulebook.html").as_uri())
    seen = page.evaluate(MEASURE)
    screenshot(page, shots, f"rulebook-{width}")
    # the first screen shows the page, not the navigation
    assert 0 <= seen["heading"]["top"] < h / 3, seen["heading"]
    assert seen["navShare"] < 0.25, seen["navShare"]
    # the rules' columns stay readable, nested rules included
    assert seen["paragraphs"] > 100
    assert seen["narrowest"][0]["chars"] >= least_chars, seen["narrowest"]
    # Ⓐ/Ⓑ/Ⓒ: none left as a character a font may lack; each drawn as a letter in a circle
    assert seen["left"] == []
    circles = seen["circles"]
    assert circles and {c["text"] for c in circles} >= {"A", "B", "C"}
    assert all(c["width"] > 5 and c["round"] == "50%" for c in circles)


def test_the_phone_link_leads_to_the_navigation(open_page: Any, site: Path) -> None:  # noqa: F811
    page = open_page(*WIDTHS["phone"]).page
    page.goto((site / "rulebook.html").as_uri())
    link = page.locator("p.rattus-skip a")
    assert link.is_visible()
    link.click()
    top = page.evaluate("() => document.getElementById('rattus-navigation').getBoundingClientRect().top")
    assert -2 <= top < WIDTHS["phone"][1] / 2  # scrolled to the navigation
    wide = open_page(*WIDTHS["1280"]).page
    wide.goto((site / "rulebook.html").as_uri())
    assert not wide.locator("p.rattus-skip a").is_visible()
