"""OpenInference traces in OTLP JSON files import as answers, one per trace, keeping their spans."""

import copy
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from groundview.answers import importing
from groundview.answers.exporting import answer_jsonl
from groundview.answers.formats import otlp
from groundview.answers.models import Answer, Reference, Session

TRACE = "5b8efff798038103d269b633813fc60c"
OTHER_TRACE = "0af7651916cd43dd8448eb211c80319c"
ROOT, RETRIEVER, LLM = "eee19b7ec3c1b174", "eee19b7ec3c1b175", "eee19b7ec3c1b176"
T0 = 1_700_000_000_000_000_000  # Unix nanoseconds
QUESTION = "東京の人口は？ 🗼"
ANSWER = "東京都の人口は約1400万人です。🙂 Tokyo is large."
DOCUMENTS = [
    (
        "doc-1",
        "東京都の人口は約1400万人。",
        0.92,
        {"title": "東京都", "url": "https://example.org/tokyo"},
    ),
    ("doc-2", "Tokyo is the capital of Japan 🇯🇵.", 0.41, {"source": "wiki"}),
]


def value(v):
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    return {"stringValue": v}


def attrs(**pairs):
    return [{"key": key.replace("__", "."), "value": value(v)} for key, v in pairs.items()]


def attr_list(pairs):
    return [{"key": key, "value": value(v)} for key, v in pairs]


def span(span_id, name, pairs, *, parent="", start=0, end=1, trace=TRACE, **extra):
    data = {
        "traceId": trace,
        "spanId": span_id,
        "name": name,
        "kind": 1,
        "startTimeUnixNano": str(T0 + start * 1_000_000),
        "endTimeUnixNano": str(T0 + end * 1_000_000),
        "attributes": attr_list(pairs),
        "status": {"code": 1},
        **extra,
    }
    if parent:
        data["parentSpanId"] = parent
    return data


def chain_span(**extra):
    return span(
        ROOT,
        "rag",
        [
            ("openinference.span.kind", "CHAIN"),
            ("input.value", json.dumps({"question": QUESTION}, ensure_ascii=False)),
            ("input.mime_type", "application/json"),
            ("output.value", ANSWER),
            ("session.id", "conversation-7"),
            ("user.id", "user-3"),
        ],
        start=0,
        end=900,
        **extra,
    )


def retriever_span():
    pairs = [("openinference.span.kind", "RETRIEVER"), ("input.value", QUESTION)]
    for i, (doc_id, content, score, metadata) in enumerate(DOCUMENTS):
        pairs += [
            (f"retrieval.documents.{i}.document.id", doc_id),
            (f"retrieval.documents.{i}.document.content", content),
            (f"retrieval.documents.{i}.document.score", score),
            (f"retrieval.documents.{i}.document.metadata", json.dumps(metadata)),
        ]
    pairs.append(("session.id", "conversation-7"))
    return span(RETRIEVER, "retrieve", pairs, parent=ROOT, start=10, end=200)


def llm_span():
    return span(
        LLM,
        "llm",
        [
            ("openinference.span.kind", "LLM"),
            ("llm.model_name", "tiny-llm"),
            ("llm.input_messages.0.message.role", "system"),
            ("llm.input_messages.0.message.content", "Answer from the context."),
            ("llm.input_messages.1.message.role", "user"),
            ("llm.input_messages.1.message.content", QUESTION),
            ("llm.output_messages.0.message.role", "assistant"),
            ("llm.output_messages.0.message.content", ANSWER),
            ("session.id", "conversation-7"),
        ],
        parent=ROOT,
        start=210,
        end=880,
    )


def export(*spans):
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": attrs(service__name="rag-app")},
                "scopeSpans": [
                    {
                        "scope": {
                            "name": "openinference.instrumentation.langchain",
                            "version": "0.1",
                        },
                        "spans": list(spans),
                    }
                ],
            }
        ]
    }


def jsonl(*exports):
    return "\n".join(json.dumps(item, ensure_ascii=False) for item in exports)


def exported():
    return [json.loads(line) for line in answer_jsonl(Answer.objects.order_by("pk"))]


@pytest.mark.django_db
def test_a_rag_trace_becomes_an_answer_with_its_question_text_documents_and_spans():
    # Given one OTLP JSON export with a CHAIN, a RETRIEVER and an LLM span
    data = export(chain_span(), retriever_span(), llm_span())

    result = importing.import_text(json.dumps(data, ensure_ascii=False))

    assert (result.created, result.problems) == (1, [])
    answer = Answer.objects.get()
    assert answer.name == (f"{otlp.ENGINE}/sessions/conversation-7/answers/{TRACE}")
    assert (answer.state, answer.answer_text, answer.query_text) == ("SUCCEEDED", ANSWER, QUESTION)
    assert answer.create_time.isoformat() == "2023-11-14T22:13:20+00:00"
    references = list(
        answer.references.order_by("position").values_list(
            "kind", "content", "document", "relevance_score", "uri", "title", "struct_data"
        )
    )
    assert references == [
        (
            "chunkInfo",
            DOCUMENTS[0][1],
            "doc-1",
            0.92,
            "https://example.org/tokyo",
            "東京都",
            DOCUMENTS[0][3],
        ),
        ("chunkInfo", DOCUMENTS[1][1], "doc-2", 0.41, "", "", {"source": "wiki"}),
    ]
    session = Session.objects.get()
    assert session.user_pseudo_id == "user-3"
    assert session.raw["turns"] == [{"query": {"text": QUESTION}, "answer": answer.name}]
    # The spans are kept as they came, with their resource and scope.
    source = exported()[0]["groundviewSource"]
    assert source == {"format": "openinference", "id": TRACE, **data}


@pytest.mark.django_db
def test_spans_of_one_trace_in_several_records_are_one_answer():
    # The Collector's file exporter writes a line per batch; a root span ends (and comes) last.
    text = jsonl(export(retriever_span()), export(llm_span()), export(chain_span()))

    result = importing.import_text(text)

    assert (result.created, result.problems) == (1, [])
    answer = Answer.objects.get()
    assert (answer.state, answer.answer_text) == ("SUCCEEDED", ANSWER)
    assert answer.references.count() == 2
    assert len(otlp.stored_spans(answer.raw)) == 3


@pytest.mark.django_db
def test_a_trace_arriving_in_parts_is_in_progress_until_its_root_span_then_complete():
    # Given the retriever and LLM spans, without the root
    first = importing.import_text(jsonl(export(retriever_span(), llm_span())))

    answer = Answer.objects.get()
    assert first.created == 1
    # ... not queued for a check yet: the answer will change
    assert first.changed_answer_ids == []
    # The question comes from the retriever, the text from the LLM, for now.
    assert (answer.state, answer.query_text, answer.answer_text) == (
        "IN_PROGRESS",
        QUESTION,
        ANSWER,
    )
    assert "completeTime" not in answer.raw

    # When the root span arrives
    second = importing.import_text(jsonl(export(chain_span())))
    # and the whole trace is imported again, and the export of it too
    again = importing.import_text(jsonl(export(chain_span(), retriever_span(), llm_span())))
    round_trip = importing.import_text("".join(answer_jsonl(Answer.objects.all())))

    assert (second.updated, second.changed_answer_ids) == (1, [answer.pk])
    assert (again.unchanged, round_trip.unchanged, round_trip.problems) == (1, 1, [])
    answer.refresh_from_db()
    assert answer.state == "SUCCEEDED"
    assert answer.complete_time is not None
    assert Answer.objects.count() == 1 and answer.references.count() == 2


@pytest.mark.django_db
def test_the_answer_moves_to_its_session_when_later_spans_name_it():
    # Given a first part of the trace without session.id: the trace is a session of its own
    retriever = retriever_span()
    retriever["attributes"] = [a for a in retriever["attributes"] if a["key"] != "session.id"]
    importing.import_text(json.dumps(export(retriever)))
    first = Answer.objects.get()
    assert first.session.name == f"{otlp.ENGINE}/sessions/{TRACE}"

    # When the root span brings session.id
    importing.import_text(json.dumps(export(chain_span()), ensure_ascii=False))

    # Then it is the same answer, under the session; the stand-in session is gone
    answer = Answer.objects.get()
    assert answer.pk == first.pk
    assert answer.name == f"{otlp.ENGINE}/sessions/conversation-7/answers/{TRACE}"
    assert list(Session.objects.values_list("name", flat=True)) == [
        f"{otlp.ENGINE}/sessions/conversation-7"
    ]
    assert answer.state == "SUCCEEDED"


@pytest.mark.django_db
def test_two_traces_of_one_session_are_its_two_turns_in_order():
    second_root = chain_span(traceId=OTHER_TRACE, startTimeUnixNano=str(T0 + 5 * 10**9))
    second_root["attributes"][1]["value"]["stringValue"] = json.dumps({"question": "Und Osaka?"})

    importing.import_text(jsonl(export(chain_span())))
    importing.import_text(jsonl(export(second_root)))
    importing.import_text(jsonl(export(chain_span(), retriever_span())))  # the first again, updated

    session = Session.objects.get()
    assert [turn["query"]["text"] for turn in session.raw["turns"]] == [QUESTION, "Und Osaka?"]
    assert [turn["answer"].rsplit("/", 1)[1] for turn in session.raw["turns"]] == [
        TRACE,
        OTHER_TRACE,
    ]


@pytest.mark.django_db
def test_a_trace_without_openinference_spans_is_rejected_and_the_others_import():
    plain = span("1111111111111111", "GET /", [("http.method", "GET")], trace=OTHER_TRACE)

    result = importing.import_text(json.dumps(export(plain, chain_span())))

    assert result.created == 1
    assert result.rejected_spans == 1
    assert [str(problem) for problem in result.problems] == [
        f"trace {OTHER_TRACE}: none of its 1 span(s) is an OpenInference span "
        "(none has the openinference.span.kind attribute)"
    ]
    assert Answer.objects.get().name.endswith(TRACE)


@pytest.mark.django_db
def test_import_command_reads_an_otlp_json_file(tmp_path, capsys):
    path = tmp_path / "traces.json"
    path.write_text(json.dumps(export(chain_span(), retriever_span())), encoding="utf-8")

    call_command("import_answers", str(path))

    assert "1 imported (1 new, 0 updated, 0 unchanged), 0 rejected" in capsys.readouterr().out
    assert Answer.objects.get().references.count() == 2


def spans_path(i=0):
    return f"resourceSpans[0].scopeSpans[0].spans[{i}]"


def set_attribute(key, new_value):
    def change(data):
        for item in data["resourceSpans"][0]["scopeSpans"][0]["spans"][1]["attributes"]:
            if item["key"] == key:
                item["value"] = new_value

    return change


def setter(path, new_value):
    def change(data):
        target = data
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = new_value

    return change


def deleter(path):
    def change(data):
        target = data
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]

    return change


SPAN = ["resourceSpans", 0, "scopeSpans", 0, "spans", 1]
BAD = [
    (
        "record",
        setter(["resourceSpans"], {"spans": []}),
        "resourceSpans",
        "must be an array, not an object",
    ),
    (
        "scope spans",
        setter(["resourceSpans", 0, "scopeSpans"], "x"),
        "resourceSpans[0].scopeSpans",
        "must be an array, not a string",
    ),
    (
        "trace id number",
        setter([*SPAN, "traceId"], 42),
        f"{spans_path(1)}.traceId",
        "must be a string of 32 hex digits, not a number",
    ),
    (
        "trace id short",
        setter([*SPAN, "traceId"], "abc"),
        f"{spans_path(1)}.traceId",
        "must be 32 hex digits (16 bytes), not 'abc'",
    ),
    (
        "trace id zero",
        setter([*SPAN, "traceId"], "0" * 32),
        f"{spans_path(1)}.traceId",
        "must not be all zeros",
    ),
    ("span id missing", deleter([*SPAN, "spanId"]), f"{spans_path(1)}.spanId", "is required"),
    (
        "parent id",
        setter([*SPAN, "parentSpanId"], "zz"),
        f"{spans_path(1)}.parentSpanId",
        "must be 16 hex digits",
    ),
    (
        "start time",
        setter([*SPAN, "startTimeUnixNano"], "soon"),
        f"{spans_path(1)}.startTimeUnixNano",
        "must be an integer, not 'soon'",
    ),
    (
        "negative time",
        setter([*SPAN, "endTimeUnixNano"], -5),
        f"{spans_path(1)}.endTimeUnixNano",
        "must be nanoseconds since 1970",
    ),
    (
        "NUL",
        set_attribute("input.value", {"stringValue": "a\x00b"}),
        f"{spans_path(1)}.attributes[1].value.stringValue",
        "contains the NUL character",
    ),
    (
        "status",
        setter([*SPAN, "status"], {"code": "BROKEN"}),
        f"{spans_path(1)}.status.code",
        "must be a status code",
    ),
]


# Well-formed OTLP whose OpenInference attributes have the wrong types: the trace is rejected,
# the export's other traces are not.
BAD_ATTRIBUTES = [
    (
        "span kind attribute",
        set_attribute("openinference.span.kind", {"intValue": "3"}),
        f"{spans_path(1)}.attributes[0].value",
        "openinference.span.kind must be a string, not a number",
    ),
    (
        "document score",
        set_attribute("retrieval.documents.0.document.score", {"stringValue": "high"}),
        f"{spans_path(1)}.attributes[4].value",
        "retrieval.documents.0.document.score must be a number, not a string",
    ),
    (
        "document content",
        set_attribute("retrieval.documents.1.document.content", {"boolValue": True}),
        f"{spans_path(1)}.attributes[7].value",
        "retrieval.documents.1.document.content must be a string, not a boolean",
    ),
    (
        "document metadata",
        set_attribute("retrieval.documents.0.document.metadata", {"stringValue": "{title: x"}),
        f"{spans_path(1)}.attributes[5].value",
        "retrieval.documents.0.document.metadata must be JSON text",
    ),
    (
        "two values",
        setter([*SPAN, "attributes", 1, "value"], {"stringValue": "a", "intValue": 1}),
        f"{spans_path(1)}.attributes[1].value",
        "must hold one value, not several (stringValue, intValue)",
    ),
    (
        "int value",
        setter([*SPAN, "attributes", 1, "value"], {"intValue": "1.5x"}),
        f"{spans_path(1)}.attributes[1].value.intValue",
        "must be an integer",
    ),
    (
        "duplicate key",
        setter([*SPAN, "attributes", 1, "key"], "openinference.span.kind"),
        f"{spans_path(1)}.attributes[1].key",
        "'openinference.span.kind' is given twice",
    ),
    (
        "string value",
        setter([*SPAN, "attributes", 1, "value"], {"stringValue": 5}),
        f"{spans_path(1)}.attributes[1].value.stringValue",
        "must be a string, not a number",
    ),
    (
        "attributes",
        setter([*SPAN, "attributes"], {"a": 1}),
        f"{spans_path(1)}.attributes",
        "must be an array, not an object",
    ),
    (
        "attribute key",
        setter([*SPAN, "attributes", 0, "key"], 7),
        f"{spans_path(1)}.attributes[0].key",
        "must be a string, not a number",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field", "message"),
    [b[1:] for b in BAD_ATTRIBUTES],
    ids=[b[0] for b in BAD_ATTRIBUTES],
)
def test_a_trace_with_badly_typed_attributes_is_rejected_alone(change, field, message):
    # Given an export of two traces, one of them with an attribute of the wrong type
    data = copy.deepcopy(export(chain_span(), retriever_span(), llm_span()))
    change(data)
    other = export(chain_span())["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    other["traceId"] = OTHER_TRACE
    data["resourceSpans"][0]["scopeSpans"][0]["spans"].append(other)

    result = importing.import_text(json.dumps(data, ensure_ascii=False))

    # Then that trace is a problem naming the field, and the other trace is an answer
    (problem,) = result.problems
    assert (problem.record, problem.field) == (f"trace {TRACE}", field)
    assert message in problem.message
    assert result.rejected_spans == 3
    (answer,) = Answer.objects.all()
    assert OTHER_TRACE in answer.name


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD]
)
def test_malformed_export_is_rejected_whole_naming_the_field(change, field, message):
    # Given a good trace export with one thing wrong in it
    data = copy.deepcopy(export(chain_span(), retriever_span(), llm_span()))
    change(data)

    result = importing.import_text(json.dumps(data, ensure_ascii=False))

    # Then the record is rejected, naming the field, and nothing at all is stored
    assert (result.imported, len(result.problems)) == (0, 1)
    problem = result.problems[0]
    assert (problem.record, problem.field) == ("record", field)
    assert message in problem.message
    assert not Answer.objects.exists() and not Session.objects.exists()
    assert not Reference.objects.exists()


@pytest.mark.django_db
def test_a_bad_line_is_rejected_and_the_other_lines_of_the_trace_still_import(tmp_path, capsys):
    bad = export(llm_span())
    bad["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["spanId"] = "not-hex"
    path = tmp_path / "traces.jsonl"
    path.write_text(jsonl(export(chain_span()), bad, export(retriever_span())), encoding="utf-8")

    with pytest.raises(CommandError):
        call_command("import_answers", str(path))

    err = capsys.readouterr().err
    assert f"line 2: {spans_path(0)}.spanId: must be 16 hex digits (8 bytes), not 'not-hex'" in err
    answer = Answer.objects.get()
    assert answer.references.count() == 2
    assert len(otlp.stored_spans(answer.raw)) == 2


@pytest.mark.django_db
def test_a_trace_with_too_many_spans_is_refused():
    many = [
        span(f"{i + 1:016x}", f"step {i}", [("openinference.span.kind", "TOOL")], parent=ROOT)
        for i in range(otlp.MAX_SPANS_PER_TRACE)
    ]

    result = importing.import_text(json.dumps(export(chain_span(), *many)))

    assert result.imported == 0
    assert [str(problem) for problem in result.problems] == [
        f"trace {TRACE}: has {otlp.MAX_SPANS_PER_TRACE + 1} spans; "
        f"at most {otlp.MAX_SPANS_PER_TRACE} are kept per trace"
    ]
    assert result.rejected_spans == otlp.MAX_SPANS_PER_TRACE + 1
    assert not Answer.objects.exists() and not Session.objects.exists()


@pytest.mark.django_db
def test_snake_case_names_and_base64_ids_are_read_too():
    # A generic protobuf JSON writer: the proto's field names, ids in base64.
    root = chain_span()
    root["trace_id"] = "W47/95gDgQPSabYzgT/GDA=="
    root["span_id"] = root.pop("spanId")
    del root["traceId"]
    data = {"resource_spans": [{"scope_spans": [{"spans": [root]}]}]}

    result = importing.import_text(json.dumps(data, ensure_ascii=False))

    assert (result.created, result.problems) == (1, [])
    assert Answer.objects.get().name.endswith(f"/answers/{TRACE}")


@pytest.mark.django_db
def test_an_imported_trace_reads_on_the_answer_page(client, reviewer):
    importing.import_text(json.dumps(export(chain_span(), retriever_span(), llm_span())))
    answer = Answer.objects.get()
    client.force_login(reviewer)

    page = client.get(f"/answers/{answer.pk}/").content.decode()

    assert QUESTION in page
    # The text, highlighted claim by claim (not checked yet), and the retrieved documents
    assert 'title="Claim 1: Not checked">東京都の人口は約1400万人です。</span>' in page
    assert DOCUMENTS[0][1] in page and DOCUMENTS[1][1] in page
    assert 'href="https://example.org/tokyo"' in page
