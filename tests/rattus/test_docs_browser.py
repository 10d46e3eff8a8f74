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


# ------------------------------------------------------------------ every page on a phone (issue 28)
#: Measured on a page: page-wide horizontal scroll, and each wide table or code block, which must scroll
#: inside its own box (its box within the window, its overflow auto or scroll).
WIDE = """() => {
  const d = document.documentElement;
  const boxes = [...document.querySelectorAll('div.body table, div.body pre')].map(e => {
    const r = e.getBoundingClientRect();
    return {tag: e.tagName, right: r.right, wide: e.scrollWidth > e.clientWidth + 1,
            overflow: getComputedStyle(e).overflowX, text: e.textContent.trim().slice(0, 40)};
  });
  return {scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, boxes: boxes};
}"""


def generated_pages(site: Path) -> list[Path]:
    """Every page of the built docs (not Sphinx's own folders)."""
    return sorted(p for p in site.rglob("*.html")
                  if not any(part.startswith("_") for part in p.relative_to(site).parts))


def test_every_page_fits_a_phone_and_wide_tables_scroll_in_their_box(open_page: Any, site: Path,  # noqa: F811
                                                                     shots: Path) -> None:  # noqa: F811
    pages = generated_pages(site)
    names = {p.relative_to(site).as_posix() for p in pages}
    assert {"interpretations.html", "study.html", "coverage.html", "rulebook.html", "api.html"} <= names
    w, h = WIDTHS["phone"]
    page = open_page(w, h).page
    wide_tables = 0
    for path in pages:
        page.goto(path.as_uri())
        seen = page.evaluate(WIDE)
        name = path.relative_to(site).as_posix()
        assert seen["scrollWidth"] <= seen["clientWidth"], f"{name}: the page scrolls sideways at {w} px"
        for box in seen["boxes"]:
            assert box["right"] <= w + 1, f"{name}: {box}"
            if box["wide"]:
                assert box["overflow"] in ("auto", "scroll"), f"{name}: a wide box that does not scroll: {box}"
                wide_tables += box["tag"] == "TABLE"
    assert wide_tables >= 3  # the switch table, the decision tables, ... scroll inside their own boxes
    for name in ("interpretations", "study", "coverage"):
        for width in ("1280", "phone"):
            shown = open_page(*WIDTHS[width]).page
            shown.goto((site / f"{name}.html").as_uri())
            assert shown.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
            screenshot(shown, shots, f"usability-docs-{name}-{width}")


def test_the_switch_table_scrolls_inside_its_box_on_a_phone(open_page: Any, site: Path) -> None:  # noqa: F811
    page = open_page(*WIDTHS["phone"]).page
    page.goto((site / "interpretations.html").as_uri())
    table = page.locator("table.rules-switches").first
    sizes = table.evaluate("(t) => ({sw: t.scrollWidth, cw: t.clientWidth, right: t.getBoundingClientRect().right})")
    assert sizes["sw"] > sizes["cw"] and sizes["right"] <= WIDTHS["phone"][0]
    table.evaluate("(t) => { t.scrollLeft = t.scrollWidth; }")
    assert table.evaluate("(t) => t.scrollLeft") > 0  # the columns past the edge are reached in the box


def test_the_study_page_gives_the_answer_first(site: Path, open_page: Any) -> None:  # noqa: F811
    page = open_page(*WIDTHS["1280"]).page
    for name in ("study", "study-ratten-scharf"):
        page.goto((site / f"{name}.html").as_uri())
        headings = page.locator("div.body h2").all_inner_texts()
        assert [h.rstrip("¶").strip() for h in headings[:2]] == ["The answer", "How it was measured"]
        first = page.locator("div.body section section p").first.inner_text()
        assert first.startswith("Which readings change the winner, and how often")
        answer = page.locator("div.body section section").first.inner_text()
        assert "the winner changes most under" in answer and "%" in answer


@pytest.mark.parametrize("folder", ["study", "study-ratten-scharf"])
def test_the_study_report_is_rendered_with_margins(folder: str, open_page: Any, shots: Path) -> None:  # noqa: F811
    report = Path(__file__).resolve().parents[2] / "docs" / folder / "report.html"
    for width in ("1280", "phone"):
        w, h = WIDTHS[width]
        page = open_page(w, h).page
        page.goto(report.as_uri())
        text = page.inner_text("body")
        assert "**" not in text and "`" not in text and "*diverged*" not in text, "raw Markdown on the page"
        assert page.locator("p strong").count() >= 3 and page.locator("p em").count() >= 3
        assert page.locator("p code").count() >= 3
        left = page.evaluate("() => document.querySelector('h1').getBoundingClientRect().left")
        assert left >= 12, f"no margin at {w} px: the text starts at {left} px"
        assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        screenshot(page, shots, f"usability-study-report-{folder}-{width}")
