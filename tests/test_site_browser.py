"""The rules site in a real browser: Debian's chromium driven by Playwright, against
`rulesdb serve` running on a free port of 127.0.0.1. Screenshots go to test-artifacts/."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from rulesdb.lineage.words import RAW_LABELS

from conftest import ROOT, SOURCES

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="/usr/bin/chromium is absent (apt-get install chromium)")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="the playwright package is not installed")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory, history_db):
    """`rulesdb serve` in a subprocess over a copy of the full-history database, stopped
    after the module."""
    db = tmp_path_factory.mktemp("browser") / "rules.db"
    shutil.copyfile(history_db, db)
    port = free_port()
    log = tmp_path_factory.mktemp("browser-log") / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "rulesdb", "serve", "--db", str(db), "--port", str(port),
             "--sources", str(SOURCES)],
            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env={**os.environ},
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                pytest.fail(f"rulesdb serve exited: {log.read_text()}")
            try:
                with urllib.request.urlopen(base + "/robots.txt", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"rulesdb serve did not answer in 120 s: {log.read_text()}")
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def page(server):
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )
        try:
            tab = browser.new_page(viewport={"width": 1280, "height": 900})
            tab.set_default_timeout(15000)
            yield tab
        finally:
            browser.close()


def test_rule_page_cross_reference_click_lands_on_its_target(server, page):
    page.goto(server + "/cr-2025-06-06-chapter7/702.19")
    assert page.locator("h1").inner_text() == "702.19 Trample"
    page.screenshot(path=str(ARTIFACTS / "rule-page.png"), full_page=True)
    page.locator('a.ref[href="/cr-2025-06-06-chapter7/702.19b"]').first.click()
    page.wait_for_url(server + "/cr-2025-06-06-chapter7/702.19b")
    assert page.locator("h1").inner_text() == "702.19b"
    text = page.locator(".rule-text").inner_text()
    assert "assigns damage to the creature(s) blocking it" in text


def test_a_rule_page_as_the_readme_shows_it(server, page):
    """The README's picture of the site, made here: docs/images/rule-page.png is a copy."""
    page.set_viewport_size({"width": 1200, "height": 760})
    page.goto(server + "/cr-2026-01-16/702.19b")
    assert page.locator("h1").inner_text() == "702.19b"
    page.screenshot(path=str(ARTIFACTS / "readme-rule-page.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    made = (ARTIFACTS / "readme-rule-page.png").read_bytes()
    shown = (ROOT / "docs" / "images" / "rule-page.png").read_bytes()
    assert made[:8] == shown[:8] == b"\x89PNG\r\n\x1a\n"
    assert made[16:24] == shown[16:24]  # the same width and height


def test_outside_coverage_reference_is_text_with_its_reason(server, page):
    page.goto(server + "/cr-2025-06-06-chapter7/702.19a")
    span = page.locator("span.ref-outside_coverage").first
    assert span.inner_text() == "See rule 510"
    assert span.get_attribute("title") == "cr-2025-06-06-chapter7 contains only 700-731"


def test_search_from_the_box_and_open_a_result(server, page):
    page.goto(server + "/cr-2009-02-01-flattened")
    box = page.locator("form.rulesdb-search input[name=q]")
    box.fill("trample")
    box.press("Enter")
    page.wait_for_url(server + "/search?q=trample")
    results = page.locator("ol.results > li > a")
    assert results.count() > 5
    assert page.locator("ol.results mark").first.inner_text().lower().startswith("trampl")
    href = results.first.get_attribute("href")
    results.first.click()
    page.wait_for_url(server + href)
    assert "trample" in page.locator("section.content").inner_text().lower()


def test_diff_page_marks_changed_words_side_by_side(server, page):
    page.goto(server + "/")
    href = page.locator('a[href^="/diff/cr-"]').first.get_attribute("href")
    page.locator(f'a[href="{href}"]').first.click()
    page.wait_for_url(server + href)
    # a pair across a renumbering of chapter 7 (the history has every release)
    page.goto(server + "/diff/cr-2023-10-13/cr-2025-02-07")
    page.locator("p.changes a", has_text="renumbered and edited").click()
    page.wait_for_url(server + "/diff/cr-2023-10-13/cr-2025-02-07?change=renumbered_edited")
    row = page.locator("tr.change-renumbered_edited").first
    assert row.locator("td").nth(0).locator("del").count() > 0
    assert row.locator("td").nth(1).locator("ins").count() > 0
    page.screenshot(path=str(ARTIFACTS / "diff-page.png"), full_page=False)
    assert (ARTIFACTS / "diff-page.png").stat().st_size > 10_000
    assert (ARTIFACTS / "rule-page.png").stat().st_size > 10_000


def test_no_page_breaks_its_content_security_policy(server, page):
    """Chromium reports what the policy blocks in the console: nothing is, on the rules
    pages and on Datasette's (its SQL editor, table and facet scripts run)."""
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text))
    for path in ("/", "/cr-2025-06-06-chapter7/702.19", "/search?q=trample", "/diff",
                 "/rules", "/rules/rules?_facet=kind", "/rules?sql=select+1",
                 "/rules/rule?number=702.19", "/-/databases"):
        page.goto(server + path)
        page.wait_for_load_state("load")
        if path == "/rules?sql=select+1":
            assert page.locator(".CodeMirror").count() == 1  # the editor's scripts ran
    blocked = [text for text in messages if "Content Security Policy" in text]
    assert blocked == []


# The history pages of a rule, a rule with subrules, a section and a chapter (summed up), and
# one release's step of a chapter, each at a desktop's and a phone's width (issue 41).
HISTORIES = {
    "rule": "/cr-2026-01-16/702.19b/history",
    "heading": "/cr-2026-01-16/702.19/history",
    "section": "/cr-2026-01-16/702/history",
    "chapter": "/cr-2026-01-16/7/history",
    "step": "/cr-2026-01-16/7/history?step=cr-2009-07-11",
}
# Each row's text cells, the fold lines' rows against the row above them, what scrolls.
MEASURE = """() => {
  const box = e => e.getBoundingClientRect();
  const rows = [...document.querySelectorAll('table.diff-table tr')]
    .filter(r => r.querySelector('td.text'));
  return {
    page: document.documentElement.clientWidth,
    scrolled: document.documentElement.scrollWidth,
    table: box(document.querySelector('table.diff-table')).width,
    texts: rows.map(r => [...r.querySelectorAll('td.text')]
      .filter(td => getComputedStyle(td).display !== 'none').map(td => box(td).width)),
    runs: [...document.querySelectorAll('tr.run')].map(r => ({
      width: box(r).width, top: box(r).top,
      above: box(r.previousElementSibling).bottom})),
  };
}"""


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("name", list(HISTORIES))
def test_a_history_gives_its_texts_the_width(server, page, name, width):
    """At 1280 px the compared texts of every row take at least 60% of the page; at 390 px
    (a phone) each text takes the page's width, nothing scrolls sideways, and the fold's line
    ("unchanged in 9 more editions, …") is a row of its own under its version, across it."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(server + HISTORIES[name])
    page.screenshot(path=str(ARTIFACTS / f"history-{name}-{width}.png"))
    seen = page.evaluate(MEASURE)
    assert seen["scrolled"] <= seen["page"]
    assert seen["texts"]
    for texts in seen["texts"]:
        if width == 1280:
            assert sum(texts) >= 0.6 * seen["page"], (texts, seen["page"])
        else:
            assert all(text >= 0.9 * seen["table"] for text in texts), (texts, seen["table"])
    for run in seen["runs"]:
        assert run["width"] >= 0.99 * seen["table"]
        assert run["top"] >= run["above"] - 1
    if name == "rule":
        assert seen["runs"], "702.19b's history folds runs of unchanged editions"


@pytest.mark.parametrize("name", list(HISTORIES))
def test_a_history_prints_no_raw_label_and_names_its_numbers(server, page, name):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(server + HISTORIES[name])
    shown = page.locator("body").inner_text()
    for raw in RAW_LABELS:
        assert raw not in shown
    if name == "chapter":  # cr-2003-03-15 numbered it 5: said so, not a bare "5"
        first = page.locator("tbody.step th").first.inner_text().split("\n")
        assert first == ["cr-2003-03-15", "chapter 5"]
    if name == "step":
        assert "What changed inside chapter 5 (now chapter 7)" in shown


def test_a_term_is_underlined_once_a_rule_and_its_other_links_on_hover_and_focus(server, page):
    """702.19b says "damage" eleven times: its first link is underlined, the others are links
    without a line until the pointer rests on one or the keyboard reaches it (Tab)."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(server + "/cr-2026-01-16/702.19b")
    page.screenshot(path=str(ARTIFACTS / "rule-page-terms.png"))
    line = "el => getComputedStyle(el).textDecorationLine"
    damage = page.locator('[id="702.19b"] a.term[href$="/glossary/damage"]')
    assert damage.count() > 3
    assert damage.first.evaluate(line) == "underline"
    later = damage.nth(2)
    assert "first" not in later.get_attribute("class")
    assert later.evaluate(line) == "none"
    later.hover()
    assert later.evaluate(line) == "underline"
    page.mouse.move(0, 0)
    page.locator('[id="702.19b"] a').first.focus()
    for _ in range(40):  # Tab through the rule's links to the third "damage"
        if later.evaluate("el => el === document.activeElement"):
            break
        page.keyboard.press("Tab")
    assert later.evaluate("el => el === document.activeElement")
    assert later.evaluate(line) == "underline"
