"""Review pages: login, list filters, detail rendering, labelling as a plain form."""

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from groundview.answers.models import Answer
from groundview.review.models import AnswerLabel
from groundview.review.verdicts import page_citation, stored_citation
from tests.factories import (
    chunk_reference,
    citation,
    create_answer,
    create_check_run,
    document_reference,
    grounding_support,
    span_of,
)

pytestmark = pytest.mark.django_db

TEXT = "Paris is the capital of France. Here is what I found. The Eiffel Tower is 330 m tall 😀."


@pytest.fixture
def paris():
    answer = create_answer(
        TEXT,
        query="Tell me about Paris",
        references=[
            document_reference(
                "Paris - Wikipedia",
                ["Paris is the capital and largest city of France. It has 2 million people."],
            ),
            chunk_reference(
                "The tower is 330 metres tall. It was built in 1889.", title="Eiffel Tower"
            ),
            document_reference("Unrelated", ["Bananas are yellow."]),
        ],
        supports=[
            grounding_support(*span_of(TEXT, "Paris is the capital of France."), 0, score=0.9)
        ],
        citations=[citation(*span_of(TEXT, "Paris is the capital of France."), 0)],
        groundingScore=0.7,
    )
    facts = [
        {
            "factText": "Paris is the capital and largest city of France. It has 2 million people.",
            "attributes": {"title": "Paris - Wikipedia"},
        },
        {
            "factText": "The tower is 330 metres tall. It was built in 1889.",
            "attributes": {"title": "Eiffel Tower"},
        },
        {"factText": "Bananas are yellow.", "attributes": {}},
    ]
    create_check_run(
        answer,
        [
            (*span_of(TEXT, "Paris is the capital of France."), 0.93, [0]),
            (*span_of(TEXT, "Here is what I found."), None, [], False),
            (*span_of(TEXT, "The Eiffel Tower is 330 m tall 😀."), 0.2, []),
        ],
        facts=facts,
        fact_sources=[
            {"reference": 0, "chunk": 0},
            {"reference": 1, "chunk": None},
            {"reference": 2, "chunk": 0},
        ],
    )
    return answer


def test_every_page_needs_login(client, paris):
    for url in [
        reverse("review:answer_list"),
        reverse("review:answer_detail", args=[paris.pk]),
        reverse("review:queue"),
        reverse("review:agreement"),
        reverse("review:check_status", args=[paris.pk]),
    ]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login"))


def test_list_shows_answers_and_histogram(reviewer_client, paris):
    response = reviewer_client.get(reverse("review:answer_list"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Tell me about Paris" in html
    assert "<svg" in html and "Our score" in html


def test_the_producer_histogram_says_how_many_answers_it_leaves_out(reviewer_client, paris):
    create_answer("No score here.")

    html = reviewer_client.get(reverse("review:answer_list")).content.decode()

    assert "(the producer's groundingScore; 1 answer without one)" in html


def test_the_list_shows_the_date_it_is_sorted_by(reviewer_client, paris):
    by_import = reviewer_client.get(reverse("review:answer_list")).content.decode()
    by_creation = reviewer_client.get(reverse("review:answer_list"), {"sort": "-created"})

    assert '<th scope="col">Imported</th>' in by_import
    assert paris.imported_at.strftime("%Y-%m-%d") in by_import
    assert '<th scope="col">Created</th>' in by_creation.content.decode()


def test_list_rejects_bad_filter_with_the_field_named(reviewer_client, paris):
    response = reviewer_client.get(reverse("review:answer_list"), {"score_min": "abc"})
    assert response.status_code == 400
    assert "score_min" in response.content.decode()


def test_detail_highlights_claims_and_marks_the_supporting_sentence(reviewer_client, paris):
    response = reviewer_client.get(reverse("review:answer_detail", args=[paris.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-claims="claim-1"' in html
    assert "hl-nocheck" in html and "hl-uncited" in html
    assert '<mark class="support">Paris is the capital and largest city of France.</mark>' in html
    # The banana reference is cited by neither the answer nor the checker.
    assert "retrieved, never cited" in html


def test_detail_imported_source_uses_grounding_supports(reviewer_client, paris):
    response = reviewer_client.get(
        reverse("review:answer_detail", args=[paris.pk]), {"source": "imported"}
    )
    html = response.content.decode()
    assert 'aria-current="true">Imported supports' in html
    assert html.count('class="claim"') == 1


def test_label_saves_as_a_plain_form(reviewer_client, reviewer, paris):
    start, end = span_of(TEXT, "The Eiffel Tower is 330 m tall 😀.")
    response = reviewer_client.post(
        reverse("review:save_label", args=[paris.pk]),
        {
            "claim_count": "3",
            "claim-3-start": str(start),
            "claim-3-end": str(end),
            "claim-3-verdict": "partially_supported",
            "claim-3-citations": "2, 1:1",
            "verdict": "",
            "note": "close",
        },
    )
    assert response.status_code == 302
    label = AnswerLabel.objects.get(answer=paris, reviewer=reviewer)
    assert label.verdict == "partially_supported"
    claim = label.claims.get()
    assert claim.claim_text == "The Eiffel Tower is 330 m tall 😀."
    # The page numbers references and chunks from 1; they are stored as positions, from 0.
    assert claim.corrected_citations == ["1", "0:0"]


def test_label_naming_a_chunk_that_does_not_exist_is_rejected(reviewer_client, paris):
    start, end = span_of(TEXT, "Paris is the capital of France.")
    # The page's third claim, the second given a verdict; its second citation is wrong.
    response = reviewer_client.post(
        reverse("review:save_label", args=[paris.pk]),
        {
            "claim_count": "3",
            "claim-1-start": "0",
            "claim-1-end": "5",
            "claim-1-verdict": "unsupported",
            "claim-2-start": "0",
            "claim-2-end": "3",
            "claim-3-start": str(start),
            "claim-3-end": str(end),
            "claim-3-verdict": "supported",
            "claim-3-citations": "1, 2:1",
        },
    )
    assert response.status_code == 400
    # Named as the page numbers claims and citations, from 1.
    assert "<strong>claim 3, corrected citation 2</strong>:" in response.content.decode()
    assert not AnswerLabel.objects.exists()


def first_claim_fields(**fields: str) -> dict[str, str]:
    """The page form's fields for its one claim, "Paris is the capital of France."."""
    start, end = span_of(TEXT, "Paris is the capital of France.")
    claim = {"claim_count": "1", "claim-1-start": str(start), "claim-1-end": str(end)}
    return claim | {f"claim-1-{key}": value for key, value in fields.items()}


def label_paris_claim(client, answer, citations: str, verdict: str = "supported"):
    """Post the page's form with one claim, "Paris is the capital of France.", labelled."""
    return client.post(
        reverse("review:save_label", args=[answer.pk]),
        first_claim_fields(verdict=verdict, citations=citations),
    )


@pytest.mark.parametrize("typed", ["0", "1:0"])
def test_a_citation_numbered_from_0_is_refused_as_the_page_numbers_from_1(
    reviewer_client, paris, typed
):
    response = label_paris_claim(reviewer_client, paris, typed)

    assert response.status_code == 400
    html = response.content.decode()
    assert "<strong>claim 1, corrected citation 1</strong>:" in html
    assert "numbered from 1" in html
    assert not AnswerLabel.objects.exists()


def test_the_page_shows_saved_citations_numbered_as_it_numbers_them(
    reviewer_client, reviewer, paris
):
    label_paris_claim(reviewer_client, paris, "1:1")

    html = reviewer_client.get(reverse("review:answer_detail", args=[paris.pk])).content.decode()

    assert AnswerLabel.objects.get().claims.get().corrected_citations == ["0:0"]
    assert 'name="claim-1-citations" value="1:1"' in html
    assert '<option value="1:1">1, chunk 1</option>' in html


def test_a_claim_span_that_is_no_number_is_named_as_the_page_numbers_it(reviewer_client, paris):
    response = reviewer_client.post(
        reverse("review:save_label", args=[paris.pk]),
        {
            "claim_count": "2",
            "claim-2-start": "0",
            "claim-2-end": "five",
            "claim-2-verdict": "supported",
        },
    )

    assert response.status_code == 400
    assert "<strong>claim 2, end</strong>: &#x27;five&#x27; is not an integer" in (
        response.content.decode()
    )


def test_labels_posted_from_a_page_showing_an_older_text_are_refused(reviewer_client, paris):
    page = reviewer_client.get(reverse("review:answer_detail", args=[paris.pk])).content.decode()
    shown = re.search(r'name="text_sha256" value="([0-9a-f]{64})"', page).group(1)
    # A re-import replaced the text while the reviewer read the page.
    Answer.objects.filter(pk=paris.pk).update(answer_text=TEXT + " Now longer.")

    response = reviewer_client.post(
        reverse("review:save_label", args=[paris.pk]),
        {"verdict": "supported", "claim_count": "0", "text_sha256": shown},
    )

    assert response.status_code == 400
    assert "the answer&#x27;s text changed since it was read" in response.content.decode()
    assert not AnswerLabel.objects.exists()


def test_label_with_a_span_inside_the_emoji_is_rejected(reviewer_client, paris):
    start, end = span_of(TEXT, "😀")
    response = reviewer_client.post(
        reverse("review:save_label", args=[paris.pk]),
        {
            "claim_count": "1",
            "claim-1-start": str(start),
            "claim-1-end": str(end - 1),
            "claim-1-verdict": "supported",
        },
    )
    assert response.status_code == 400
    assert "<strong>claim 1, end index</strong>:" in response.content.decode()
    assert not AnswerLabel.objects.exists()


def test_the_label_form_gives_the_script_its_verdict_keys_as_json(reviewer_client, paris):
    html = reviewer_client.get(reverse("review:answer_detail", args=[paris.pk])).content.decode()

    data = re.search(r'<form id="label-form"[^>]* data-verdict-keys="([^"]*)"', html)
    assert json.loads(unescape(data.group(1))) == {
        "1": "supported",
        "s": "supported",
        "2": "partially_supported",
        "p": "partially_supported",
        "3": "unsupported",
        "u": "unsupported",
        "4": "contradicted",
        "c": "contradicted",
        "5": "no_check_needed",
        "x": "no_check_needed",
    }
    # The buttons show the same keys, for readers without the script.
    assert 'value="contradicted"><span>Contradicted</span><kbd>4</kbd>' in html


def test_script_in_answer_is_escaped(reviewer_client):
    answer = create_answer('Hello <script>document.title="pwned"</script> world.')
    html = reviewer_client.get(reverse("review:answer_detail", args=[answer.pk])).content.decode()
    assert "<script>document.title" not in html
    assert "&lt;script&gt;document.title" in html


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"claim_count": "abc"}, "claim_count"),
        (
            {
                "claim_count": "1",
                "claim-1-start": "x",
                "claim-1-end": "3",
                "claim-1-verdict": "supported",
            },
            "claim 1, start",
        ),
        ({"claim_count": "0", "verdict": "great"}, "verdict"),
        ({"claim_count": "0", "verdict": ""}, "verdict"),
        ({"claim_count": "0", "verdict": "supported", "note": "a\x00b"}, "note"),
    ],
)
def test_bad_label_posts_are_400_naming_the_field(reviewer_client, paris, data, field):
    response = reviewer_client.post(reverse("review:save_label", args=[paris.pk]), data)
    assert response.status_code == 400
    assert f"<strong>{field}</strong>" in response.content.decode()
    assert not AnswerLabel.objects.exists()


def test_unknown_answer_is_404_and_bad_queue_filter_is_400(reviewer_client):
    assert reviewer_client.get("/answers/99999999999999999999999/").status_code == 404
    assert reviewer_client.get(reverse("review:queue"), {"state": "NOPE"}).status_code == 400
    assert reviewer_client.get(reverse("review:answer_list"), {"q": "a\x00"}).status_code == 400


def test_the_list_names_every_bad_filter_and_keeps_what_the_url_asked_for(reviewer_client, paris):
    response = reviewer_client.get(
        reverse("review:answer_list"),
        {"state": "SUCEEDED", "score_min": "high", "sort": "-size", "reviewer": "nobody"},
    )

    assert response.status_code == 400
    html = response.content.decode()
    named = re.findall(r'<p class="form-error" role="alert"><strong>(\w+)</strong>', html)
    assert named == ["state", "score_min", "sort"]
    # The drop-downs show the values that filtered the list, not "Any state" or the default sort.
    for value in ("SUCEEDED", "-size", "nobody"):
        assert f'<option value="{value}" selected>{value}</option>' in html


def test_rerun_queues_a_check_and_the_page_shows_its_progress(reviewer_client, paris, monkeypatch):
    from groundview.answers import checks

    # Keep the run queued (no engine in this test): the task is only sent, never run.
    monkeypatch.setattr(checks, "send_runs", lambda run_ids: None)
    response = reviewer_client.post(reverse("review:rerun_check", args=[paris.pk]))
    assert response.status_code == 302
    run = paris.check_runs.order_by("-id").first()
    assert run.status == "queued"

    html = reviewer_client.get(reverse("review:answer_detail", args=[paris.pk])).content.decode()
    assert "1 check in progress" in html
    # Without script the page does not refresh itself (it would wipe unsaved labels): it links.
    assert 'http-equiv="refresh"' not in html
    assert '<noscript> <a href="">Reload</a> to see whether it has finished' in html
    status = reviewer_client.get(reverse("review:check_status", args=[paris.pk])).json()
    assert status["pending"] == 1
    assert status["runs"][0] == {
        "id": run.pk,
        "status": "queued",
        "support_score": None,
        "error": "",
    }


def test_agreement_page_shows_matrix_and_calibration(reviewer_client, reviewer, paris):
    from groundview.review.services import ClaimVerdict, save_label

    start, end = span_of(TEXT, "Paris is the capital of France.")
    save_label(paris, reviewer, verdict="supported", claims=[ClaimVerdict(start, end, "supported")])
    response = reviewer_client.get(reverse("review:agreement"), {"session": str(paris.session_id)})
    assert response.status_code == 200
    assert response.context["report"].confusion["supported"]["supported"] == 1
    assert 'class="chart calibration"' in response.content.decode()


def test_agreement_page_rejects_a_reversed_date_range(reviewer_client):
    response = reviewer_client.get(
        reverse("review:agreement"), {"date_from": "2026-02-01", "date_to": "2026-01-01"}
    )
    assert response.status_code == 400
    assert "date_to" in response.content.decode()


def test_an_unchecked_answer_offers_its_sentences_for_labelling(reviewer_client):
    text = "Hello there. Tokyo is the capital of Japan 🇯🇵. 东京很大。"
    answer = create_answer(text)
    html = reviewer_client.get(reverse("review:answer_detail", args=[answer.pk])).content.decode()
    assert "these are its sentences" in html
    start, end = span_of(text, "Tokyo is the capital of Japan 🇯🇵.")
    assert f'name="claim-2-start" value="{start}"' in html
    assert f'name="claim-2-end" value="{end}"' in html
    assert "hl-plain" in html and "hl-nocheck" in html


def test_queue_skip_moves_on_and_skips_can_be_reset(reviewer_client):
    older, newer = create_answer("Older."), create_answer("Newer.")
    queue = reverse("review:queue")
    first = reviewer_client.get(queue)
    assert first["Location"].startswith(reverse("review:answer_detail", args=[newer.pk]))

    skipped = reviewer_client.post(reverse("review:queue_skip", args=[newer.pk]))
    # Straight on to the next answer: one redirect, not one to the queue and another from it.
    assert skipped.status_code == 303
    assert skipped["Location"].startswith(reverse("review:answer_detail", args=[older.pk]))
    assert reviewer_client.get(queue)["Location"].startswith(
        reverse("review:answer_detail", args=[older.pk])
    )
    reviewer_client.post(reverse("review:queue_skip", args=[older.pk]))
    empty = reviewer_client.get(queue)
    assert empty.status_code == 200
    assert "You skipped 2 answers" in empty.content.decode()

    reviewer_client.post(reverse("review:queue_reset_skips"))
    assert reviewer_client.get(queue)["Location"].startswith(
        reverse("review:answer_detail", args=[newer.pk])
    )


def test_save_and_next_keeps_the_queue_filters(reviewer_client):
    answer = create_answer("Only this one.", session="special")
    response = reviewer_client.post(
        reverse("review:save_label", args=[answer.pk]),
        {"claim_count": "0", "verdict": "supported", "action": "next", "queue_query": "q=only"},
    )
    assert response["Location"] == reverse("review:queue") + "?q=only"


def test_a_rejected_label_keeps_queue_mode_and_source(reviewer_client, paris):
    response = reviewer_client.post(
        reverse("review:save_label", args=[paris.pk]),
        {
            "claim_count": "0",
            "verdict": "",
            "in_queue": "1",
            "queue_query": "q=paris",
            "source": "imported",
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'name="queue_query" value="q=paris"' in html
    assert 'aria-current="true">Imported supports' in html


def test_a_check_response_with_bad_spans_renders_and_says_so(reviewer_client):
    text = "Emoji 😀 here."
    answer = create_answer(text)
    run = create_check_run(answer, [(0, 5, 0.9, [])])
    run.response["claims"] += [
        {"startPos": 7, "endPos": 8, "claimText": "half an emoji", "citationIndices": [99]},
        {"startPos": 3, "endPos": 999, "claimText": "past the end"},
        {"startPos": 12, "endPos": 12, "claimText": ""},
    ]
    run.save()
    response = reviewer_client.get(reverse("review:answer_detail", args=[answer.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "2 spans fell outside the text or inside a character" in html
    assert "half an emoji" in html  # the claim is still listed, with the checker's text
    assert 'class="hl hl-empty' in html  # the empty span is a marker at its offset
    assert "does not fit the answer text" in html
    assert 'name="claim-2-verdict"' not in html and 'name="claim-1-verdict"' in html


def test_pages_have_an_icon_and_browsers_asking_for_favicon_ico_find_it(client):
    page = client.get(reverse("login"))
    assert b'rel="icon" href="/static/review/favicon.svg"' in page.content

    response = client.get("/favicon.ico")

    assert response.status_code == 302
    assert response["Location"] == "/static/review/favicon.svg"


def test_an_answer_without_text_says_so_and_shows_no_score_legend(reviewer_client):
    empty = create_answer("", citations=[])

    page = reviewer_client.get(reverse("review:answer_detail", args=[empty.pk])).content.decode()

    assert "The answer has no text." in page
    assert 'aria-label="Legend"' not in page


def test_each_highlight_colour_is_named_by_the_legend_as_the_measured_bands_read(reviewer_client):
    # Held out, people judged 72-79% of claims at 0.8 or more supported but only 26-63% of those
    # from 0.6 to 0.8 (README, "What a green highlight means"): the lighter band is cited, not sure.
    answer = create_answer("Sure one. Unsure one. Weak one.", citations=[])
    facts = [{"factText": "Sure one. Unsure one. Weak one."}]
    create_check_run(
        answer, [(0, 9, 0.9, [0]), (10, 21, 0.7, [0]), (22, 31, 0.5, [0])], facts=facts
    )

    page = reviewer_client.get(reverse("review:answer_detail", args=[answer.pk])).content.decode()

    legend = dict(re.findall(r'<span class="swatch (hl-s\d)"></span>([^<]+)</li>', page))
    highlighted = re.findall(r'class="hl (hl-s\d)[^"]*"[^>]*>([^<]+)<', page)
    named = {text: legend[css] for css, text in highlighted}
    assert named == {
        "Sure one.": "0.8 or more: supported",
        "Unsure one.": "0.6 to under 0.8: cited, but unsure",
        "Weak one.": "0.4 to under 0.6: weak",
    }


def test_the_answer_verdict_can_be_given_back_to_the_claims(reviewer_client, reviewer, paris):
    # given a reviewer who chose an answer verdict of their own
    url = reverse("review:save_label", args=[paris.pk])
    claim = first_claim_fields(verdict="supported")
    reviewer_client.post(url, {**claim, "verdict": "unsupported"})
    page = reviewer_client.get(reverse("review:answer_detail", args=[paris.pk])).content.decode()
    assert re.search(r'name="verdict" value="unsupported" checked', page)
    # the answer's buttons show the shifted key, and "From the claims" is not chosen
    assert "<kbd>⇧1</kbd>" in page
    assert re.search(r'name="verdict" value=""><span>From the claims', page)

    # when they choose "From the claims" and save
    reviewer_client.post(url, {**claim, "verdict": ""})

    # then the answer verdict is derived from the claims again, and the page shows it so
    assert AnswerLabel.objects.get(answer=paris, reviewer=reviewer).verdict == "supported"
    page = reviewer_client.get(reverse("review:answer_detail", args=[paris.pk])).content.decode()
    assert re.search(r'name="verdict" value="" checked><span>From the claims', page)

    # and a later change of a claim, saved as the page then posts it, changes it too
    reviewer_client.post(url, {**claim, "claim-1-verdict": "contradicted", "verdict": ""})
    assert AnswerLabel.objects.get(answer=paris, reviewer=reviewer).verdict == "contradicted"


def test_a_chosen_verdict_equal_to_the_claims_stays_chosen(reviewer_client, reviewer, paris):
    # given a reviewer who chooses "Supported" for an answer whose one claim is supported
    url = reverse("review:save_label", args=[paris.pk])
    claim = first_claim_fields(verdict="supported")
    reviewer_client.post(url, {**claim, "verdict": "supported"})

    # then the page shows their choice, not "From the claims"
    label = AnswerLabel.objects.get(answer=paris, reviewer=reviewer)
    assert (label.verdict, label.verdict_from_claims) == ("supported", False)
    page = reviewer_client.get(reverse("review:answer_detail", args=[paris.pk])).content.decode()
    assert re.search(r'name="verdict" value="supported" checked', page)
    assert re.search(r'name="verdict" value=""><span>From the claims', page)

    # and a later change of a claim, saved as the page posts it, leaves their verdict alone
    reviewer_client.post(url, {**claim, "claim-1-verdict": "contradicted", "verdict": "supported"})
    assert AnswerLabel.objects.get(answer=paris, reviewer=reviewer).verdict == "supported"


def test_no_verdict_and_no_claims_is_refused_by_name(reviewer_client, paris):
    response = reviewer_client.post(
        reverse("review:save_label", args=[paris.pk]), {"claim_count": "0", "verdict": ""}
    )

    assert response.status_code == 400
    assert "choose a verdict for the answer, or label its claims" in response.content.decode()
    assert not AnswerLabel.objects.filter(answer=paris).exists()


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("9", "'9' names no reference or chunk of this answer"),
        ("1:7", "'1:7' names no reference or chunk of this answer"),
        ("2-1", '\'2-1\' is not a reference ("2") or a reference chunk ("2:1")'),
    ],
)
def test_a_wrong_citation_is_named_as_the_reviewer_typed_it(reviewer_client, paris, typed, message):
    response = label_paris_claim(reviewer_client, paris, typed)

    assert response.status_code == 400
    assert unescape(message) in unescape(response.content.decode())


def test_safety_ratings_that_are_all_negligible_fold_into_one_line(reviewer_client):
    negligible = {"probability": "NEGLIGIBLE", "severity": "HARM_SEVERITY_NEGLIGIBLE"}
    clear = create_answer(
        "All fine.",
        safetyRatings=[
            {"category": "HARM_CATEGORY_HARASSMENT", **negligible},
            {"category": "HARM_CATEGORY_HATE_SPEECH", **negligible},
        ],
    )
    worrying = create_answer(
        "Hmm.",
        safetyRatings=[
            {"category": "HARM_CATEGORY_HARASSMENT", **negligible},
            {"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "MEDIUM"},
        ],
    )

    def page(answer):
        return reviewer_client.get(
            reverse("review:answer_detail", args=[answer.pk])
        ).content.decode()

    assert '<details class="safety-clear">' in page(clear)
    assert "all 2 negligible" in page(clear)
    assert "safety-clear" not in page(worrying)
    assert "medium chance it is harmful" in page(worrying).lower()


@pytest.mark.parametrize(
    ("stored", "shown"), [("0", "1"), ("1:0", "2:1"), ("12:3", "13:4"), (0, "0"), ("x", "x")]
)
def test_stored_citations_read_on_the_page_numbered_from_1(stored, shown):
    assert page_citation(stored) == shown
    if isinstance(stored, str) and stored != "x":
        assert stored_citation(shown) == stored


def test_a_refused_save_shows_every_claim_as_the_reviewer_left_it(reviewer_client, paris):
    # Given a reviewer who labelled two claims, one of them with a citation that names nothing
    first = span_of(TEXT, "Paris is the capital of France.")
    last = span_of(TEXT, "The Eiffel Tower is 330 m tall 😀.")
    response = reviewer_client.post(
        reverse("review:save_label", args=[paris.pk]),
        {
            "source": "sentences",
            "claim_count": "2",
            "claim-1-start": str(first[0]),
            "claim-1-end": str(first[1]),
            "claim-1-verdict": "supported",
            "claim-1-note": "as the page says",
            "claim-2-start": str(last[0]),
            "claim-2-end": str(last[1]),
            "claim-2-verdict": "contradicted",
            "claim-2-citations": "9",
        },
    )

    # Then the save is refused, and the page shows both claims as they were posted
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'name="claim-1-verdict" value="supported" checked', html)
    assert 'value="as the page says"' in html
    assert re.search(r'name="claim-3-verdict" value="contradicted" checked', html)
    assert re.search(r'name="claim-3-citations" value="9"', html)
    assert not AnswerLabel.objects.exists()


def test_a_page_left_open_does_not_undo_a_save_from_another_tab(reviewer_client, reviewer, paris):
    # Given the answer page open in two tabs, the label not saved yet
    page = reviewer_client.get(reverse("review:answer_detail", args=[paris.pk])).content.decode()
    seen = re.search(r'name="label_saved_at" value="([^"]*)"', page)[1]
    assert seen == ""
    claim = first_claim_fields()
    url = reverse("review:save_label", args=[paris.pk])

    # when the second tab saves a verdict, and then the first tab saves without one
    reviewer_client.post(url, {**claim, "claim-1-verdict": "contradicted", "label_saved_at": ""})
    stale = reviewer_client.post(url, {**claim, "verdict": "supported", "label_saved_at": seen})

    # then the first tab's save is refused, and the second tab's verdict stands
    assert stale.status_code == 400
    assert "you saved this answer&#x27;s label from another tab" in stale.content.decode()
    # and the refused form keeps the version it was made against, so saving it again is refused
    # too, until the page is reloaded
    again = re.search(r'name="label_saved_at" value="([^"]*)"', stale.content.decode())[1]
    assert again == seen
    label = AnswerLabel.objects.get(answer=paris, reviewer=reviewer)
    assert [c.verdict for c in label.claims.all()] == ["contradicted"]
    # and a page loaded after that save saves as usual
    page = reviewer_client.get(reverse("review:answer_detail", args=[paris.pk])).content.decode()
    seen = re.search(r'name="label_saved_at" value="([^"]*)"', page)[1]
    fresh = reviewer_client.post(url, {**claim, "verdict": "supported", "label_saved_at": seen})
    assert fresh.status_code == 302


def test_the_list_hides_others_verdicts_until_you_have_given_yours(
    reviewer_client, reviewer, django_user_model, paris
):
    other = django_user_model.objects.create_user("blind-other", password="x")
    AnswerLabel.objects.create(answer=paris, reviewer=other, verdict="contradicted")

    before = reviewer_client.get(reverse("review:answer_list")).content.decode()
    AnswerLabel.objects.create(answer=paris, reviewer=reviewer, verdict="supported")
    after = reviewer_client.get(reverse("review:answer_list")).content.decode()

    assert "v-contradicted" not in before and "Contradicted" not in before
    assert "blind-other labelled it; the verdict shows once you have given yours" in before
    assert 'class="verdict-chip v-contradicted" title="blind-other: Contradicted"' in after


def test_back_from_an_answer_is_the_list_it_was_opened_from(reviewer_client, paris):
    listing = reviewer_client.get(reverse("review:answer_list"), {"q": "Paris", "sort": "score"})
    link = re.search(r'class="answer-link" href="([^"]+)"', listing.content.decode())[1]

    page = reviewer_client.get(unescape(link)).content.decode()

    back = re.search(r'<nav class="crumbs"[^>]*>\s*<a href="([^"]+)">Answers</a>', page)[1]
    assert unescape(back) == reverse("review:answer_list") + "?q=Paris&sort=score"
    # and a save on the page keeps the way back
    came_from = re.search(r'name="from" value="([^"]*)"', page)[1]
    saved = reviewer_client.post(
        reverse("review:save_label", args=[paris.pk]),
        {**first_claim_fields(verdict="supported"), "from": unescape(came_from)},
    )
    after = reviewer_client.get(saved["Location"]).content.decode()
    assert f'href="{reverse("review:answer_list")}?q=Paris&amp;sort=score">Answers</a>' in after
    # Only the list's own parameters are carried back
    odd = reviewer_client.get(
        reverse("review:answer_detail", args=[paris.pk]), {"from": "q=x&evil=1&page=2a"}
    ).content.decode()
    assert f'href="{reverse("review:answer_list")}?q=x">Answers</a>' in odd


def test_a_histogram_bar_lists_exactly_the_answers_it_counts(reviewer_client):
    # Given answers scored on a bar's edges, by us and by their producer
    for score in (0.5, 0.6, 0.65, 1.0):
        answer = create_answer(f"Scored {score}.", groundingScore=score)
        create_check_run(answer, [(0, 5, score, [])], support_score=score)
    html = reviewer_client.get(reverse("review:answer_list")).content.decode()

    def listed(label: str) -> set[str]:
        # When the bar's link is followed
        href = unescape(re.search(rf'<a href="([^"]*)" aria-label="{label}', html)[1])
        page = reviewer_client.get(reverse("review:answer_list") + href).content.decode()
        return set(re.findall(r"Scored ([\d.]+)\.", page))

    # Then each answer is under the one bar that counts it: 0.6 in 0.6-0.7, not in 0.5-0.6
    assert listed("Our score 0.5 to 0.6: show the 1 answer") == {"0.5"}
    assert listed("Our score 0.6 to 0.7: show the 2 answers") == {"0.6", "0.65"}
    assert listed("Our score 0.9 to 1.0: show the 1 answer") == {"1.0"}
    assert listed("Their score 0.6 to 0.7: show the 2 answers") == {"0.6", "0.65"}
    # And the form shows the bar's upper edge as an exclusive bound, kept on the next submit
    page = reviewer_client.get(reverse("review:answer_list"), {"score_below": "0.7"})
    assert 'name="score_below" min="0" max="1" step="0.05" value="0.7"' in page.content.decode()
