import io
import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from groundview.answers import importing, models
from groundview.answers.demo import demo_records
from groundview.answers.exporting import answer_jsonl
from groundview.answers.models import (
    Answer,
    AnswerState,
    GroundingSupport,
    QueryClassification,
    Reference,
    SafetyRating,
    SearchResultChunk,
    SearchResultSnippet,
    Session,
    SkippedReason,
    Step,
)

CJK = re.compile(r"[\u4e00-\u9fff]")
ACCENTED = re.compile(r"[À-ÖØ-öø-ÿ]")

SKIP_REASONS = {
    "ADVERSARIAL_QUERY_IGNORED",
    "NON_ANSWER_SEEKING_QUERY_IGNORED",
    "OUT_OF_DOMAIN_QUERY_IGNORED",
    "POTENTIAL_POLICY_VIOLATION",
    "NO_RELEVANT_CONTENT",
    "JAIL_BREAKING_QUERY_IGNORED",
    "CUSTOMER_POLICY_VIOLATION",
    "NON_ANSWER_SEEKING_QUERY_IGNORED_V2",
    "LOW_GROUNDED_ANSWER",
    "UNHELPFUL_ANSWER",
}
HARM_CATEGORIES = {
    "HARM_CATEGORY_HATE_SPEECH",
    "HARM_CATEGORY_DANGEROUS_CONTENT",
    "HARM_CATEGORY_HARASSMENT",
    "HARM_CATEGORY_SEXUALLY_EXPLICIT",
    "HARM_CATEGORY_CIVIC_INTEGRITY",
}
LEVELS = {"NEGLIGIBLE", "LOW", "MEDIUM", "HIGH"}


def answers_of(records):
    return [record["answer"] if "session" in record else record for record in records]


def load():
    return importing.import_records(
        importing.Record(where=f"demo {index}", data=data)
        for index, data in enumerate(demo_records())
    )


def row_counts():
    return {
        model.__name__: model.objects.count()
        for model in vars(models).values()
        if isinstance(model, type)
        and issubclass(model, models.models.Model)
        and not model._meta.abstract
    }


@pytest.mark.django_db
def test_every_demo_record_imports_without_problems():
    records = demo_records()

    result = load()

    assert [str(problem) for problem in result.problems] == []
    assert result.created == len(records) == Answer.objects.count()
    assert 28 <= len(records) <= 40


def test_demo_records_are_deterministic():
    assert json.dumps(demo_records()) == json.dumps(demo_records())


@pytest.mark.django_db
def test_demo_is_grouped_into_sessions_of_several_turns():
    records = demo_records()
    load()

    responses = [record for record in records if "session" in record]
    assert len(responses) > len(records) / 2
    assert len(records) - len(responses) >= 3  # some bare Answer documents
    assert Session.objects.count() == 8
    assert all(session.answers.count() >= 3 for session in Session.objects.all())
    # Every answer, bare ones included, is a turn of its session and so knows its question.
    assert not Answer.objects.filter(query_text="").exists()
    assert not Answer.objects.filter(session=None).exists()
    for record in responses:
        turns = record["session"]["turns"]
        assert record["answer"]["name"] in [turn["answer"] for turn in turns]
        assert all(turn["query"]["queryId"] for turn in turns)


@pytest.mark.django_db
def test_demo_covers_every_answer_state():
    load()

    states = list(Answer.objects.values_list("state", flat=True))

    assert set(states) == set(AnswerState.values)
    assert max(set(states), key=states.count) == AnswerState.SUCCEEDED


@pytest.mark.django_db
def test_demo_covers_every_skip_reason_with_a_short_text():
    load()

    assert set(SkippedReason.objects.values_list("reason", flat=True)) == SKIP_REASONS
    for answer in Answer.objects.filter(skipped_reasons__isnull=False).distinct():
        assert len(answer.answer_text) < 100
        assert not answer.citations.exists()
    skipped = Answer.objects.filter(skipped_reasons__isnull=False).distinct()
    assert skipped.filter(references__isnull=True).count() > skipped.count() / 2


@pytest.mark.django_db
def test_demo_covers_every_harm_category_level_and_a_blocked_rating():
    load()
    ratings = SafetyRating.objects.all()

    assert set(ratings.values_list("category", flat=True)) == HARM_CATEGORIES
    assert set(ratings.values_list("probability", flat=True)) == LEVELS
    assert set(ratings.values_list("severity", flat=True)) == {
        f"HARM_SEVERITY_{level}" for level in LEVELS
    }
    assert not ratings.filter(probability_score=None).exists()
    assert not ratings.filter(severity_score=None).exists()
    assert ratings.filter(blocked=True).exists()


@pytest.mark.django_db
def test_demo_covers_every_reference_kind():
    load()

    kinds = set(Reference.objects.values_list("kind", flat=True))
    assert kinds == {Reference.Kind.UNSTRUCTURED, Reference.Kind.CHUNK, Reference.Kind.STRUCTURED}
    unstructured = Reference.objects.filter(kind=Reference.Kind.UNSTRUCTURED)
    assert unstructured.filter(struct_data__isnull=False).exists()
    chunk = unstructured.first().chunks.first()
    assert chunk.content and chunk.page_identifier and chunk.relevance_score is not None
    chunks = Reference.objects.filter(kind=Reference.Kind.CHUNK)
    assert chunks.exclude(document="").exclude(title="").exclude(uri="").exists()
    assert chunks.filter(struct_data__isnull=False).exclude(page_identifier="").exists()
    assert not Reference.objects.filter(kind=Reference.Kind.STRUCTURED, struct_data=None).exists()


@pytest.mark.django_db
def test_demo_has_citations_supports_and_uncited_references():
    load()
    supports = GroundingSupport.objects.all()

    assert supports.filter(grounding_check_required=False, grounding_score=None).exists()
    assert supports.filter(grounding_check_required=True).exclude(grounding_score=None).exists()
    assert Answer.objects.exclude(grounding_score=None).count() > 10
    # Deliberately wrong claims: cited, yet poorly supported.
    assert supports.filter(grounding_score__lt=0.5, references__isnull=False).count() >= 3
    # Retrieved but never cited.
    assert Reference.objects.filter(citations=None, grounding_supports=None).count() >= 3
    assert Answer.objects.filter(references=None).count() >= 5


def test_demo_spans_are_utf8_byte_spans_in_both_index_styles():
    styles = set()
    for answer in answers_of(demo_records()):
        encoded = answer.get("answerText", "").encode()
        for item in answer.get("citations", []) + answer.get("groundingSupports", []):
            assert isinstance(item["endIndex"], str)
            start, end = int(item.get("startIndex", 0)), int(item["endIndex"])
            assert 0 <= start < end <= len(encoded)
            assert encoded[start:end].decode().strip()
            if start == 0:
                styles.add("startIndex" in item)
            for source in item.get("sources", []):
                assert int(source["referenceId"]) < len(answer["references"])
    assert styles == {True, False}


def test_demo_covers_languages_and_scripts():
    texts = [answer.get("answerText", "") for answer in answers_of(demo_records())]

    chinese = [text for text in texts if CJK.search(text) and ("。" in text or "，" in text)]
    assert len(chinese) >= 4
    assert len([text for text in texts if ACCENTED.search(text)]) >= 3
    assert any("🙂" in text for text in texts)
    assert any("🚀" in text for text in texts)
    assert any("e\u0301" in text for text in texts)
    other = [text for text in texts if not text or CJK.search(text) or ACCENTED.search(text)]
    assert len(other) < len(texts) / 2  # mostly English


def test_demo_has_the_edge_cases_the_ui_needs():
    texts = [answer.get("answerText", "") for answer in answers_of(demo_records())]

    assert any("<script>alert(1)</script>" in text for text in texts)
    assert any("\n- " in text and re.search(r"\d\.\d", text) for text in texts)


@pytest.mark.django_db
def test_demo_has_steps_with_snippets_and_chunks():
    load()

    assert Answer.objects.filter(steps__isnull=False).distinct().count() >= 4
    assert set(Step.objects.values_list("state", flat=True)) >= {
        "SUCCEEDED",
        "FAILED",
        "IN_PROGRESS",
    }
    assert not Step.objects.filter(description="").exists()
    assert not Step.objects.filter(thought="").exists()
    assert Step.objects.filter(actions__search_query__gt="").exists()
    assert SearchResultSnippet.objects.exclude(snippet="").exclude(snippet_status="").exists()
    assert (
        SearchResultChunk.objects.exclude(chunk="")
        .exclude(content="")
        .filter(relevance_score__isnull=False)
        .exists()
    )


@pytest.mark.django_db
def test_demo_has_query_understanding_related_questions_and_timestamps():
    records = demo_records()
    load()

    assert set(QueryClassification.objects.values_list("type", flat=True)) == {
        "ADVERSARIAL_QUERY",
        "NON_ANSWER_SEEKING_QUERY",
        "JAIL_BREAKING_QUERY",
        "NON_ANSWER_SEEKING_QUERY_V2",
    }
    assert QueryClassification.objects.filter(positive=True).count() >= 4
    assert Answer.objects.filter(related_questions__isnull=False).distinct().count() >= 5
    nanos = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z\Z")
    for answer in answers_of(records):
        assert nanos.match(answer["createTime"])
        assert "completeTime" not in answer or nanos.match(answer["completeTime"])


@pytest.mark.django_db
def test_unknown_fields_survive_the_round_trip():
    records = demo_records()
    load()

    with_extra = [answer for answer in answers_of(records) if "x-pipeline" in answer]
    assert with_extra
    exported = {
        document["name"]: document
        for document in map(json.loads, answer_jsonl(Answer.objects.all()))
    }
    for answer in with_extra:
        assert exported[answer["name"]] == answer


@pytest.mark.django_db
def test_load_demo_twice_changes_nothing():
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    counts = row_counts()
    updated = dict(Answer.objects.values_list("name", "updated_at"))

    call_command("load_demo", stdout=out)

    assert row_counts() == counts
    assert dict(Answer.objects.values_list("name", "updated_at")) == updated
    first, second = out.getvalue().splitlines()
    total = len(demo_records())
    assert f"({total} new, 0 updated, 0 unchanged), 0 rejected" in first
    assert f"(0 new, 0 updated, {total} unchanged), 0 rejected" in second


@pytest.mark.django_db
def test_load_demo_fails_loudly_when_a_record_is_rejected(monkeypatch):
    broken = demo_records()[:1]
    broken[0]["answer"]["citations"][0]["endIndex"] = "99999"
    monkeypatch.setattr(
        "groundview.answers.management.commands.load_demo.demo_records", lambda: broken
    )

    with pytest.raises(CommandError, match="1 demo record"):
        call_command("load_demo", stdout=io.StringIO(), stderr=io.StringIO())
