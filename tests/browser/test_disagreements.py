"""Issue 14 item 4 in headless Chromium: blind labelling on the answer page, the disagreement
list (wide and narrow, light and dark, no serious axe findings), settling a claim there, and
its links to the claim on the answer page. The wide screenshots of the disagreement and
agreement pages go to docs/screenshots/ as well as tests/artifacts/."""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from groundview.answers.models import Answer
from groundview.grounding.claims import segment_claims
from groundview.review import adjudication
from groundview.review.adjudication import DisagreementFilters, select_disagreements
from groundview.review.models import Adjudication
from groundview.review.services import save_label
from groundview.review.verdicts import ClaimVerdict

from .test_responsive import PHONE, WIDE, demo_with_a_check, no_sideways_scroll
from .test_review_flow import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PASSWORD = "pw-long-enough-1"


@pytest.fixture
def people(django_user_model, reviewer):
    make = django_user_model.objects.create_user
    return {
        "rita": reviewer,
        "otto": make(username="otto", password=PASSWORD),
        "cleo": make(username="cleo", password=PASSWORD),
        "ada": make(username="ada", password=PASSWORD, is_staff=True),
    }


def disagreeing_demo(people):
    """The demo answers: one checked, where rita and otto differ with each other and the checker,
    and a few unchecked ones labelled sentence by sentence; one claim settled by ada."""
    checked = demo_with_a_check()
    spans = sorted((c["startPos"], c["endPos"]) for c in checked.latest_check.response["claims"])
    rita = ["supported", "unsupported", "partially_supported", "supported"]
    otto = ["supported", "supported", "unsupported", "contradicted"]
    for who, verdicts in (("rita", rita), ("otto", otto)):
        claims = [ClaimVerdict(*span, v) for span, v in zip(spans, verdicts, strict=False)]
        save_label(checked, people[who], verdict="partially_supported", claims=claims)

    others = Answer.objects.exclude(pk=checked.pk).exclude(answer_text="").order_by("pk")[:4]
    for n, answer in enumerate(others):
        sentences = [(c.start_byte, c.end_byte) for c in segment_claims(answer.answer_text)]
        for who, first in (("rita", "supported"), ("otto", ["unsupported", "supported"][n % 2])):
            claims = [ClaimVerdict(*sentences[0], first)]
            claims += [ClaimVerdict(*span, "supported") for span in sentences[1:2]]
            save_label(answer, people[who], verdict=first, claims=claims)
    adjudication.adjudicate_claim(
        checked,
        people["ada"],
        start_index=spans[1][0],
        end_index=spans[1][1],
        verdict="unsupported",
        note="The reference gives another version.",
    )
    return checked, spans


def test_the_answer_page_hides_other_verdicts_until_the_reviewer_saves_theirs(
    live_server, page, people, artifacts
):
    checked, spans = disagreeing_demo(people)
    log_in(page, live_server, "cleo", PASSWORD)

    page.goto(f"{live_server.url}/answers/{checked.pk}/?source=checker")
    claims = page.locator("#claims")
    assert "rita:" not in claims.inner_text() and "otto:" not in claims.inner_text()
    assert "rita:" not in page.locator(".scores").inner_text()
    assert page.locator("#blind-note").inner_text().startswith("2 other reviewers labelled")
    assert "2 other verdicts on this claim" in page.locator("#claim-1").inner_text()
    # The checker's highlight stays: it is not another reviewer's vote.
    assert page.locator('#answer-text .hl[data-claim="claim-1"]').first.is_visible()
    page.screenshot(path=str(artifacts / "blind-before.png"))

    # cleo labels the first claim only, and saves
    page.keyboard.press("j")
    page.keyboard.press("1")
    page.locator('button[name="action"][value="save"]').click()
    page.wait_for_load_state()

    first = page.locator("#claim-1 .claim-others")
    assert "rita: Supported" in first.inner_text() and "otto: Supported" in first.inner_text()
    second = page.locator("#claim-2").inner_text()
    assert "rita:" not in second and "shown once you save yours" in second
    assert "rita: Partially supported" in page.locator(".scores").inner_text()
    page.screenshot(path=str(artifacts / "blind-after.png"))
    assert not page.errors


def test_disagreements_are_listed_settled_and_linked_to_their_claim(
    live_server, browser, people, artifacts
):
    checked, spans = disagreeing_demo(people)
    open_rows = len(select_disagreements(people["ada"], DisagreementFilters()))
    with_checker = len(select_disagreements(people["ada"], DisagreementFilters(kind="checker")))
    assert open_rows >= 4 and with_checker >= 2
    axe = Axe()
    for scheme in ("light", "dark"):
        for width, viewport in (("wide", WIDE), ("narrow", PHONE)):
            context = browser.new_context(viewport=viewport, color_scheme=scheme)
            page = context.new_page()
            try:
                log_in(page, live_server, "ada", PASSWORD)
                page.goto(f"{live_server.url}/disagreements/")
                assert page.locator("table.disagreements tbody tr").count() == open_rows
                assert no_sideways_scroll(page), page.evaluate(
                    "document.scrollingElement.scrollWidth"
                )
                results = axe.run(page, options={"resultTypes": ["violations"]}).response
                blocking = [
                    f"{v['id']}: {v['help']} at {v['nodes'][0]['target']}"
                    for v in results["violations"]
                    if v["impact"] in ("serious", "critical")
                ]
                assert not blocking, (scheme, width, blocking)
                name = f"disagreements-{width}-{scheme}.png"
                page.screenshot(path=str(artifacts / name))
                if width == "wide":
                    page.screenshot(path=str(DOCS / name))
                    page.goto(f"{live_server.url}/agreement/")
                    assert page.locator("#against-final tbody tr").count() == 2
                    for folder in (artifacts, DOCS):
                        shot = folder / f"agreement-wide-{scheme}.png"
                        page.screenshot(path=str(shot), full_page=True)
            finally:
                context.close()

    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        log_in(page, live_server, "ada", PASSWORD)
        page.goto(f"{live_server.url}/disagreements/?kind=checker")
        rows = page.locator("table.disagreements tbody tr")
        assert rows.count() == with_checker

        # Settling the first row takes it off the open list and onto the settled one.
        row = rows.first
        text = row.locator(".answer-link").inner_text()
        row.locator('select[name="verdict"]').select_option("supported")
        row.locator('input[name="note"]').fill("Both references say so 😀")
        row.locator('button[value="settle"]').click()
        page.wait_for_url("**/disagreements/?kind=checker")
        assert "Settled “" in page.locator(".messages").inner_text()
        assert page.locator("table.disagreements tbody tr").count() == with_checker - 1
        settled = Adjudication.objects.get(claim_text=text)
        assert (settled.verdict, settled.note) == ("supported", "Both references say so 😀")
        page.goto(f"{live_server.url}/disagreements/?status=settled")
        assert page.locator("table.disagreements tbody tr").count() == 2
        assert "settled by ada" in page.inner_text("table.disagreements")

        # A claim's link opens the answer page with that claim selected and every verdict shown.
        page.goto(f"{live_server.url}/disagreements/?status=all&kind=checker")
        link = page.locator("table.disagreements .answer-link").first
        text = link.inner_text()
        link.click()
        page.wait_for_url(f"**/answers/{checked.pk}/**")
        selected = page.locator("li.claim.is-selected")
        assert selected.locator(".claim-text").inner_text() == text
        assert "rita:" in selected.inner_text() and "otto:" in selected.inner_text()
        assert not errors
    finally:
        context.close()
