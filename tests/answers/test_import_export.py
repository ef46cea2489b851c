import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundview.answers import importing
from groundview.answers.exporting import answer_jsonl
from groundview.answers.models import (
    Answer,
    CheckRun,
    Citation,
    GroundingSupport,
    Reference,
    ReferenceChunk,
    SafetyRating,
    SearchResult,
    Session,
    Step,
)
from tests.factories import (
    answer_document,
    chunk_reference,
    citation,
    create_label,
    document_reference,
)

NAME = "projects/1/locations/global/collections/default_collection/engines/e/sessions/s1/answers/a1"


def byte_offset(text, index):
    return len(text[:index].encode())


# The answer these tests import unless they say otherwise: a chunk and a document reference, the
# first sentence cited. A test varies it with dict(DOCUMENT, field=...).
DOCUMENT = answer_document(
    "Paris is the capital of France. 🗼 It has 2.1 million people.",
    name=NAME,
    references=[
        chunk_reference("Paris is the capital of France.", chunk="c1"),
        document_reference(
            "Paris", ["Paris has 2.1 million inhabitants."], uri="https://example.org/paris"
        ),
    ],
    citations=[citation(0, 31, 0)],
)


def exported(queryset=None):
    lines = answer_jsonl(queryset if queryset is not None else Answer.objects.all())
    return [json.loads(line) for line in lines]


def test_suite_runs_on_postgresql():
    assert connection.vendor == "postgresql"


# -- round trip ---------------------------------------------------------------------------------

unicode_text = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"),
    max_size=40,
) | st.sampled_from(
    ["naïve café 🙂🚀", "北京是中国的首都。上海很大！", "e\u0301\u0327 a\u20dd", ""]
)

json_scalars = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | unicode_text
unknown_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(unicode_text, children, max_size=3)
    ),
    max_leaves=6,
)
unknown_fields = st.dictionaries(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12).map(
        lambda k: "x_" + k
    ),
    unknown_values,
    max_size=3,
)


@st.composite
def spans(draw, text):
    """Byte spans on character boundaries, in the int64-as-string or number form."""
    index_a = draw(st.integers(0, len(text)))
    index_b = draw(st.integers(0, len(text)))
    start, end = sorted((byte_offset(text, index_a), byte_offset(text, index_b)))
    as_string = draw(st.booleans())
    return {
        "startIndex": str(start) if as_string else start,
        "endIndex": str(end) if as_string else end,
    }


@st.composite
def answers(draw):
    text = draw(unicode_text)
    references = draw(
        st.lists(
            st.one_of(
                st.builds(
                    lambda content, score, extra: {
                        "chunkInfo": {"content": content, "relevanceScore": score, **extra}
                    },
                    unicode_text,
                    st.floats(0, 1),
                    unknown_fields,
                ),
                st.builds(
                    lambda title, chunks: {
                        "unstructuredDocumentInfo": {
                            "title": title,
                            "chunkContents": [{"content": c} for c in chunks],
                        }
                    },
                    unicode_text,
                    st.lists(unicode_text, max_size=3),
                ),
                st.builds(
                    lambda data: {"structuredDocumentInfo": {"structData": data}},
                    st.dictionaries(unicode_text, json_scalars, max_size=3),
                ),
            ),
            max_size=4,
        )
    )

    def with_sources(span):
        if references:
            ids = draw(st.lists(st.integers(0, len(references) - 1), max_size=3))
            span["sources"] = [{"referenceId": str(i)} for i in ids]
        return span

    answer = {
        "name": draw(
            st.text(alphabet="abc123", min_size=1, max_size=6).map(lambda s: f"{NAME}-{s}")
        ),
        "state": draw(st.sampled_from(["SUCCEEDED", "FAILED", "IN_PROGRESS", "STREAMING"])),
        "answerText": text,
        "references": references,
        "citations": [with_sources(draw(spans(text))) for _ in range(draw(st.integers(0, 3)))],
        "groundingSupports": [
            {**with_sources(draw(spans(text))), "groundingScore": draw(st.floats(0, 1))}
            for _ in range(draw(st.integers(0, 3)))
        ],
        "relatedQuestions": draw(st.lists(unicode_text, max_size=2)),
        "createTime": "2026-03-02T10:15:30.123456789Z",
        **draw(unknown_fields),
    }
    if draw(st.booleans()):
        answer["groundingScore"] = draw(st.floats(0, 1))
    return answer


def in_rest_form(document):
    """The document as Vertex's REST API writes it: int64 span indices as strings."""
    document = json.loads(json.dumps(document))
    for key in ("citations", "groundingSupports"):
        for span in document.get(key, []):
            for index in ("startIndex", "endIndex"):
                span[index] = str(span[index])
    return document


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=answers())
def test_export_of_import_is_the_same_document(document):
    # Documents in the REST form come back unchanged; int64 written as numbers come back as
    # the REST form's strings.
    Answer.objects.all().delete()

    result = importing.import_text(json.dumps(document))

    assert result.problems == []
    assert exported() == [in_rest_form(document)]


@pytest.mark.django_db
def test_import_accepts_answer_response_array_and_jsonl():
    # Given the same answer in the :answer response shape, plus two more as a JSON array and JSONL
    session = {
        "name": NAME.rsplit("/answers/", 1)[0],
        "state": "IN_PROGRESS",
        "turns": [{"query": {"text": "What is the capital of France?"}, "answer": NAME}],
    }
    second = dict(DOCUMENT, name=NAME + "2")
    third = dict(DOCUMENT, name=NAME + "3")

    results = [
        importing.import_text(json.dumps({"answer": dict(DOCUMENT), "session": session})),
        importing.import_text(json.dumps([second])),
        importing.import_text(json.dumps(third) + "\n\n"),
    ]

    assert [r.created for r in results] == [1, 1, 1]
    answer = Answer.objects.get(name=NAME)
    assert answer.session.raw == session
    assert answer.query_text == "What is the capital of France?"
    assert Session.objects.count() == 1


@pytest.mark.django_db
def test_import_projects_the_document_into_tables():
    importing.import_text(
        json.dumps(
            dict(
                DOCUMENT,
                groundingSupports=[
                    {
                        "startIndex": 0,
                        "endIndex": 31,
                        "groundingScore": 0.9,
                        "groundingCheckRequired": True,
                        "sources": [{"referenceId": "0"}, {"referenceId": "1"}],
                    }
                ],
                safetyRatings=[{"category": "HARM_CATEGORY_HATE_SPEECH", "blocked": False}],
                steps=[
                    {
                        "state": "SUCCEEDED",
                        "thought": "Search first.",
                        "actions": [
                            {
                                "searchAction": {"query": "capital of France"},
                                "observation": {
                                    "searchResults": [
                                        {"title": "Paris", "snippetInfo": [{"snippet": "Paris…"}]}
                                    ]
                                },
                            }
                        ],
                    }
                ],
            )
        )
    )

    answer = Answer.objects.get()
    assert answer.state == "SUCCEEDED"
    assert Reference.objects.filter(answer=answer).count() == 2
    assert ReferenceChunk.objects.get().content == "Paris has 2.1 million inhabitants."
    citation = Citation.objects.get()
    assert (citation.start_index, citation.end_index) == (0, 31)
    assert [r.position for r in citation.references.all()] == [0]
    support = GroundingSupport.objects.get()
    assert support.grounding_score == 0.9
    assert sorted(r.position for r in support.references.all()) == [0, 1]
    assert SafetyRating.objects.get().category == "HARM_CATEGORY_HATE_SPEECH"
    assert Step.objects.get().thought == "Search first."
    assert SearchResult.objects.get().snippets.get().snippet == "Paris…"


# -- rejection rules ----------------------------------------------------------------------------

TEXT = "Tōkyō 🗼 東京"  # byte layout: "T"=0, "ō"=1..3, ..., "🗼" 4 bytes, CJK 3 bytes each


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"citations": [{"startIndex": "0", "endIndex": "99"}]},
            "citations[0].endIndex: 99 is beyond the end of answerText (19 bytes in UTF-8)",
        ),
        (
            {"citations": [{"startIndex": "2", "endIndex": "5"}]},
            "citations[0].startIndex: 2 falls inside a UTF-8 encoded character of answerText",
        ),
        (
            {"groundingSupports": [{"startIndex": 0, "endIndex": 10}]},
            "groundingSupports[0].endIndex: 10 falls inside a UTF-8 encoded character of answerText",
        ),
        (
            {"citations": [{"startIndex": "8", "endIndex": "3"}]},
            "citations[0]: startIndex 8 is after endIndex 3",
        ),
        (
            {"citations": [{"startIndex": "-1", "endIndex": "3"}]},
            "citations[0].startIndex: must not be negative, got -1",
        ),
        (
            {"citations": [{"startIndex": "zero", "endIndex": "3"}]},
            "citations[0].startIndex: must be an integer, not 'zero'",
        ),
        (
            {"citations": [{"endIndex": "3", "sources": [{"referenceId": "7"}]}]},
            "citations[0].sources[0].referenceId: '7' does not name a reference of this answer "
            "(it has 2; ids are their positions, 0 to 1)",
        ),
        (
            {"references": [], "citations": [{"endIndex": "3", "sources": [{"referenceId": "0"}]}]},
            "citations[0].sources[0].referenceId: '0' does not name a reference: "
            "this answer has no references",
        ),
        ({"answerText": 42}, "answerText: must be a string, not a number"),
        ({"groundingScore": 1.5}, "groundingScore: must be between 0 and 1, not 1.5"),
        ({"citations": {"startIndex": 0}}, "citations: must be an array, not an object"),
        (
            {"references": [{"chunkInfo": {"content": ["a"]}}]},
            "references[0].chunkInfo.content: must be a string, not an array",
        ),
        (
            {"createTime": "yesterday"},
            "createTime: must be an RFC 3339 timestamp like \"2024-05-01T12:00:00Z\", not 'yesterday'",
        ),
        ({"name": ""}, "name: is required: answers are keyed by their resource name"),
        (
            {"name": NAME.rsplit("/", 1)[0] + "/"},
            "name: needs one answer id after its last /answers/, e.g. /answers/a1",
        ),
        (
            {"name": NAME + "/"},
            "name: needs one answer id after its last /answers/, e.g. /answers/a1",
        ),
        (
            {"relatedQuestions": ["ok", "bad\x00"]},
            "relatedQuestions[1]: contains the NUL character (U+0000), which cannot be stored",
        ),
        (
            {"answerText": "bad \ud800"},
            "answerText: is not valid Unicode (it has a lone surrogate)",
        ),
    ],
)
@pytest.mark.django_db
def test_invalid_record_is_rejected_with_the_field_named(change, message):
    document = dict(DOCUMENT, answerText=TEXT, citations=[])
    document.update(change)

    result = importing.import_records([importing.Record(where="line 1", data=document)])

    where = f"line 1 ({document['name']})" if document["name"] else "line 1"
    assert [str(p) for p in result.problems] == [f"{where}: {message}"]
    assert Answer.objects.count() == 0


@pytest.mark.django_db
def test_malformed_lines_and_non_objects_are_named_by_line():
    text = '{"name": "x", "answerText": ""}\n{not json\n[1, 2]\n'

    result = importing.import_text(text)

    assert [str(p) for p in result.problems] == [
        "line 2: malformed JSON: Expecting property name enclosed in double quotes at column 2",
        "line 3: must be a JSON object, not an array",
    ]
    assert result.created == 1


@pytest.mark.django_db
def test_an_unterminated_string_is_named_once_with_its_column():
    result = importing.import_text('{"name": "x", "answerText": "Tōkyō 🗼\n')

    assert [str(p) for p in result.problems] == [
        "line 1: malformed JSON: Unterminated string starting at column 29"
    ]


@pytest.mark.django_db
def test_answer_response_errors_name_the_nested_field():
    document = {"answer": dict(DOCUMENT, citations=[{"endIndex": "999"}]), "session": {"name": "s"}}

    result = importing.import_records([importing.Record(where="item 0", data=document)])

    assert str(result.problems[0]) == (
        f"item 0 ({NAME}): answer.citations[0].endIndex: 999 is beyond the end of answerText "
        "(63 bytes in UTF-8)"
    )


@pytest.mark.django_db
def test_command_imports_good_records_and_exits_non_zero_for_bad_ones(tmp_path, capsys):
    good = dict(DOCUMENT)
    bad = dict(DOCUMENT, name=NAME + "-bad", citations=[{"startIndex": "0", "endIndex": "500"}])
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")

    with pytest.raises(CommandError) as raised:
        call_command("import_answers", str(path))

    assert raised.value.returncode == 1
    assert str(raised.value) == "1 record(s) rejected"
    out, err = capsys.readouterr()
    assert f"{path}: 1 imported (1 new, 0 updated, 0 unchanged), 1 rejected" in out
    assert f"line 2 ({NAME}-bad): citations[0].endIndex: 500 is beyond the end" in err
    assert list(Answer.objects.values_list("name", flat=True)) == [NAME]


@pytest.mark.django_db
def test_reimporting_the_same_file_changes_nothing(tmp_path):
    path = tmp_path / "answers.json"
    documents = [dict(DOCUMENT), dict(DOCUMENT, name=NAME + "2", answerText="二。", citations=[])]
    path.write_text(json.dumps(documents), encoding="utf-8")
    call_command("import_answers", str(path))
    tables = [Answer, Session, Reference, ReferenceChunk, Citation]
    before = {model.__name__: model.objects.count() for model in tables}
    ids_before = sorted(Reference.objects.values_list("pk", flat=True))

    call_command("import_answers", str(path))

    assert {model.__name__: model.objects.count() for model in tables} == before
    assert sorted(Reference.objects.values_list("pk", flat=True)) == ids_before


@pytest.mark.django_db
def test_reimporting_a_changed_answer_updates_it_in_place():
    importing.import_text(json.dumps(dict(DOCUMENT)))
    answer_id = Answer.objects.get().pk
    changed = dict(DOCUMENT, state="FAILED", citations=[], references=[])

    result = importing.import_text(json.dumps(changed))

    assert (result.created, result.updated) == (0, 1)
    answer = Answer.objects.get()
    assert answer.pk == answer_id
    assert answer.state == "FAILED"
    assert Reference.objects.count() == 0
    assert exported() == [changed]


@pytest.mark.django_db
def test_export_command_writes_jsonl(tmp_path):
    importing.import_text(json.dumps(dict(DOCUMENT, answerText="Ünïcödé 🙂", citations=[])))
    out = tmp_path / "out.jsonl"

    call_command("export_answers", "-o", str(out))

    line = out.read_text(encoding="utf-8")
    assert "Ünïcödé 🙂" in line  # written as UTF-8, not \u escapes
    assert json.loads(line)["answerText"] == "Ünïcödé 🙂"


@pytest.mark.django_db
def test_export_command_with_sessions_writes_answer_responses(tmp_path):
    session = {
        "name": NAME.rsplit("/answers/", 1)[0],
        "turns": [{"query": {"text": "¿Capital de Francia?"}, "answer": NAME}],
    }
    importing.import_text(json.dumps({"answer": DOCUMENT, "session": session}))
    out = tmp_path / "out.jsonl"

    call_command("export_answers", "--with-sessions", "-o", str(out))

    assert [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] == [
        {"answer": in_rest_form(DOCUMENT), "session": session}
    ]


@pytest.mark.django_db
def test_export_command_filters_as_the_list_does_and_refuses_what_it_cannot_do(tmp_path):
    importing.import_text(json.dumps(dict(DOCUMENT, citations=[])))
    session = Answer.objects.get().session
    by_id, by_name = tmp_path / "id.jsonl", tmp_path / "name.jsonl"

    call_command("export_answers", "--session", str(session.pk), "-o", str(by_id))
    call_command(
        "export_answers", "--session", session.name, "--state", "SUCCEEDED", "-o", str(by_name)
    )

    assert [json.loads(line)["name"] for line in by_id.read_text().splitlines()] == [NAME]
    assert by_name.read_text() == by_id.read_text()
    # A short name matches no session: an empty export would look like a finished one.
    with pytest.raises(CommandError, match="session: no session has the id or full name 's1'"):
        call_command("export_answers", "--session", "s1")
    with pytest.raises(CommandError, match="state: 'DONE' is not one of"):
        call_command("export_answers", "--state", "DONE")
    with pytest.raises(CommandError, match="cannot write: No such file or directory"):
        call_command("export_answers", "-o", str(tmp_path / "missing" / "out.jsonl"))
    with pytest.raises(CommandError, match="cannot write: No such file or directory"):
        call_command("export_labels", "-o", str(tmp_path / "missing" / "out.jsonl"))


@pytest.mark.django_db
def test_an_earlier_session_snapshot_does_not_replace_a_later_one():
    session_name = NAME.rsplit("/answers/", 1)[0]
    first_turn = {"query": {"text": "Capital of France?"}, "answer": NAME}
    second_turn = {"query": {"text": "How many people?"}, "answer": NAME + "2"}
    later = {"name": session_name, "turns": [first_turn, second_turn]}
    earlier = {"name": session_name, "turns": [first_turn]}

    importing.import_text(json.dumps({"answer": dict(DOCUMENT, name=NAME + "2"), "session": later}))
    importing.import_text(json.dumps({"answer": dict(DOCUMENT), "session": earlier}))

    assert Session.objects.get().raw == later
    assert Answer.objects.get(name=NAME).query_text == "Capital of France?"


@pytest.mark.django_db
def test_an_answer_imported_before_its_session_gets_its_question_later():
    importing.import_text(json.dumps(dict(DOCUMENT)))
    session = {
        "name": NAME.rsplit("/answers/", 1)[0],
        "turns": [{"query": {"text": "Capital of France?"}, "answer": NAME}],
    }

    importing.import_text(
        json.dumps({"answer": dict(DOCUMENT, name=NAME + "2"), "session": session})
    )

    assert Answer.objects.get(name=NAME).query_text == "Capital of France?"


@pytest.mark.django_db
def test_a_session_other_than_the_one_the_answer_names_is_rejected():
    other = NAME.split("/sessions/")[0] + "/sessions/OTHER"
    record = {"answer": dict(DOCUMENT), "session": {"name": other}}

    result = importing.import_records([importing.Record(where="item 0", data=record)])

    assert [str(p) for p in result.problems] == [
        f"item 0 ({NAME}): session.name: is {other!r}, but the answer's name puts it in "
        f"{NAME.rsplit('/answers/', 1)[0]!r}"
    ]
    assert not Answer.objects.exists() and not Session.objects.exists()


@pytest.mark.django_db
def test_a_new_text_for_a_labelled_answer_is_refused_and_nothing_changes(django_user_model):
    importing.import_text(json.dumps(dict(DOCUMENT)))
    answer = Answer.objects.get()
    reviewer = django_user_model.objects.create_user("rita")
    create_label(answer, reviewer, claims={DOCUMENT["answerText"][:10]: "supported"})
    before = exported()

    changed = dict(DOCUMENT, answerText="A different answer 🎉 文本.", citations=[])
    result = importing.import_records(
        [
            importing.Record(where="line 1", data=changed),
            importing.Record(where="line 2", data={"answer": changed}),
        ]
    )

    refused = (
        "differs from the stored answer's text, which has 1 reviewer label(s); labels are kept "
        "with the text they judged, so import the new text under another name (or delete the "
        "labels first)"
    )
    assert [str(p) for p in result.problems] == [
        f"line 1 ({NAME}): answerText: {refused}",
        f"line 2 ({NAME}): answer.answerText: {refused}",
    ]
    assert exported() == before
    # The same text with another change still imports.
    assert importing.import_text(json.dumps(dict(DOCUMENT, state="FAILED"))).updated == 1


@pytest.mark.django_db
def test_an_unfinished_answer_takes_its_final_text_even_if_labelled(django_user_model):
    # A trace's answer grows as its spans arrive; a label given while it was unfinished (before
    # such labels were refused) must not make the final text unimportable.
    importing.import_text(json.dumps(dict(DOCUMENT, state="IN_PROGRESS", citations=[])))
    answer = Answer.objects.get()
    create_label(answer, django_user_model.objects.create_user("rita"))
    final = dict(DOCUMENT, answerText=DOCUMENT["answerText"] + " And more 🎉.")

    result = importing.import_text(json.dumps(final))

    assert (result.updated, result.problems) == (1, [])
    assert Answer.objects.get().state == "SUCCEEDED"


@pytest.mark.django_db
def test_a_new_text_leaves_the_old_check_in_history_but_not_as_the_latest():
    importing.import_text(json.dumps(dict(DOCUMENT)))
    answer = Answer.objects.get()
    run = CheckRun.objects.create(
        answer=answer, status=CheckRun.Status.SUCCEEDED, support_score=0.9
    )
    Answer.objects.filter(pk=answer.pk).update(latest_check=run)

    importing.import_text(json.dumps(dict(DOCUMENT, answerText="Another text.", citations=[])))

    answer.refresh_from_db()
    assert answer.latest_check is None
    assert list(answer.check_runs.all()) == [run]


@pytest.mark.django_db
def test_a_session_document_without_its_answers_is_refused_not_stored_as_an_empty_answer():
    # sessions.get without includeAnswerDetails names its answers but does not hold them
    session = NAME.rsplit("/answers/", 1)[0]
    document = {"name": session, "turns": [{"query": {"text": "Why?"}, "answer": NAME}]}

    result = importing.import_text(json.dumps(document))

    assert result.created == 0
    [problem] = result.problems
    assert problem.field == "turns"
    assert "includeAnswerDetails=true" in str(problem)
    assert not Answer.objects.exists() and not Session.objects.exists()


@pytest.mark.django_db
def test_an_answer_without_a_state_counts_as_unspecified(tmp_path):
    # REST JSON leaves an enum's zero value out; client libraries' to_json writes it
    stateless = {key: value for key, value in DOCUMENT.items() if key != "state"}
    importing.import_text(json.dumps(dict(stateless, name=NAME + "x")))
    importing.import_text(json.dumps(dict(DOCUMENT, state="STATE_UNSPECIFIED")))
    importing.import_text(json.dumps(dict(DOCUMENT, name=NAME + "y", state="SUCCEEDED")))
    out = tmp_path / "out.jsonl"

    call_command("export_answers", "--state", "STATE_UNSPECIFIED", "-o", str(out))

    names = [json.loads(line)["name"] for line in out.read_text().splitlines()]
    assert sorted(names) == [NAME, NAME + "x"]
