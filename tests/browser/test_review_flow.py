"""The review flow in headless Chromium: queue, keyboard labelling, save and next, escaping."""

import pytest

from groundview.review.models import AnswerLabel
from tests.factories import (
    create_answer,
    create_check_run,
    document_reference,
    grounding_support,
    span_of,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = "Mount Everest is 8,849 m high 🏔️. It sits on the border of Nepal and China. Ask me more!"
SECOND = "巴黎是法国的首都。埃菲尔铁塔建于1889年。"


def checked_answer(text, sentences, facts, query):
    answer = create_answer(
        text,
        query=query,
        references=[document_reference(f"Source {i}", [fact]) for i, fact in enumerate(facts)],
        groundingScore=0.8,
    )
    claims = []
    for i, sentence in enumerate(sentences):
        start, end = span_of(text, sentence)
        if i < len(facts):
            claims.append((start, end, 0.9 - 0.5 * i, [i]))
        else:
            claims.append((start, end, None, [], False))
    create_check_run(
        answer,
        claims,
        facts=[
            {"factText": fact, "attributes": {"title": f"Source {i}"}}
            for i, fact in enumerate(facts)
        ],
        fact_sources=[{"reference": i, "chunk": 0} for i in range(len(facts))],
    )
    return answer


def log_in(page, live_server, username, password):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


def test_keyboard_labelling_through_the_queue(live_server, page, reviewer, artifacts):
    # Given two checked answers waiting in the queue
    second = checked_answer(
        SECOND,
        ["巴黎是法国的首都。", "埃菲尔铁塔建于1889年。"],
        ["巴黎是法国的首都和最大城市。", "铁塔于1887年动工，1889年建成。"],
        "巴黎?",
    )
    first = checked_answer(
        FIRST,
        [
            "Mount Everest is 8,849 m high 🏔️.",
            "It sits on the border of Nepal and China.",
            "Ask me more!",
        ],
        [
            "Everest's summit is 8,849 metres above sea level. It is the highest mountain.",
            "The mountain lies on the border between Nepal and China.",
        ],
        "How high is Everest?",
    )
    log_in(page, live_server, "rita", "pw-rita-123")
    page.screenshot(path=str(artifacts / "answer-list.png"), full_page=True)

    # When the reviewer opens the queue, the newest unlabelled answer comes first
    page.goto(f"{live_server.url}/queue/")
    page.wait_for_url(f"**/answers/{first.pk}/**")
    assert page.locator(".queue-bar").is_visible()

    # and selecting the first claim with the keyboard shows its chunk with the sentence marked
    page.keyboard.press("j")
    selected = page.locator("li.claim.is-selected")
    assert selected.get_attribute("id") == "claim-1"
    mark = selected.locator("mark.support")
    assert mark.is_visible()
    assert mark.inner_text() == "Everest's summit is 8,849 metres above sea level."
    assert (
        page.locator("#answer-text .hl.is-selected").first.inner_text().startswith("Mount Everest")
    )
    page.screenshot(path=str(artifacts / "answer-detail.png"), full_page=False)

    # and picks another chunk as a corrected citation for the selected claim
    page.locator("#ref-2 summary").click()
    page.locator('#ref-2 button.pick[data-cite="2:1"]').click()
    assert selected.locator('input[name="claim-1-citations"]').input_value() == "2:1"

    # and labels every claim with one keystroke each, then the answer with Shift
    page.keyboard.press("1")  # claim 1 supported, moves to claim 2
    assert page.locator("li.claim.is-selected").get_attribute("id") == "claim-2"
    page.keyboard.press("p")  # claim 2 partially supported
    page.keyboard.press("x")  # claim 3 no check needed
    page.keyboard.press("Shift+P")
    page.keyboard.press("k")
    assert page.locator("li.claim.is-selected").get_attribute("id") == "claim-2"

    # and saves with n, which goes on to the next answer in the queue
    page.keyboard.press("n")
    page.wait_for_url(f"**/answers/{second.pk}/**")
    assert not page.errors

    # Then the label is in the database, claim by claim, with byte spans
    label = AnswerLabel.objects.get(answer=first, reviewer=reviewer)
    assert label.verdict == "partially_supported"
    claims = list(
        label.claims.order_by("start_index").values_list(
            "claim_text", "verdict", "start_index", "end_index"
        )
    )
    assert [(text, verdict) for text, verdict, _, _ in claims] == [
        ("Mount Everest is 8,849 m high 🏔️.", "supported"),
        ("It sits on the border of Nepal and China.", "partially_supported"),
        ("Ask me more!", "no_check_needed"),
    ]
    assert claims[0][2:] == span_of(FIRST, "Mount Everest is 8,849 m high 🏔️.")
    # stored as positions from 0, as the API and exports give them
    assert label.claims.get(start_index=claims[0][2]).corrected_citations == ["1:0"]

    # and clicking a highlighted claim in the Chinese answer selects it too
    page.locator('#answer-text .hl[data-claim="claim-2"]').first.click()
    assert page.locator("li.claim.is-selected").get_attribute("id") == "claim-2"
    # (the fact is one sentence, so all of it is marked)
    assert (
        page.locator("li.claim.is-selected mark.support").inner_text()
        == "铁塔于1887年动工，1889年建成。"
    )
    page.screenshot(path=str(artifacts / "answer-detail-cjk.png"), full_page=False)


def test_an_answer_with_a_script_tag_runs_no_script(live_server, page, reviewer, artifacts):
    text = 'Hi <script>window.pwned = true; alert("x")</script> <img src=x onerror="window.pwned=true"> bye.'
    answer = create_answer(
        text,
        references=[
            document_reference(
                "<script>alert(1)</script>", ['<b onmouseover="window.pwned=true">chunk</b>']
            )
        ],
        supports=[grounding_support(0, len(text.encode()), 0, score=0.5)],
    )
    log_in(page, live_server, "rita", "pw-rita-123")
    page.goto(f"{live_server.url}/answers/{answer.pk}/")
    page.keyboard.press("j")
    page.wait_for_timeout(200)
    assert page.evaluate("window.pwned === undefined")
    assert not page.errors
    assert (
        '<script>window.pwned = true; alert("x")</script>'
        in page.locator("#answer-text").inner_text()
    )
    assert page.locator("#answer-text script, #answer-text img").count() == 0
    page.screenshot(path=str(artifacts / "answer-detail-escaped.png"))


def test_labelling_works_without_javascript(live_server, browser, reviewer, artifacts):
    answer = checked_answer(
        FIRST,
        [
            "Mount Everest is 8,849 m high 🏔️.",
            "It sits on the border of Nepal and China.",
            "Ask me more!",
        ],
        [
            "Everest's summit is 8,849 metres above sea level.",
            "The mountain lies on the border between Nepal and China.",
        ],
        "How high is Everest?",
    )
    context = browser.new_context(
        viewport={"width": 1440, "height": 1000}, java_script_enabled=False
    )
    page = context.new_page()
    try:
        log_in(page, live_server, "rita", "pw-rita-123")
        page.goto(f"{live_server.url}/queue/")
        page.wait_for_url(f"**/answers/{answer.pk}/**")
        # Reading: the evidence opens as a plain <details>, the supporting sentence marked.
        page.locator("#claim-1 details.evidence summary").click()
        assert (
            page.locator("#claim-1 mark.support").inner_text()
            == "Everest's summit is 8,849 metres above sea level."
        )
        # Labelling: radio buttons and a submit button, nothing else.
        page.locator("#claim-1 label.v-supported").click()
        page.locator("#claim-2 label.v-unsupported").click()
        page.locator(".answer-verdict label.v-partially_supported").click()
        page.screenshot(path=str(artifacts / "answer-detail-nojs.png"))
        page.locator("#save-next").click()
        page.wait_for_url("**/queue/**")
    finally:
        context.close()
    label = AnswerLabel.objects.get(answer=answer, reviewer=reviewer)
    assert label.verdict == "partially_supported"
    assert dict(label.claims.values_list("claim_text", "verdict")) == {
        "Mount Everest is 8,849 m high 🏔️.": "supported",
        "It sits on the border of Nepal and China.": "unsupported",
    }
