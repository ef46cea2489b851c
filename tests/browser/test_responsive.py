"""Issue 14 in headless Chromium: phone width and wide screens, light and dark, focus, keys by
position, labels kept across claim sources, and re-run feedback. Screenshots go to
tests/artifacts/ (docs/screenshots/ holds the ones the README shows)."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from groundview.answers.checks.running import run_check
from groundview.answers.models import Answer, CheckRun
from groundview.review.models import AnswerLabel
from tests.factories import create_check_run

from .test_review_flow import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1440, "height": 900}
# Contrast of a text colour against the colour behind it (WCAG relative luminance).
CONTRAST_JS = """
(el) => {
  function rgb(c) { return c.match(/[\\d.]+/g).slice(0, 4).map(Number); }
  function lum(c) {
    var v = rgb(c).slice(0, 3).map(function (x) {
      x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  }
  var bg = el;
  while (bg && (getComputedStyle(bg).backgroundColor === "rgba(0, 0, 0, 0)")) bg = bg.parentElement;
  var a = lum(getComputedStyle(el).color), b = lum(getComputedStyle(bg || document.body).backgroundColor);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
"""


def demo_with_a_check():
    """The demo answers, one of them checked: claims on its supports' spans, one left uncited."""
    call_command("load_demo", verbosity=0)
    answer = Answer.objects.get(answer_text__startswith="Open the notebook and choose File")
    facts, sources = [], []
    for reference in answer.references.order_by("position"):
        for chunk in reference.chunks.order_by("position"):
            facts.append({"factText": chunk.content, "attributes": {"title": reference.title}})
            sources.append({"reference": reference.position, "chunk": chunk.position})
    supports = list(answer.grounding_supports.order_by("start_index"))
    scores = [0.92, 0.71, 0.45, 0.2]
    claims = [
        (
            s.start_index,
            s.end_index,
            scores[i % 4],
            # As the engine does: a claim under the 0.6 threshold cites nothing.
            [i % len(facts)] if i < len(supports) - 1 and scores[i % 4] >= 0.6 else [],
        )
        for i, s in enumerate(supports)
    ]
    create_check_run(answer, claims, facts=facts, fact_sources=sources)
    return answer


def demo_checked_by_the_engine():
    """The same demo answer checked by the real engine, in-process: the README's pictures of the
    answer page show what the checker says, pleasantry left unchecked included."""
    call_command("load_demo", verbosity=0)
    answer = Answer.objects.get(answer_text__startswith="Open the notebook and choose File")
    run = run_check(CheckRun.objects.create(answer=answer).pk)
    assert run.status == CheckRun.Status.SUCCEEDED, run.error
    return answer


def no_sideways_scroll(page):
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_list_and_detail_fit_phone_and_wide_screens(
    live_server, browser, reviewer, artifacts, scheme
):
    answer = demo_checked_by_the_engine()
    for name, viewport in (("narrow", PHONE), ("wide", WIDE)):
        context = browser.new_context(viewport=viewport, color_scheme=scheme)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        try:
            log_in(page, live_server, "rita", "pw-rita-123")
            assert no_sideways_scroll(page), page.evaluate("document.scrollingElement.scrollWidth")
            # Every menu entry is on screen: the menu wraps, hiding none off to the side.
            rights = page.locator(".nav a").evaluate_all(
                "links => links.map(a => a.getBoundingClientRect().right)"
            )
            assert rights and max(rights) <= viewport["width"], rights
            page.screenshot(path=str(artifacts / f"list-{name}-{scheme}.png"), full_page=False)

            page.goto(f"{live_server.url}/answers/{answer.pk}/")
            assert no_sideways_scroll(page), page.evaluate("document.scrollingElement.scrollWidth")
            if name == "narrow":
                # The claims panel (with the chunks) comes right below the answer text.
                text_box = page.locator("#answer-text").bounding_box()
                claims_box = page.locator("#claims").bounding_box()
                references_box = page.locator("#references").bounding_box()
                assert text_box["y"] < claims_box["y"] < references_box["y"]
            # Selecting a claim opens its chunks: still no sideways scroll.
            page.keyboard.press("j")
            page.wait_for_timeout(400)
            assert no_sideways_scroll(page), page.evaluate("document.scrollingElement.scrollWidth")
            page.evaluate("window.scrollTo(0, 0)")
            if name == "wide":
                # Save stays in view while the claims panel scrolls on its own.
                save = page.locator(".save-bar button[value=save]").bounding_box()
                assert save and save["y"] + save["height"] <= viewport["height"], save
            page.screenshot(path=str(artifacts / f"detail-{name}-{scheme}.png"), full_page=False)
            # Grey text stays readable (WCAG AA: 4.5:1).
            for selector in (".muted", ".claim-status", ".crumbs"):
                ratio = page.locator(selector).first.evaluate(CONTRAST_JS)
                assert ratio >= 4.5, (selector, scheme, ratio)
            assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (
                scheme == "dark"
            )
        finally:
            context.close()
        assert not errors


def test_focus_is_visible_and_no_svg_takes_focus(live_server, page, reviewer):
    answer = demo_with_a_check()
    log_in(page, live_server, "rita", "pw-rita-123")
    focused = []
    for _ in range(40):
        page.keyboard.press("Tab")
        focused.append(page.evaluate("document.activeElement.tagName.toLowerCase()"))
    assert "svg" not in focused

    page.goto(f"{live_server.url}/answers/{answer.pk}/")
    page.keyboard.press("j")
    outline = page.evaluate(
        "(() => { var s = getComputedStyle(document.activeElement);"
        " return [document.activeElement.id, s.outlineStyle, s.outlineWidth]; })()"
    )
    assert outline[0] == "claim-1"
    assert outline[1] != "none" and outline[2] != "0px", outline


def test_digit_shortcuts_work_by_key_position(live_server, page, reviewer):
    answer = demo_with_a_check()
    log_in(page, live_server, "rita", "pw-rita-123")
    page.goto(f"{live_server.url}/answers/{answer.pk}/")
    page.keyboard.press("j")
    # AZERTY: the key left of 2 types "&" unshifted; its position is still Digit1.
    page.evaluate(
        "document.activeElement.dispatchEvent(new KeyboardEvent('keydown',"
        " {key: '&', code: 'Digit1', bubbles: true, cancelable: true}))"
    )
    assert page.locator('#claim-1 input[value="supported"]').is_checked()
    assert page.locator("li.claim.is-selected").get_attribute("id") == "claim-2"
    # A Cyrillic layout types "р" on the QWERTY "h" key... and "з" on "p": still partially.
    page.evaluate(
        "document.activeElement.dispatchEvent(new KeyboardEvent('keydown',"
        " {key: 'з', code: 'KeyP', bubbles: true, cancelable: true}))"
    )
    assert page.locator('#claim-2 input[value="partially_supported"]').is_checked()
    assert not page.errors


def test_switching_source_asks_first_and_keeps_the_labels(live_server, page, reviewer, artifacts):
    answer = demo_with_a_check()
    log_in(page, live_server, "rita", "pw-rita-123")
    page.goto(f"{live_server.url}/answers/{answer.pk}/?source=checker")
    page.keyboard.press("j")
    page.keyboard.press("1")
    page.keyboard.press("3")

    # Switching source with unsaved labels asks first ...
    page.locator(".tabs a", has_text="Imported supports").click()
    prompt = page.locator("dialog.unsaved-prompt")
    assert prompt.is_visible()
    page.screenshot(path=str(artifacts / "unsaved-prompt.png"))
    # ... and "Save, then switch" saves the checker's labels and opens the imported supports.
    prompt.get_by_role("button", name="Save, then switch").click()
    page.wait_for_url("**source=imported**")
    label = AnswerLabel.objects.get(answer=answer, reviewer=reviewer)
    checker_spans = sorted(label.claims.values_list("start_index", "end_index", "verdict"))
    assert [verdict for *_, verdict in checker_spans] == ["supported", "unsupported"]

    # The imported supports lie on the same spans here: the same claim shows the same label.
    assert page.locator('#claim-1 input[value="supported"]').is_checked()
    assert page.locator('#claim-2 input[value="unsupported"]').is_checked()
    # Relabelling claim 1 there and saving changes that claim only. (k: with nothing selected,
    # the first claim; j would go to the first claim without a verdict, claim 3.)
    page.keyboard.press("k")
    page.keyboard.press("4")
    page.locator('button[name="action"][value="save"]').click()
    page.wait_for_load_state()
    spans = sorted(label.claims.values_list("start_index", "end_index", "verdict"))
    (first, second) = checker_spans
    assert spans == [(*first[:2], "contradicted"), second]
    assert not page.errors


def test_rerun_shows_progress_at_once_and_clicks_join_the_run(
    live_server, page, reviewer, monkeypatch
):
    from groundview.answers import checks

    # No engine here: the run stays queued, as it does while a busy worker gets to it.
    monkeypatch.setattr(checks, "send_runs", lambda run_ids: None)
    answer = demo_with_a_check()
    log_in(page, live_server, "rita", "pw-rita-123")
    page.goto(f"{live_server.url}/answers/{answer.pk}/")
    url_before = page.url
    button = page.locator("form.rerun-form button")
    button.click()
    progress = page.locator("#check-progress")
    progress.wait_for(timeout=3000)
    assert "queued" in progress.inner_text()
    assert page.url == url_before  # no page load: the script posted it
    button.click()
    # (a locator expectation: the page's Content-Security-Policy forbids evaluated strings)
    expect(progress).to_contain_text("already", timeout=3000)
    assert CheckRun.objects.filter(answer=answer, status="queued").count() == 1
    assert not page.errors


def test_a_check_that_finishes_does_not_reload_away_unsaved_labels(live_server, page, reviewer):
    answer = demo_with_a_check()
    pending = CheckRun.objects.create(answer=answer)  # queued; nothing sends it here
    log_in(page, live_server, "rita", "pw-rita-123")
    page.goto(f"{live_server.url}/answers/{answer.pk}/?source=checker")
    page.keyboard.press("j")
    page.keyboard.press("1")

    # the check finishes (here: the workers give up on it) while the label is unsaved
    CheckRun.objects.filter(pk=pending.pk).update(status="failed", error="gave up")

    progress = page.locator("#check-progress")
    expect(progress).to_contain_text("The check has finished. Save your labels", timeout=8000)
    assert page.locator('#claim-1 input[value="supported"]').is_checked()
    assert not page.errors


def test_keys_act_on_the_focused_claim_and_save_returns_to_it(live_server, page, reviewer):
    answer = demo_with_a_check()
    log_in(page, live_server, "rita", "pw-rita-123")
    page.goto(f"{live_server.url}/answers/{answer.pk}/?source=checker")

    # A keyboard user tabs into claim 2's verdicts (claim 1 was selected before) and presses 3
    page.locator("#claim-1").click()
    page.locator('#claim-2 input[value="supported"]').focus()
    page.keyboard.press("3")
    assert page.locator('#claim-2 input[value="unsupported"]').is_checked()
    assert not page.locator('#claim-1 input[type="radio"]:checked').count()

    # Saving comes back to the claim selected then, with focus on it
    page.locator('button[name="action"][value="save"]').click()
    page.wait_for_load_state()
    selected = page.url.split("#")[-1]
    assert selected.startswith("claim-")
    expect(page.locator(f"#{selected}")).to_have_class(re.compile("is-selected"))
    assert not page.errors


def test_a_mis_keyed_claim_verdict_can_be_taken_back(live_server, page, reviewer):
    answer = demo_with_a_check()
    log_in(page, live_server, "rita", "pw-rita-123")
    page.goto(f"{live_server.url}/answers/{answer.pk}/?source=checker")
    page.keyboard.press("j")
    page.keyboard.press("4")  # contradicted, by mistake; the selection moves on
    page.keyboard.press("k")  # back to claim 1
    assert page.locator('#claim-1 input[value="contradicted"]').is_checked()

    page.keyboard.press("Backspace")

    assert not page.locator('#claim-1 input[type="radio"]:checked').count()
    page.keyboard.press("Shift+Digit3")  # the answer: unsupported
    page.locator('button[name="action"][value="save"]').click()
    page.wait_for_load_state()
    label = AnswerLabel.objects.get(answer=answer, reviewer=reviewer)
    assert (label.verdict, label.claims.count()) == ("unsupported", 0)
    assert not page.errors
