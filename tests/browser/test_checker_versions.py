"""Issue 14 item 9 in headless Chromium: an admin goes from the agreement page to the checker
versions, compares them on held-out answers and makes one the default. Screenshots go to
tests/artifacts/checker-versions-*.png."""

import re

import pytest
from playwright.sync_api import expect

from groundview.answers.models import CheckerVersion
from groundview.review import checker_versions

from ..answers.test_calibrate_checker import labelled_set
from ..grounding.conftest import FakeEmbedder
from .test_responsive import PHONE, no_sideways_scroll
from .test_review_flow import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_versions(settings, tmp_path, reviewer):
    settings.GROUNDING = {**settings.GROUNDING, "EMBEDDER": FakeEmbedder(), "HEAD_PATH": None}
    settings.GROUNDVIEW_CHECK_ENGINE = ""
    settings.DATA_DIR = tmp_path
    labelled_set(reviewer)
    return checker_versions.calibrate(), checker_versions.calibrate(method="features")


def test_an_admin_compares_versions_and_makes_one_the_default(
    live_server, page, browser, admin_user, two_versions, artifacts
):
    platt, refit = two_versions
    log_in(page, live_server, "ada", "pw-ada-123")
    page.goto(f"{live_server.url}/agreement/")
    page.get_by_role("link", name="Checker versions calibrated on these labels").click()

    expect(page.get_by_role("heading", name="Checker versions")).to_be_visible()
    comparison = page.locator("section[aria-labelledby=compare-title]")
    # The newest version's held-out claims: the packaged head and both versions, one plot each.
    for name in ("packaged head", platt.name, refit.name):
        header = comparison.get_by_role("rowheader", name=re.compile(rf"^{name}( in use)?$"))
        expect(header).to_be_visible()
    # With no version the default, checks use the packaged head.
    expect(comparison.get_by_role("rowheader", name="packaged head in use")).to_be_visible()
    expect(comparison.locator("svg.calibration")).to_have_count(3)
    assert no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "checker-versions-wide.png"), full_page=True)

    row = page.locator("table.versions tr", has=page.get_by_role("rowheader", name=platt.name))
    row.get_by_role("button", name="Make default").click()

    expect(page.get_by_role("status")).to_contain_text(f"Checks now use {platt.name}.")
    expect(row.get_by_text("default", exact=True)).to_be_visible()
    assert CheckerVersion.objects.get(is_default=True) == platt
    page.screenshot(path=str(artifacts / "checker-versions-default.png"), full_page=True)

    page.get_by_role("button", name="Use the packaged head again").click()
    expect(page.get_by_role("status")).to_contain_text("Checks now use the packaged head.")
    assert not CheckerVersion.objects.filter(is_default=True).exists()
    assert not page.errors


def test_versions_page_fits_a_phone_in_dark(
    live_server, browser, admin_user, two_versions, artifacts
):
    context = browser.new_context(viewport=PHONE, color_scheme="dark")
    page = context.new_page()
    try:
        log_in(page, live_server, "ada", "pw-ada-123")
        page.goto(f"{live_server.url}/checker-versions/")
        expect(page.locator("svg.calibration")).to_have_count(3)
        page.screenshot(path=str(artifacts / "checker-versions-narrow-dark.png"), full_page=True)
        assert no_sideways_scroll(page), page.evaluate("document.scrollingElement.scrollWidth")
    finally:
        context.close()
