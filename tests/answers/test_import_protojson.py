"""Answers written by Google's own client library, every way it writes them, import in the REST form."""

import json

import pytest
from google.cloud import discoveryengine_v1 as de

from groundview.answers import importing
from groundview.answers.exporting import answer_jsonl
from groundview.answers.formats import protojson, prototables
from groundview.answers.models import Answer, Citation, QueryClassification, Session

SESSION = "projects/1/locations/global/collections/default_collection/engines/e/sessions/s1"
NAME = f"{SESSION}/answers/a1"
TEXT = "Tōkyō is the capital of Japan. 東京 has 14 million people."
FIRST = len("Tōkyō is the capital of Japan.".encode())


def library_answer():
    A = de.Answer
    return A(
        name=NAME,
        state=A.State.SUCCEEDED,
        answer_text=TEXT,
        grounding_score=0.75,
        citations=[
            A.Citation(start_index=0, end_index=FIRST, sources=[A.CitationSource(reference_id="0")])
        ],
        grounding_supports=[
            A.GroundingSupport(
                start_index=FIRST + 1,
                end_index=len(TEXT.encode()),
                grounding_score=0.5,
                grounding_check_required=True,
                sources=[A.CitationSource(reference_id="1")],
            )
        ],
        references=[
            A.Reference(
                chunk_info=A.Reference.ChunkInfo(
                    chunk="c1",
                    content="Tokyo is the capital of Japan.",
                    relevance_score=0.5,
                    document_metadata=A.Reference.ChunkInfo.DocumentMetadata(
                        uri="https://example.org/tokyo", title="Tokyo", struct_data={"snake_key": 1}
                    ),
                )
            ),
            A.Reference(
                unstructured_document_info=A.Reference.UnstructuredDocumentInfo(
                    title="東京",
                    chunk_contents=[
                        A.Reference.UnstructuredDocumentInfo.ChunkContent(
                            content="Greater Tokyo has 14 million people.", page_identifier="3"
                        )
                    ],
                )
            ),
        ],
        related_questions=["How large is Tokyo?"],
        steps=[
            A.Step(
                state=A.Step.State.SUCCEEDED,
                thought="Search first.",
                actions=[
                    A.Step.Action(
                        search_action=A.Step.Action.SearchAction(query="capital of Japan"),
                        observation=A.Step.Action.Observation(
                            search_results=[
                                A.Step.Action.Observation.SearchResult(
                                    title="Tokyo",
                                    snippet_info=[
                                        A.Step.Action.Observation.SearchResult.SnippetInfo(
                                            snippet="Tokyo…", snippet_status="SUCCESS"
                                        )
                                    ],
                                )
                            ]
                        ),
                    )
                ],
            )
        ],
        query_understanding_info=A.QueryUnderstandingInfo(
            query_classification_info=[
                A.QueryUnderstandingInfo.QueryClassificationInfo(
                    type_=A.QueryUnderstandingInfo.QueryClassificationInfo.Type.NON_ANSWER_SEEKING_QUERY,
                    positive=False,
                )
            ]
        ),
        answer_skipped_reasons=[A.AnswerSkippedReason.OUT_OF_DOMAIN_QUERY_IGNORED],
        safety_ratings=[
            de.SafetyRating(
                category=de.HarmCategory.HARM_CATEGORY_HATE_SPEECH,
                probability=de.SafetyRating.HarmProbability.NEGLIGIBLE,
                probability_score=0.25,
                blocked=False,
            )
        ],
        create_time={"seconds": 1_760_000_000, "nanos": 123_000_000},
    )


def rest_form(answer, defaults=True):
    """The REST form as the library itself writes it: camelCase names, enum names, int64 strings."""
    return json.loads(
        de.Answer.to_json(
            answer, use_integers_for_enums=False, always_print_fields_with_no_presence=defaults
        )
    )


WAYS = {
    "to_json": lambda a: de.Answer.to_json(a),
    "to_json preserving_proto_field_name": lambda a: de.Answer.to_json(
        a, preserving_proto_field_name=True
    ),
    "to_dict": lambda a: json.dumps(de.Answer.to_dict(a)),
    "REST": lambda a: json.dumps(rest_form(a, defaults=False)),
}


def exported():
    return [json.loads(line) for line in answer_jsonl(Answer.objects.all())]


@pytest.mark.django_db
@pytest.mark.parametrize("way", list(WAYS))
def test_an_answer_written_by_the_client_library_imports_in_the_rest_form(way):
    answer = library_answer()
    written = WAYS[way](answer)

    result = importing.import_text(written)

    assert result.problems == []
    expected = rest_form(answer, defaults=way != "REST")
    assert exported() == [expected]
    stored = Answer.objects.get()
    assert stored.state == "SUCCEEDED"
    assert stored.raw["state"] == "SUCCEEDED"
    assert stored.raw["citations"][0]["endIndex"] == str(FIRST)
    assert stored.raw["answerSkippedReasons"] == ["OUT_OF_DOMAIN_QUERY_IGNORED"]
    qc = QueryClassification.objects.get()
    assert (qc.type, qc.positive) == ("NON_ANSWER_SEEKING_QUERY", False)
    assert list(Citation.objects.values_list("start_index", "end_index")) == [(0, FIRST)]
    # Struct contents are data, not field names: never renamed.
    assert stored.raw["references"][0]["chunkInfo"]["documentMetadata"]["structData"] == {
        "snake_key": 1
    }


@pytest.mark.django_db
def test_every_form_of_the_same_answer_is_the_same_stored_document():
    answer = library_answer()
    for way in ("to_json", "to_json preserving_proto_field_name", "to_dict"):
        importing.import_text(WAYS[way](answer))

    assert Answer.objects.count() == 1
    # The first import created it; the other two forms are the same document.
    assert Answer.objects.get().raw == rest_form(answer)


@pytest.mark.django_db
def test_an_answer_response_with_its_session_in_snake_case_and_enum_numbers_imports():
    answer = library_answer()
    session = de.Session(
        name=SESSION,
        state=de.Session.State.IN_PROGRESS,
        user_pseudo_id="user-1",
        turns=[de.Session.Turn(query=de.Query(text="Capital of Japan?"), answer=NAME)],
    )
    response = de.AnswerQueryResponse(answer=answer, session=session, answer_query_token="tok")

    result = importing.import_text(json.dumps(de.AnswerQueryResponse.to_dict(response)))

    assert result.problems == []
    stored = Answer.objects.get()
    assert stored.query_text == "Capital of Japan?"
    session_row = Session.objects.get()
    assert (session_row.state, session_row.user_pseudo_id) == ("IN_PROGRESS", "user-1")
    assert session_row.raw == json.loads(de.Session.to_json(session, use_integers_for_enums=False))
    assert session_row.raw["state"] == "IN_PROGRESS"
    assert session_row.raw["userPseudoId"] == "user-1"


@pytest.mark.django_db
def test_int64_numbers_numeric_strings_nulls_and_unknown_fields():
    document = {
        "name": NAME,
        "state": 3,
        "answer_text": "abc",
        "groundingScore": "0.25",
        "citations": [{"start_index": 1, "endIndex": 2.0, "sources": []}],
        "completeTime": None,
        "futureField": {"keep_me": [1, "two"]},
    }

    result = importing.import_text(json.dumps(document))

    assert result.problems == []
    assert exported() == [
        {
            "name": NAME,
            "state": "SUCCEEDED",
            "answerText": "abc",
            "groundingScore": 0.25,
            "citations": [{"startIndex": "1", "endIndex": "2", "sources": []}],
            "futureField": {"keep_me": [1, "two"]},
        }
    ]


@pytest.mark.django_db
def test_an_enum_number_added_after_this_table_is_kept_as_google_keeps_it():
    # proto3 enums are open: Google's parser takes a number it does not know, and so does this.
    document = {
        "name": NAME,
        "state": 9,
        "answerText": "abc",
        "answerSkippedReasons": [12, "NEW_REASON"],
        "safetyRatings": [{"category": 99, "probability": 1}],
    }

    result = importing.import_text(json.dumps(document))

    assert result.problems == []
    answer = Answer.objects.get()
    assert answer.state == "9"
    assert [r.reason for r in answer.skipped_reasons.all()] == ["12", "NEW_REASON"]
    [rating] = exported()[0]["safetyRatings"]
    assert (rating["category"], rating["probability"]) == ("99", "NEGLIGIBLE")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"state": 2**31}, "state: 2147483648 is out of range for an enum (32 bits)"),
        (
            {"references": [{"chunkInfo": {"relevanceScore": 1e39}}]},
            "references[0].chunkInfo.relevanceScore: 1e+39 is out of range for a 32-bit float",
        ),
        ({"state": True}, "state: must be an enum name or number, not a boolean"),
        (
            {"answerText": "x", "answer_text": "y"},
            "answer_text: is given twice (also as 'answerText')",
        ),
        (
            {"citations": [{"startIndex": "1.5", "endIndex": 2}]},
            "citations[0].startIndex: must be an integer, not '1.5'",
        ),
        (
            {"citations": [{"startIndex": 2**63, "endIndex": 2}]},
            "citations[0].startIndex: 9223372036854775808 is out of range for int64",
        ),
        ({"relatedQuestions": ["a", None]}, "relatedQuestions[1]: must not be null"),
        (
            {"references": [{"chunkInfo": {}, "chunk_info": {}}]},
            "references[0].chunk_info: is given twice (also as 'chunkInfo')",
        ),
        (
            {"references": [{"chunkInfo": {}, "unstructuredDocumentInfo": {}}]},
            "references[0].unstructuredDocumentInfo: cannot be set together with 'chunkInfo'",
        ),
    ],
)
@pytest.mark.django_db
def test_forms_the_mapping_does_not_allow_are_rejected_with_the_field(change, message):
    document = {"name": NAME, "answerText": "abc", **change}

    result = importing.import_text(json.dumps(document))

    assert len(result.problems) == 1
    assert str(result.problems[0]).startswith(f"record ({NAME}): {message}")
    assert Answer.objects.count() == 0


def test_the_checked_in_tables_are_what_the_client_library_says():
    checked_in = json.loads(protojson.TABLES.read_text(encoding="utf-8"))

    assert prototables.build() == checked_in


def library_session(*answers):
    """A Session as `sessions.get` with includeAnswerDetails=true returns it."""
    return de.Session(
        name=SESSION,
        state=de.Session.State.IN_PROGRESS,
        user_pseudo_id="u1",
        turns=[
            de.Session.Turn(
                query=de.Query(text=f"Question {i}?", query_id=f"q{i}"), detailed_answer=a
            )
            for i, a in enumerate(answers)
        ],
    )


@pytest.mark.django_db
def test_a_session_read_with_its_answers_imports_every_answer_with_its_question():
    # Given a Session written by the client library, each turn holding its detailed answer
    first, second = library_answer(), library_answer()
    second.name = f"{SESSION}/answers/a2"
    second.answer_text = "東京 is large."
    second.citations, second.grounding_supports = [], []
    written = de.Session.to_json(library_session(first, second))

    # When it is imported, twice
    result = importing.import_text(written)
    again = importing.import_text(written)

    # Then both answers are stored in the REST form with their questions, once
    assert (result.created, result.problems) == (2, [])
    assert (again.created, again.unchanged) == (0, 2)
    stored = {a.name: a for a in Answer.objects.all()}
    assert stored[NAME].query_text == "Question 0?"
    assert stored[f"{SESSION}/answers/a2"].query_text == "Question 1?"
    assert stored[NAME].raw == rest_form(first)
    # And the session keeps each turn by the answer's name, as sessions.get writes it without
    # the details, so an export with sessions gives each answer back with its question
    session = Session.objects.get()
    assert [t["answer"] for t in session.raw["turns"]] == [NAME, f"{SESSION}/answers/a2"]
    assert not any("detailedAnswer" in t for t in session.raw["turns"])
    lines = [json.loads(x) for x in answer_jsonl(Answer.objects.all(), with_sessions=True)]
    assert [line["answer"]["name"] for line in lines] == [NAME, f"{SESSION}/answers/a2"]
    assert lines[0]["session"]["turns"][0]["query"]["text"] == "Question 0?"


@pytest.mark.django_db
def test_a_session_with_one_bad_answer_is_rejected_whole_naming_the_turn():
    good, bad = library_answer(), library_answer()
    bad.name = f"{SESSION}/answers/a2"
    bad.citations[0].end_index = len(TEXT.encode()) + 5  # past the end of the text
    written = de.Session.to_json(library_session(good, bad))

    result = importing.import_text(written)

    [problem] = result.problems
    assert problem.field.startswith("turns[1].detailedAnswer.citations[0]")
    assert not Answer.objects.exists() and not Session.objects.exists()


@pytest.mark.django_db
def test_a_session_answer_filed_under_another_session_is_refused():
    stray = library_answer()
    stray.name = SESSION.replace("/s1", "/s2") + "/answers/a9"
    written = de.Session.to_json(library_session(stray))

    [problem] = importing.import_text(written).problems

    assert problem.field == "turns[0].detailedAnswer.name"
    assert "not an answer of session" in str(problem)
    assert not Answer.objects.exists()
