"""Queue v2 and evidence in headless Chromium (issue 14, items 3 and 5): j/k between claims, n to
the next answer in one request with the filter carried through, skip, and the evidence panel
(a cited chunk in its document, the nearest chunks of an uncited claim) wide and at phone width.
Screenshots go to tests/artifacts/."""

import re

import pytest
from playwright.sync_api import expect

from groundview.review import views
from groundview.review.models import AnswerLabel
from tests.factories import (
    create_answer,
    create_check_run,
    create_gaps_answer,
    document_reference,
    span_of,
)

from .test_review_flow import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
EIFFEL = (
    "The Eiffel Tower is 330 m tall 🗼. It opened in 1889. The tower is in Paris. "
    "Let me know if you need more!"
)
CHUNKS = [
    "Paris is the capital of France. The tower stands on the Champ de Mars in Paris.",
    "The tower is 330 metres tall. It was finished in March 1889.",
    "It opened to the public in 1889. Millions visit it every year.",
]


def eiffel_answer():
    """Four claims: 1 and 3 cited, 2 uncited (its support was missed), 4 needs no check."""
    answer = create_answer(
        EIFFEL,
        query="Queue question: how tall is the Eiffel Tower?",
        references=[
            document_reference("Eiffel Tower", CHUNKS),
            document_reference("Bananas", ["Bananas are yellow."]),
        ],
    )
    create_check_run(
        answer,
        [
            (*span_of(EIFFEL, "The Eiffel Tower is 330 m tall 🗼."), 0.9, [1]),
            (*span_of(EIFFEL, "It opened in 1889."), 0.3, []),
            (*span_of(EIFFEL, "The tower is in Paris."), 0.8, [0]),
            (*span_of(EIFFEL, "Let me know if you need more!"), None, [], False),
        ],
        facts=[{"factText": c, "attributes": {"title": "Eiffel Tower"}} for c in CHUNKS]
        + [{"factText": "Bananas are yellow.", "attributes": {"title": "Bananas"}}],
        fact_sources=[{"reference": 0, "chunk": i} for i in range(3)]
        + [{"reference": 1, "chunk": 0}],
    )
    return answer


def small_answer(text, query):
    answer = create_answer(text, query=query, references=[document_reference("Source", [text])])
    create_check_run(
        answer,
        [(0, len(text.encode()), 0.9, [0])],
        facts=[{"factText": text, "attributes": {"title": "Source"}}],
        fact_sources=[{"reference": 0, "chunk": 0}],
    )
    return answer


@pytest.fixture
def queue_answers():
    """Three answers in the queue for q=queue (newest first) and a newer one outside it."""
    third = small_answer("Everest is 8,849 m high.", "Queue question: Everest?")
    second = small_answer("巴黎是法国的首都。", "Queue question: 巴黎?")
    first = eiffel_answer()
    outside = small_answer("Bananas are yellow.", "Something else entirely")
    return first, second, third, outside


def selected(page) -> str:
    return page.locator("li.claim.is-selected").get_attribute("id")


def test_j_k_n_and_skip_through_a_filtered_queue(
    live_server, page, reviewer, artifacts, queue_answers
):
    first, second, third, outside = queue_answers
    log_in(page, live_server, "rita", "pw-rita-123")
    page.goto(f"{live_server.url}/queue/?q=queue")
    page.wait_for_url(f"**/answers/{first.pk}/?queue=1&q=queue")

    # j: the first claim; a verdict moves on to the next claim still without one.
    page.keyboard.press("j")
    assert selected(page) == "claim-1"
    page.keyboard.press("1")
    assert selected(page) == "claim-2"
    # k: back one claim, labelled or not; j from there finds claim 2 still open.
    page.keyboard.press("k")
    assert selected(page) == "claim-1"
    page.keyboard.press("j")
    assert selected(page) == "claim-2"
    # Leave claim 2 for later: j goes on to claim 3, a verdict there to claim 4.
    page.keyboard.press("j")
    assert selected(page) == "claim-3"
    page.keyboard.press("u")
    assert selected(page) == "claim-4"
    # The last open claim is claim 2: a verdict on claim 4 wraps round to it.
    page.keyboard.press("x")
    assert selected(page) == "claim-2"
    page.keyboard.press("k")
    page.keyboard.press("j")
    assert selected(page) == "claim-2"
    page.keyboard.press("2")
    # Every claim has a verdict now: j simply walks on.
    assert selected(page) == "claim-3"
    page.keyboard.press("j")
    assert selected(page) == "claim-4"
    expect(page.locator("#labelled-count")).to_have_text("4 of 4 labelled")
    page.keyboard.press("?")
    expect(page.locator("#shortcuts")).to_contain_text("next claim without a verdict")
    page.screenshot(path=str(artifacts / "queue-keys-labelled.png"))

    # n: saved, and the next answer of the same filter comes in one request.
    requests = []
    page.on("request", lambda r: requests.append((r.method, r.url.removeprefix(live_server.url))))
    page.keyboard.press("n")
    page.wait_for_url(f"**/answers/{second.pk}/?queue=1&q=queue")
    expect(page.locator("#queue-progress")).to_have_text("2 of 3 left · you labelled 1")
    documents = [(m, u) for m, u in requests if not u.startswith("/static/")]
    assert documents == [
        ("POST", f"/answers/{first.pk}/label/"),
        ("GET", "/queue/progress.json?q=queue"),
    ]
    assert page.locator("li.claim .claim-text").first.inner_text() == "巴黎是法国的首都。"
    label = AnswerLabel.objects.get(answer=first, reviewer=reviewer)
    assert dict(label.claims.values_list("claim_text", "verdict")) == {
        "The Eiffel Tower is 330 m tall 🗼.": "supported",
        "It opened in 1889.": "partially_supported",
        "The tower is in Paris.": "unsupported",
        "Let me know if you need more!": "no_check_needed",
    }
    page.screenshot(path=str(artifacts / "queue-keys-next.png"))

    # A reload shows the same answer again and posts nothing.
    requests.clear()
    page.reload()
    assert page.url == f"{live_server.url}/answers/{second.pk}/?queue=1&q=queue"
    assert not [r for r in requests if r[0] == "POST"]
    assert AnswerLabel.objects.filter(reviewer=reviewer).count() == 1

    # Skip: on to the third answer in one request, nothing saved.
    requests.clear()
    page.get_by_role("button", name="Skip this answer").click()
    page.wait_for_url(f"**/answers/{third.pk}/?queue=1&q=queue")
    assert [r for r in requests if not r[1].startswith("/static/")][0] == (
        "POST",
        f"/queue/skip/{second.pk}/",
    )
    assert not any(u.startswith("/queue/?") for _, u in requests)

    # The last one: labelled with keys, then n finds nothing left in this filter, and the
    # answer outside the filter was never offered.
    page.keyboard.press("j")
    page.keyboard.press("1")
    page.keyboard.press("Shift+1")
    page.keyboard.press("n")
    page.wait_for_url("**/queue/?q=queue")
    expect(page.locator("h1")).to_have_text("Nothing left to review")
    assert not AnswerLabel.objects.filter(answer=outside).exists()
    assert set(AnswerLabel.objects.values_list("answer_id", flat=True)) == {first.pk, third.pk}
    # Back to an answer that came as the answer to a POST: a plain GET of its own address.
    requests.clear()
    page.go_back()
    # (the hash is the claim that was selected there)
    assert page.url.split("#")[0] == f"{live_server.url}/answers/{third.pk}/?queue=1&q=queue"
    assert ("GET", f"/answers/{third.pk}/?queue=1&q=queue") in requests
    assert not [r for r in requests if r[0] == "POST"]
    assert not page.errors


def test_without_script_save_and_next_is_one_redirect_to_the_next_answer(
    live_server, browser, reviewer, queue_answers
):
    first, second, _, _ = queue_answers
    context = browser.new_context(
        viewport={"width": 1440, "height": 1000}, java_script_enabled=False
    )
    page = context.new_page()
    try:
        log_in(page, live_server, "rita", "pw-rita-123")
        page.goto(f"{live_server.url}/queue/?q=queue")
        page.wait_for_url(f"**/answers/{first.pk}/**")
        page.locator(".answer-verdict label.v-supported").click()
        responses = []
        page.on("response", lambda r: responses.append((r.request.method, r.status)))
        page.locator("#save-next").click()
        page.wait_for_url(f"**/answers/{second.pk}/?queue=1&q=queue")
        assert [r for r in responses if r[0] == "POST"] == [("POST", 303)]
        # The counts are on the page itself.
        assert page.locator("#queue-progress").inner_text() == "2 of 3 left · you labelled 1"
    finally:
        context.close()


def no_sideways_scroll(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@pytest.mark.parametrize(
    "viewport,scheme,name",
    [
        ({"width": 1440, "height": 1000}, "light", "evidence-wide"),
        (PHONE, "light", "evidence-phone"),
        (PHONE, "dark", "evidence-phone-dark"),
    ],
)
def test_evidence_in_context_and_nearest_chunks(
    live_server, browser, reviewer, artifacts, viewport, scheme, name
):
    answer = eiffel_answer()
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        log_in(page, live_server, "rita", "pw-rita-123")
        page.goto(f"{live_server.url}/answers/{answer.pk}/")

        # The cited claim: its chunk in its document, the sentences around it, the support marked.
        page.keyboard.press("j")
        cited = page.locator("#claim-1 .chunk").first
        expect(cited.locator("mark.support")).to_have_text("The tower is 330 metres tall.")
        text = cited.locator("blockquote").inner_text()
        assert "The tower stands on the Champ de Mars in Paris." in text  # the chunk before
        assert "It was finished in March 1889." in text  # after, same chunk
        assert "It opened to the public in 1889." in text  # the next chunk

        # The uncited claim: its nearest chunks with their scores, nearest first.
        page.keyboard.press("j")
        uncited = page.locator("#claim-2")
        expect(uncited.locator("details.evidence summary")).to_have_text(
            re.compile(r"No cited chunk · \d nearest")
        )
        nearest = uncited.locator(".chunk-near")
        assert nearest.count() >= 2
        expect(nearest.first.locator("mark.support")).to_have_text(
            "It opened to the public in 1889."
        )
        expect(nearest.first.locator(".near-scores")).to_contain_text("BM25")
        scores = [
            float(re.search(r"BM25 ([\d.]+)", nearest.nth(i).inner_text()).group(1))
            for i in range(nearest.count())
        ]
        assert scores == sorted(scores, reverse=True)
        # "+ cite" confirms a nearest chunk as the claim's citation, numbered as the page shows
        # it: reference 1, its third chunk (stored as positions "0:2").
        nearest.first.locator("button.pick").click()
        assert uncited.locator('input[name="claim-2-citations"]').input_value() == "1:3"

        uncited.scroll_into_view_if_needed()
        assert no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"{name}.png"), full_page=False)
        assert not errors
    finally:
        context.close()


GAPS = (
    "The tower is 330 metres tall 🗼. It was designed by Brad Pitt. It was not finished in 1889. "
    "The tower is 500 metres tall. 塔は東京にあります。 It is a private landmark. "
    "Sauvestre hired Eiffel in 1884. A ticket costs €25 a day. The lift is free. "
    "Tickets are always sold online."
)
GAPS_CHUNKS = [
    *CHUNKS[:2],
    # "public" said of the tower itself: "opened to the public" opposes no "private landmark"
    f"{CHUNKS[2]} The tower is public property. The public lift is not free. "
    "A season ticket costs €25 a year.",
    "Eiffel hired Sauvestre in 1884 to redraw the tower.",
    "Tickets are sold online and at the ticket office.",
]


@pytest.mark.parametrize(
    "viewport,scheme,name",
    [({"width": 1440, "height": 1000}, "light", "gaps-wide"), (PHONE, "dark", "gaps-phone-dark")],
)
def test_uncited_claims_say_what_no_reference_states(
    live_server, browser, reviewer, artifacts, viewport, scheme, name
):
    sentences = [
        "The tower is 330 metres tall 🗼.",
        "It was designed by Brad Pitt.",
        "It was not finished in 1889.",
        "The tower is 500 metres tall.",
        "塔は東京にあります。",
        "It is a private landmark.",
        "Sauvestre hired Eiffel in 1884.",
        "A ticket costs €25 a day.",
        "The lift is free.",
        "Tickets are always sold online.",
    ]
    answer = create_gaps_answer(GAPS, GAPS_CHUNKS, sentences, cited=(0, 1))
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    try:
        log_in(page, live_server, "rita", "pw-rita-123")
        page.goto(f"{live_server.url}/answers/{answer.pk}/")
        expect(page.locator("#claim-1 .claim-gaps")).to_have_count(0)
        expect(page.locator("#claim-2 .gaps-label")).to_have_text("Not backed:")
        expect(page.locator("#claim-2 .gap")).to_have_text(["Brad Pitt", "designed"])
        expect(page.locator("#claim-5 .gap")).to_have_text(["塔は東京にあります"])
        expect(page.locator("#claim-3 .claim-gaps .gap")).to_have_text(["not finished"])
        expect(page.locator("#claim-4 .gap")).to_have_text(["500 metres (they give 330 metres)"])
        expect(page.locator("#claim-6 .claim-gaps > .gap")).to_have_text(
            ["private (they say public)", "landmark"]
        )
        expect(page.locator("#claim-7 .claim-gaps > .gap")).to_have_text(
            ["Sauvestre … Eiffel (the other way round)"]
        )
        expect(page.locator("#claim-8 .claim-gaps > .gap")).to_have_text(
            ["€25 a day (they give €25 a year)"]
        )
        expect(page.locator("#claim-9 .claim-gaps > .gap")).to_have_text(["free (they negate it)"])
        # Every verdict button shows its whole label ("Unsupported", not "Unsupport…")
        cut = page.evaluate(
            "[...document.querySelectorAll('.verdict span')]"
            ".filter(s => s.scrollWidth > s.clientWidth).map(s => s.textContent)"
        )
        assert cut == []
        expect(page.locator("#claim-10 .claim-gaps > .gap")).to_have_text(
            ["always (they do not say always)"]
        )
        # The chips wrap inside the claims panel: nothing scrolls sideways at phone width.
        page.locator("#claim-10").scroll_into_view_if_needed()
        assert no_sideways_scroll(page)
        page.screenshot(path=str(artifacts / f"{name}.png"), full_page=False)
    finally:
        context.close()


def test_the_verdict_keys_are_the_ones_the_server_lists(
    live_server, page, reviewer, queue_answers, monkeypatch
):
    # Given a server that gives "contradicted" to 9 and "supported" to a letter review.js has
    # never heard of (the live server runs in this process, so the view sees the change)
    monkeypatch.setattr(
        views, "KEY_VERDICTS", {**views.KEY_VERDICTS, "9": "contradicted", "y": "supported"}
    )
    first = queue_answers[0]
    log_in(page, live_server, "rita", "pw-rita-123")
    page.goto(f"{live_server.url}/answers/{first.pk}/")

    # When the reviewer uses those keys for two claims and Shift+9 for the answer
    page.keyboard.press("j")
    page.keyboard.press("9")
    page.keyboard.press("y")
    page.keyboard.press("Shift+Digit9")
    expect(page.locator("#labelled-count")).to_have_text("2 of 4 labelled")
    with page.expect_navigation():
        page.keyboard.press("n")

    # Then what was saved is what the server's map says
    label = AnswerLabel.objects.get(answer=first, reviewer=reviewer)
    assert label.verdict == "contradicted"
    assert dict(label.claims.values_list("claim_text", "verdict")) == {
        "The Eiffel Tower is 330 m tall 🗼.": "contradicted",
        "It opened in 1889.": "supported",
    }
