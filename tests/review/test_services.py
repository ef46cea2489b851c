"""Labels, the review queue, filters and agreement statistics."""

import datetime as dt
import importlib

import pytest
from django.utils import timezone

from groundview.answers.models import Answer
from groundview.review import services
from groundview.review.agreement import cohen_kappa
from groundview.review.filters import FilterError, filter_answers
from groundview.review.models import AnswerLabel, Assignment
from groundview.review.services import ClaimVerdict, LabelError
from tests.factories import create_answer, create_check_run, document_reference, span_of

pytestmark = pytest.mark.django_db

TEXT = "Café au lait ☕ costs 3 €. 东京是日本的首都。"


@pytest.fixture
def answer():
    return create_answer(
        TEXT, references=[document_reference("Menu", ["Café au lait costs 3 €.", "Tea costs 2 €."])]
    )


@pytest.fixture
def second_reviewer(django_user_model):
    return django_user_model.objects.create_user(username="sam", password="pw-sam-123")


def test_save_label_stores_claims_with_their_text(answer, reviewer):
    start, end = span_of(TEXT, "东京是日本的首都。")
    label = services.save_label(
        answer,
        reviewer,
        verdict="supported",
        claims=[ClaimVerdict(start, end, "supported", corrected_citations=["0:1"], note="ok")],
    )
    claim = label.claims.get()
    assert (claim.claim_text, claim.corrected_citations, claim.note) == (
        "东京是日本的首都。",
        ["0:1"],
        "ok",
    )


def test_save_label_again_replaces_the_reviewers_label(answer, reviewer):
    start, end = span_of(TEXT, "Café au lait ☕ costs 3 €.")
    services.save_label(
        answer, reviewer, verdict="supported", claims=[ClaimVerdict(start, end, "supported")]
    )
    services.save_label(answer, reviewer, verdict="unsupported", claims=[])
    label = AnswerLabel.objects.get(answer=answer, reviewer=reviewer)
    assert label.verdict == "unsupported" and label.claims.count() == 0


@pytest.mark.parametrize(
    ("claim", "field", "message"),
    [
        (
            ClaimVerdict(0, 99, "supported"),
            "claims[0].end_index",
            "99 is past the end of answerText (58 bytes)",
        ),
        (ClaimVerdict(5, 3, "supported"), "claims[0].start_index", "5 is after end_index 3"),
        (ClaimVerdict(4, 6, "supported"), "claims[0].start_index", "4 is inside a UTF-8 character"),
        (ClaimVerdict(0, 15, "supported"), "claims[0].end_index", "15 is inside a UTF-8 character"),
        (ClaimVerdict(0, 3, "maybe"), "claims[0].verdict", "'maybe' is not one of"),
        (
            ClaimVerdict(0, 3, "supported", ("7",)),
            "claims[0].corrected_citations[0]",
            "'7' names no reference",
        ),
        (
            ClaimVerdict(0, 3, "supported", ("x",)),
            "claims[0].corrected_citations[0]",
            "is not a reference",
        ),
    ],
)
def test_save_label_rejects_bad_claims_naming_the_field(answer, reviewer, claim, field, message):
    assert len(TEXT.encode()) == 58
    with pytest.raises(LabelError) as error:
        services.save_label(answer, reviewer, verdict="supported", claims=[claim])
    assert error.value.field == field
    assert message in error.value.message
    assert not AnswerLabel.objects.exists()


def test_save_label_rejects_an_unknown_answer_verdict(answer, reviewer):
    with pytest.raises(LabelError) as error:
        services.save_label(answer, reviewer, verdict="great")
    assert error.value.field == "verdict"


def test_queue_never_gives_one_answer_to_two_reviewers(reviewer, second_reviewer):
    first, second = create_answer("One."), create_answer("Two.")
    got_a = services.next_in_queue(reviewer, {})
    got_b = services.next_in_queue(second_reviewer, {})
    assert {got_a, got_b} == {first, second}
    # Asking again returns the answer already held, not a third one.
    assert services.next_in_queue(reviewer, {}) == got_a
    assert services.next_in_queue(django_user("third"), {}) is None


def django_user(name):
    from django.contrib.auth.models import User

    return User.objects.create_user(username=name, password="pw-x-12345")


def test_queue_moves_on_after_labelling_and_skips_expired_leases(reviewer, second_reviewer):
    first = create_answer("One.")
    got = services.next_in_queue(reviewer, {})
    services.save_label(got, reviewer, verdict="supported")
    assert not Assignment.objects.exists()
    assert services.next_in_queue(reviewer, {}) is None

    other = create_answer("Two.")
    assert services.next_in_queue(reviewer, {}) == other
    Assignment.objects.update(expires_at=timezone.now() - dt.timedelta(minutes=1))
    # The lease ran out, so another reviewer may take it.
    assert services.next_in_queue(second_reviewer, {}) == other
    assert first.labels.count() == 1


def test_double_review_gives_labelled_answers_to_a_second_reviewer(reviewer, second_reviewer):
    answer = create_answer("One.")
    services.save_label(answer, reviewer, verdict="supported")
    assert services.next_in_queue(second_reviewer, {}) is None
    assert services.next_in_queue(second_reviewer, {}, double_review=True) == answer
    services.save_label(answer, second_reviewer, verdict="unsupported")
    assert services.next_in_queue(django_user("third"), {}, double_review=True) is None


@pytest.mark.parametrize("state", ["IN_PROGRESS", "STREAMING"])
def test_an_answer_still_being_generated_is_neither_queued_nor_labelled(reviewer, state):
    unfinished = create_answer("Half an answ 🚧", state=state)

    assert services.next_in_queue(reviewer, {}) is None
    with pytest.raises(LabelError) as raised:
        services.save_label(unfinished, reviewer, verdict="supported")

    assert str(raised.value) == (
        f"answer: is still being generated ({state}): label it once it is complete"
    )
    assert not AnswerLabel.objects.exists()


def test_verdicts_on_a_text_since_replaced_are_refused(answer, reviewer):
    shown = services.text_sha256(answer.answer_text)
    # An import replaced the text after the page was shown; the spans still fit the new one.
    Answer.objects.filter(pk=answer.pk).update(answer_text=TEXT.replace("3 €", "4 €"))
    answer.refresh_from_db()

    with pytest.raises(LabelError) as raised:
        services.save_label(
            answer,
            reviewer,
            verdict="supported",
            claims=[ClaimVerdict(0, 5, "supported")],
            shown_text_sha256=shown,
        )

    assert raised.value.field == "answer"
    assert "the answer's text changed since it was read" in raised.value.message
    assert not AnswerLabel.objects.exists()
    label = services.save_label(
        answer,
        reviewer,
        verdict="supported",
        shown_text_sha256=services.text_sha256(TEXT.replace("3 €", "4 €")),
    )
    assert label.answer_id == answer.pk


def test_a_save_keeps_unchanged_claims_rows_and_rewrites_changed_ones(answer, reviewer):
    cafe, tokyo = span_of(TEXT, "Café au lait ☕ costs 3 €."), span_of(TEXT, "东京是日本的首都。")
    first = services.save_label(
        answer,
        reviewer,
        verdict="supported",
        claims=[ClaimVerdict(*cafe, "supported"), ClaimVerdict(*tokyo, "supported")],
    )
    rows = {(c.start_index, c.end_index): c.pk for c in first.claims.all()}

    # The API's save (every claim replaced): the first claim's note alone changes; then the
    # second claim is left out.
    again = services.save_label(
        answer,
        reviewer,
        verdict="supported",
        claims=[ClaimVerdict(*cafe, "supported", note="menu"), ClaimVerdict(*tokyo, "supported")],
    )
    now = {(c.start_index, c.end_index): c.pk for c in again.claims.all()}
    assert now[tokyo] == rows[tokyo]  # unchanged: the same row
    assert now[cafe] > max(rows.values())  # changed: a new row, so undo's target
    assert services.undo_last_claim(answer, reviewer).note == "menu"

    services.save_label(
        answer, reviewer, verdict="supported", claims=[ClaimVerdict(*cafe, "supported")]
    )
    assert [(c.start_index, c.end_index) for c in again.claims.all()] == [cafe]


def test_queue_respects_filters(reviewer):
    create_answer("Alpha.", session="s1")
    beta = create_answer("Beta.", session="s2")
    assert services.next_in_queue(reviewer, {"q": "beta"}) == beta


def test_filters(reviewer):
    low = create_answer("Low one.", session="a", groundingScore=0.2)
    high = create_answer(
        "High one.",
        session="b",
        groundingScore=0.9,
        answerSkippedReasons=["NO_RELEVANT_CONTENT"],
    )
    create_check_run(low, [(0, 8, 0.1, [])], support_score=0.1)
    create_check_run(high, [(0, 9, 0.95, [])], support_score=0.95)
    services.save_label(high, reviewer, verdict="supported")

    def names(params):
        return {a.answer_text for a in filter_answers(Answer.objects.all(), params)}

    assert names({"score_min": "0.5"}) == {"High one."}
    assert names({"grounding_max": "0.5"}) == {"Low one."}
    assert names({"score_below": "0.95"}) == {"Low one."}
    assert names({"score_max": "0.95"}) == {"Low one.", "High one."}
    assert names({"grounding_below": "0.9"}) == {"Low one."}
    assert names({"skip_reason": "NO_RELEVANT_CONTENT"}) == {"High one."}
    assert names({"skip_reason": "none"}) == {"Low one."}
    assert names({"label_status": "unlabelled"}) == {"Low one."}
    assert names({"reviewer": "rita"}) == {"High one."}
    assert names({"session": str(low.session_id)}) == {"Low one."}
    assert names({"q": "HIGH"}) == {"High one."}
    assert names({"state": "SUCCEEDED"}) == {"Low one.", "High one."}
    assert [a.answer_text for a in filter_answers(Answer.objects.all(), {"sort": "-score"})] == [
        "High one.",
        "Low one.",
    ]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"score_min": "x"}, "score_min"),
        ({"grounding_max": "1.5"}, "grounding_max"),
        ({"score_min": "0.8", "score_max": "0.2"}, "score_min"),
        ({"score_min": "0.5", "score_below": "0.5"}, "score_min"),
        ({"grounding_below": "2"}, "grounding_below"),
        ({"state": "DONE"}, "state"),
        ({"label_status": "maybe"}, "label_status"),
        ({"skip_reason": "drop table"}, "skip_reason"),
        ({"sort": "-color"}, "sort"),
        ({"score_min": "nan"}, "score_min"),
        ({"q": "a\x00b"}, "q"),
        ({"session": "99999999999999999999"}, "session"),
    ],
)
def test_bad_filter_values_name_the_field(params, field):
    with pytest.raises(FilterError) as error:
        list(filter_answers(Answer.objects.all(), params))
    assert error.value.field == field


def test_a_session_named_with_unicode_digits_is_a_name_not_an_id():
    assert list(filter_answers(Answer.objects.all(), {"session": "²"})) == []


def test_cohen_kappa_matches_the_textbook_example():
    # 2x2 table yes/yes 20, yes/no 5, no/yes 10, no/no 15: p_o = 0.7, p_e = 0.5, kappa = 0.4.
    pairs = [("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10 + [("n", "n")] * 15
    assert cohen_kappa(pairs) == pytest.approx(0.4)
    assert cohen_kappa([("y", "y")] * 3) is None
    assert cohen_kappa([]) is None


def test_agreement_report_matches_claims_by_span(reviewer, second_reviewer):
    text = "Supported claim. Wrong claim. Filler."
    answer = create_answer(text, references=[document_reference("Doc", ["Supported claim."])])
    facts = [{"factText": "Supported claim."}]
    s1, s2, s3 = (
        span_of(text, "Supported claim."),
        span_of(text, "Wrong claim."),
        span_of(text, "Filler."),
    )
    create_check_run(
        answer, [(*s1, 0.95, [0]), (*s2, 0.15, []), (*s3, None, [], False)], facts=facts
    )
    services.save_label(
        answer,
        reviewer,
        verdict="partially_supported",
        claims=[
            ClaimVerdict(*s1, "supported"),
            ClaimVerdict(*s2, "contradicted"),
            ClaimVerdict(0, 3, "unsupported"),
        ],
    )
    services.save_label(
        answer,
        second_reviewer,
        verdict="partially_supported",
        claims=[ClaimVerdict(*s1, "supported"), ClaimVerdict(*s2, "unsupported")],
    )
    report = services.agreement_report()
    assert report.claim_labels == 5
    assert report.confusion["supported"]["supported"] == 2
    assert report.confusion["contradicted"]["unsupported"] == 1
    assert report.confusion["unsupported"]["unsupported"] == 1
    assert report.confusion["unsupported"]["unmatched"] == 1
    assert report.binary_agreement == 1.0
    assert report.doubly_labelled_claims == 2
    assert report.claim_agreement == 0.5
    top = report.calibration[9]
    assert (top.count, top.supported) == (2, 2)
    assert report.calibration[1].count == 2 and report.calibration[1].supported == 0
    assert (
        services.agreement_report(date_from=dt.date.today() + dt.timedelta(days=1)).claim_labels
        == 0
    )


@pytest.mark.django_db(transaction=True)
def test_reviewers_asking_at_the_same_moment_get_different_answers(django_user_model):
    import threading

    from django.db import connection

    answers = {create_answer(f"Answer {i}.").pk for i in range(3)}
    users = [
        django_user_model.objects.create_user(username=f"r{i}", password="pw-r-12345")
        for i in range(3)
    ]
    barrier = threading.Barrier(len(users))
    got = {}

    def ask(user):
        try:
            barrier.wait()
            answer = services.next_in_queue(user, {})
            got[user.username] = answer.pk if answer else None
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(got.values()) == sorted(answers)
    assert Assignment.objects.count() == 3


@pytest.mark.parametrize("few", [5000, 2])
def test_a_text_search_finds_the_same_answers_in_the_same_order_by_either_plan(monkeypatch, few):
    # given answers a search matches and some it does not, and a few-matches cut-off that sends
    # the search through its ids first (5000), or not (2)
    from groundview.review import filters

    matching = [create_answer(f"Le café {n} est ouvert.") for n in range(4)]
    create_answer("Nothing to see here.")
    monkeypatch.setattr(filters, "FEW_MATCHES", few)

    # when the list filters and sorts by name, descending
    found = list(filter_answers(Answer.objects.all(), {"q": "CAFÉ", "sort": "-name"}))

    # then the matches come back in that order either way
    expected = sorted(matching, key=lambda a: a.name, reverse=True)
    assert [a.pk for a in found] == [a.pk for a in expected]


def test_a_search_that_matches_nothing_counts_nothing_in_the_queue(reviewer):
    create_answer("Le café est ouvert.")

    assert list(filter_answers(Answer.objects.all(), {"q": "thé"})) == []
    assert services.queue_progress(reviewer, {"q": "thé"}) == {"total": 0, "done": 0, "left": 0}


def test_the_migration_marks_verdicts_the_claims_gave_as_theirs(answer, reviewer, second_reviewer):
    # Before verdict_from_claims, a verdict equal to its claims' showed as "From the claims".
    from django.apps import apps

    migration = importlib.import_module(
        "groundview.review.migrations.0004_answerlabel_verdict_from_claims"
    )
    start, end = span_of(TEXT, "东京是日本的首都。")
    claims = [ClaimVerdict(start, end, "supported"), ClaimVerdict(0, 5, "unsupported")]
    as_claims = services.save_label(answer, reviewer, verdict="partially_supported", claims=claims)
    own = services.save_label(answer, second_reviewer, verdict="supported", claims=claims)
    AnswerLabel.objects.update(verdict_from_claims=False)

    migration.mark_derived_verdicts(apps, None)

    as_claims.refresh_from_db()
    own.refresh_from_db()
    assert (as_claims.verdict_from_claims, own.verdict_from_claims) == (True, False)
