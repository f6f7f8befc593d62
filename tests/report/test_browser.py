"""The report and the review site in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, which ``.ci/run`` installs) through Selenium, with no browser download.

Each page must load with no console error; a proposal is approved by clicking on its page and the
decision is then found in the audit chain. A screenshot of each page is written under
``build/test-artefacts/browser/`` (or ``$MAGG_TEST_ARTEFACTS``).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from magg_kg.sqlite import SQLiteStore
from tests.cli import magg
from tests.report.conftest import serving

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def arrived(browser: webdriver.Chrome, element_id: str) -> WebElement:
    """The element with this id once the page that follows a click has it (a click that submits a
    form returns before the next page is loaded)."""
    found: WebElement = WebDriverWait(browser, 10).until(
        expected_conditions.presence_of_element_located((By.ID, element_id))
    )
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
        message = "headless Chromium is not installed: apt-get install -y chromium chromium-driver"
        if os.environ.get("CI") == "true":
            pytest.fail(message)  # CI installs it (.ci/run): its absence there is a failure
        pytest.skip(message)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1600", "--no-first-run", "--disable-extensions"):  # fmt: skip
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def artefacts() -> Path:
    folder = Path(os.environ.get("MAGG_TEST_ARTEFACTS") or ROOT / "build" / "test-artefacts" / "browser")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def errors(driver: webdriver.Chrome) -> list[str]:
    """The console errors since the last call (reading the log empties it)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def full_page(driver: webdriver.Chrome, path: Path) -> None:
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.set_window_size(1280, min(max(height, 800), 12000))
    assert driver.save_screenshot(str(path)), f"no screenshot at {path}"
    driver.set_window_size(1280, 1600)
    assert path.stat().st_size > 10_000


def test_the_html_report_opens_offline_with_no_console_error(
    browser: webdriver.Chrome,
    artefacts: Path,
    demo_db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = tmp_path / "report.html"
    code, _, err = magg(
        ["audit", "report", "--format", "html", "--out", str(report), "--db", str(demo_db)], capsys
    )
    assert code == 0, err
    errors(browser)
    browser.get(report.as_uri())
    assert browser.find_element(By.TAG_NAME, "h1").text == "Audit report"
    charts = browser.find_elements(By.CSS_SELECTOR, ".chart svg")
    assert len(charts) >= 3 and all(chart.size["width"] > 200 for chart in charts[:3]), "charts are drawn"
    assert errors(browser) == []
    full_page(browser, artefacts / "report.png")


def test_a_reviewer_approves_on_the_page_and_the_audit_chain_has_it(
    browser: webdriver.Chrome, artefacts: Path, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serving(db) as url:
        errors(browser)
        browser.get(f"{url}/queue")
        rows = browser.find_elements(By.CSS_SELECTOR, "#queue a")
        assert rows, "the demo should leave proposals for a person"
        assert errors(browser) == []
        full_page(browser, artefacts / "queue.png")

        proposal = rows[0].text
        rows[0].click()
        assert arrived(browser, "state").text == "quarantined"
        assert browser.find_elements(By.TAG_NAME, "mark"), "the evidence is shown in its lesson"
        assert errors(browser) == []
        full_page(browser, artefacts / "proposal.png")

        browser.find_element(By.ID, "reviewer").send_keys("Ada Lovelace")
        browser.find_element(By.ID, "note").send_keys("the lesson states it in this direction")
        browser.find_element(By.ID, "approve").click()
        assert arrived(browser, "notice").text == "Approved: the edge is committed."
        assert browser.find_element(By.ID, "state").text == "committed"
        assert errors(browser) == []
        full_page(browser, artefacts / "approved.png")

        for name, path in (("domains", "/domains"), ("domain-report", None), ("graph", None)):
            if path is None:
                link = "report" if name == "domain-report" else "graph"
                browser.get(f"{url}/domains")
                path = browser.find_element(By.LINK_TEXT, link).get_attribute("href")
                assert path
                browser.get(path)
            else:
                browser.get(f"{url}{path}")
            assert browser.find_element(By.TAG_NAME, "h1").text
            assert errors(browser) == [], name
            full_page(browser, artefacts / f"{name}.png")

    store = SQLiteStore.open(db)
    try:
        [decision] = [d for d in store.decisions(proposal) if d.model == "human"]
        events = [e for e in store.audit_events() if e.kind == "record_decision" and e.subject == decision.id]
    finally:
        store.close()
    assert (decision.verdict, decision.detail["reviewer"]) == ("approve", "Ada Lovelace")
    assert decision.rationale == "approved by Ada Lovelace: the lesson states it in this direction"
    [event] = events
    assert json.loads(event.payload)["proposal_id"] == proposal
    code, out, _ = magg(["audit", "verify", "--json", "--db", str(db)], capsys)
    assert code == 0 and json.loads(out)["ok"] is True
