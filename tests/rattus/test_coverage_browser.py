"""The coverage pages (every sentence of a rulebook and what accounts for it) in a real browser, at laptop and
phone widths: no page-wide horizontal scroll, nothing cut off at the right edge, readable text, and the links
beside each sentence lead somewhere.  Skips, saying why, where no browser is installed (`make browser`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .browser import WIDTHS, browser, open_page, screenshot, shots  # noqa: F401

#: Measured in the page: its scroll width, every sentence block and its text, the links beside the sentences.
MEASURE = """
() => {
  const blocks = [...document.querySelectorAll('div.rules-coverage')];
  const out = [];
  let smallest = 100, narrowest = 1e9;
  const canvas = document.createElement('canvas').getContext('2d');
  const sample = 'Der Spieler kann Würfel seiner eigenen Farbe in einer beliebigen Region platzieren. ';
  for (const b of blocks) {
    const r = b.getBoundingClientRect();
    if (r.right > innerWidth + 1 || r.left < -1) out.push(b.textContent.trim().slice(0, 60));
    for (const el of b.querySelectorAll('p, li, a, code')) {
      const e = el.getBoundingClientRect();
      if (e.width > 0 && (e.right > innerWidth + 1 || e.right > r.right + 1)) out.push(el.textContent.slice(0, 60));
      if (el.tagName === 'P' && el.clientWidth > 0) {
        const cs = getComputedStyle(el);
        smallest = Math.min(smallest, parseFloat(cs.fontSize));
        canvas.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        narrowest = Math.min(narrowest, el.clientWidth / (canvas.measureText(sample).width / sample.length));
      }
    }
  }
  const links = [...document.querySelectorAll('div.rules-coverage-by a.reference')];
  const broken = links.filter(a => !a.getAttribute('href')).map(a => a.textContent);
  return {scroll: document.documentElement.scrollWidth, width: innerWidth, blocks: blocks.length,
          cut: out, smallest, narrowest, links: links.length, broken,
          statuses: [...new Set(blocks.map(b => [...b.classList].find(c => c.startsWith('rules-coverage-'))))]};
}
"""


@pytest.mark.parametrize("width", ["1280", "phone"])
@pytest.mark.parametrize(("page_name", "least_blocks"), [("coverage", 200), ("coverage-ratten-scharf", 50)])
def test_every_sentence_is_shown_readable_and_whole(page_name: str, least_blocks: int, width: str,
                                                     open_page: Any, site: Path, shots: Path,  # noqa: F811
                                                     ) -> None:
    w, h = WIDTHS[width]
    page = open_page(w, h).page
    page.goto((site / f"{page_name}.html").as_uri())
    seen = page.evaluate(MEASURE)
    screenshot(page, shots, f"{page_name}-{width}")
    assert seen["blocks"] >= least_blocks
    assert seen["scroll"] <= seen["width"], seen  # no page-wide horizontal scroll
    assert seen["cut"] == [], seen["cut"]  # nothing reaches past the right edge
    assert seen["smallest"] >= 12, seen  # readable text
    assert seen["narrowest"] >= 20, seen  # no column squeezed to a few characters a line
    assert seen["links"] > least_blocks // 2 and seen["broken"] == []
    assert set(seen["statuses"]) <= {"rules-coverage-cited", "rules-coverage-waived"}


def test_a_link_beside_a_sentence_leads_to_its_rule(open_page: Any, site: Path) -> None:  # noqa: F811
    page = open_page(*WIDTHS["1280"]).page
    page.goto((site / "coverage.html").as_uri())
    block = page.locator("div.rules-coverage", has_text="Demzufolge ist es nicht erlaubt, weitere Rattenplättchen")
    link = block.locator("a.reference", has_text="rule three_per_region")
    link.first.click()
    assert page.url.split("#")[0].endswith("rulebook.html")
    assert page.evaluate("() => location.hash") == "#rules-rule-three-per-region"
    # a sentence with several readings links the switch table
    page.goto((site / "coverage.html").as_uri())
    several = page.locator("div.rules-coverage", has_text="Several readings")
    assert several.count() >= 3
    assert several.first.locator("a.reference", has_text="switch table").get_attribute("href") \
        .startswith("interpretations.html")
