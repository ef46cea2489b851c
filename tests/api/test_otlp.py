"""POST /v1/traces: OpenInference spans sent by the real OpenTelemetry SDK become answers."""

import base64
import gzip
import json

import pytest
from google.protobuf.json_format import ParseDict
from google.rpc import status_pb2
from openinference.semconv.trace import (
    DocumentAttributes,
    MessageAttributes,
    OpenInferenceMimeTypeValues,
    OpenInferenceSpanKindValues,
    SpanAttributes,
)
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    SimpleSpanProcessor,
    SpanExportResult,
)
from opentelemetry.trace import Status, StatusCode

from groundview.answers.formats import otlp
from groundview.answers.models import Answer, CheckRun, Session
from groundview.api.models import ApiToken

PROTOBUF, JSON = "application/x-protobuf", "application/json"
KIND = SpanAttributes.OPENINFERENCE_SPAN_KIND
CHAIN = OpenInferenceSpanKindValues.CHAIN.value
RETRIEVER = OpenInferenceSpanKindValues.RETRIEVER.value
LLM = OpenInferenceSpanKindValues.LLM.value

# The fake RAG pipeline's corpus: (id, text, metadata). Emoji, CJK and a combining accent.
CORPUS = [
    (
        "kb-1",
        "富士山の高さは3776メートルです。",
        {"title": "富士山", "url": "https://example.org/fuji"},
    ),
    ("kb-2", "Mount Fuji 🗻 last erupted in 1707.", {"title": "Fuji"}),
    ("kb-3", "Cafe\u0301 culture is unrelated.", {}),
]
ANSWERS = {
    "富士山の高さは？": "富士山の高さは3776メートルです。 Mount Fuji 🗻 last erupted in 1707.",
    "When did Fuji erupt?": "Mount Fuji 🗻 last erupted in 1707.",
}


# What the fake retriever finds for each question, best first.
RETRIEVED = {"富士山の高さは？": ["kb-1", "kb-2"], "When did Fuji erupt?": ["kb-2", "kb-3"]}


def search(question):
    texts = {doc_id: (text, metadata) for doc_id, text, metadata in CORPUS}
    return [
        (0.9 - 0.3 * rank, doc_id, *texts[doc_id])
        for rank, doc_id in enumerate(RETRIEVED[question])
    ]


def rag_pipeline(tracer, question, session_id, *, fail=False):
    """A small RAG app instrumented by hand the way OpenInference's instrumentors do it."""
    with tracer.start_as_current_span(
        "rag-pipeline",
        attributes={
            KIND: CHAIN,
            SpanAttributes.INPUT_VALUE: json.dumps({"question": question}, ensure_ascii=False),
            SpanAttributes.INPUT_MIME_TYPE: OpenInferenceMimeTypeValues.JSON.value,
            SpanAttributes.SESSION_ID: session_id,
            SpanAttributes.USER_ID: "user-42",
        },
    ) as chain:
        with tracer.start_as_current_span(
            "retrieve",
            attributes={
                KIND: RETRIEVER,
                SpanAttributes.INPUT_VALUE: question,
                SpanAttributes.SESSION_ID: session_id,
            },
        ) as retriever:
            documents = search(question)
            for i, (score, doc_id, text, metadata) in enumerate(documents):
                prefix = f"{SpanAttributes.RETRIEVAL_DOCUMENTS}.{i}."
                retriever.set_attribute(prefix + DocumentAttributes.DOCUMENT_ID, doc_id)
                retriever.set_attribute(prefix + DocumentAttributes.DOCUMENT_CONTENT, text)
                retriever.set_attribute(prefix + DocumentAttributes.DOCUMENT_SCORE, score)
                retriever.set_attribute(
                    prefix + DocumentAttributes.DOCUMENT_METADATA,
                    json.dumps(metadata, ensure_ascii=False),
                )
        with tracer.start_as_current_span(
            "llm", attributes={KIND: LLM, SpanAttributes.SESSION_ID: session_id}
        ) as llm:
            answer = ANSWERS[question]
            messages = f"{SpanAttributes.LLM_INPUT_MESSAGES}.0."
            llm.set_attribute(messages + MessageAttributes.MESSAGE_ROLE, "user")
            llm.set_attribute(messages + MessageAttributes.MESSAGE_CONTENT, question)
            messages = f"{SpanAttributes.LLM_OUTPUT_MESSAGES}.0."
            llm.set_attribute(messages + MessageAttributes.MESSAGE_ROLE, "assistant")
            llm.set_attribute(messages + MessageAttributes.MESSAGE_CONTENT, answer)
        chain.set_attribute(SpanAttributes.OUTPUT_VALUE, answer)
        if fail:
            chain.set_status(Status(StatusCode.ERROR, "the LLM timed out"))
        return chain.get_span_context().trace_id


def exporter_to(live_server, token):
    return OTLPSpanExporter(
        endpoint=f"{live_server.url}/v1/traces",
        headers={"Authorization": f"Bearer {token}"},
        # The first check loads the model inside the request (Celery runs eagerly here).
        timeout=120,
    )


@pytest.fixture
def admin_token(admin_user):
    _, token = ApiToken.issue(admin_user, "otel-exporter")
    return token


@pytest.fixture
def traced(live_server, admin_token):
    """A tracer whose spans go to the live server, one request per ended span."""
    exporter = exporter_to(live_server, admin_token)
    provider = TracerProvider(resource=Resource.create({"service.name": "fake-rag"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield provider.get_tracer("tests.fake_rag")
    provider.shutdown()


@pytest.mark.model
@pytest.mark.django_db(transaction=True)
def test_a_batch_from_the_sdk_becomes_a_checked_answer_with_byte_spans(
    live_server, admin_token, settings
):
    # Given checks on import with the real engine, and the SDK's batch processor
    settings.GROUNDVIEW_CHECK_ON_IMPORT = True
    provider = TracerProvider(resource=Resource.create({"service.name": "fake-rag"}))
    provider.add_span_processor(BatchSpanProcessor(exporter_to(live_server, admin_token)))
    tracer = provider.get_tracer("tests.fake_rag")

    # When the app answers a question and its spans are flushed
    trace_id = rag_pipeline(tracer, "富士山の高さは？", "chat-1")
    assert provider.force_flush(timeout_millis=180_000)
    provider.shutdown()

    # Then one answer holds the question, the answer and the retrieved documents
    answer = Answer.objects.get()
    assert answer.name == f"{otlp.ENGINE}/sessions/chat-1/answers/{trace_id:032x}"
    assert (answer.state, answer.query_text) == ("SUCCEEDED", "富士山の高さは？")
    assert answer.answer_text == ANSWERS["富士山の高さは？"]
    references = list(
        answer.references.order_by("position").values_list("document", "content", "title", "uri")
    )
    assert references == [
        ("kb-1", CORPUS[0][1], "富士山", "https://example.org/fuji"),
        ("kb-2", CORPUS[1][1], "Fuji", ""),
    ]
    assert answer.session.user_pseudo_id == "user-42"
    spans = otlp.stored_spans(answer.raw)
    assert sorted(span.attributes[KIND] for span in spans) == [CHAIN, LLM, RETRIEVER]
    resource = answer.raw["groundviewSource"]["resourceSpans"][0]["resource"]
    assert {"key": "service.name", "value": {"stringValue": "fake-rag"}} in resource["attributes"]
    # ... and was checked: each claim's UTF-8 byte span cuts exactly its sentence out of the text
    run = CheckRun.objects.get(answer=answer)
    assert run.status == CheckRun.Status.SUCCEEDED, run.error
    encoded = answer.answer_text.encode()
    claims = [
        (encoded[claim.get("startPos", 0) : claim["endPos"]].decode(), claim["claimText"])
        for claim in run.response["claims"]
    ]
    assert [text for text, _ in claims] == [claim for _, claim in claims]
    assert [text.strip() for text, _ in claims] == [
        "富士山の高さは3776メートルです。",
        "Mount Fuji 🗻 last erupted in 1707.",
    ]
    # The second claim starts past the Japanese sentence's bytes, not its characters.
    assert run.response["claims"][1]["startPos"] > len("富士山の高さは3776メートルです。") * 2


@pytest.mark.django_db(transaction=True)
def test_spans_sent_one_request_each_merge_into_one_answer_per_trace(traced, settings):
    # Given checks on import (a fake engine: the checker is not under test here)
    settings.GROUNDVIEW_CHECK_ON_IMPORT = True
    settings.GROUNDVIEW_CHECK_ENGINE = "tests.checks.fake_engines.fake_engine"

    # When two questions of one conversation are answered, every span sent as it ends
    first = rag_pipeline(traced, "富士山の高さは？", "chat-2")
    second = rag_pipeline(traced, "When did Fuji erupt?", "chat-2")

    # Then each trace is one complete answer, though its root span came in a request of its own
    answers = list(Answer.objects.order_by("create_time"))
    assert [a.name.rsplit("/", 1)[1] for a in answers] == [f"{first:032x}", f"{second:032x}"]
    assert [a.state for a in answers] == ["SUCCEEDED", "SUCCEEDED"]
    assert [a.references.count() for a in answers] == [2, 2]
    assert [len(otlp.stored_spans(a.raw)) for a in answers] == [3, 3]
    # ... the two are the session's turns, in order
    session = Session.objects.get()
    assert [turn["query"]["text"] for turn in session.raw["turns"]] == [
        "富士山の高さは？",
        "When did Fuji erupt?",
    ]
    # ... and each was checked once, when its trace was complete, not for its partial states
    runs = CheckRun.objects.order_by("pk")
    assert [run.answer_id for run in runs] == [a.pk for a in answers]
    assert {run.status for run in runs} == {CheckRun.Status.SUCCEEDED}
    assert runs[1].request["answerCandidate"] == "Mount Fuji 🗻 last erupted in 1707."


@pytest.mark.django_db(transaction=True)
def test_a_failed_pipeline_is_a_failed_answer(traced):
    rag_pipeline(traced, "When did Fuji erupt?", "chat-3", fail=True)

    assert Answer.objects.get().state == "FAILED"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("prefix", "path"), [("OTEL_EXPORTER_OTLP_TRACES_", "/v1/traces"), ("OTEL_EXPORTER_OTLP_", "")]
)
def test_the_exporter_configured_as_the_readme_says(
    live_server, admin_token, monkeypatch, prefix, path
):
    # The README's settings: the endpoint (or the base URL), and the header URL-encoded.
    monkeypatch.setenv(prefix + "ENDPOINT", live_server.url + path)
    monkeypatch.setenv(prefix + "HEADERS", f"Authorization=Bearer%20{admin_token}")
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter()))

    rag_pipeline(provider.get_tracer("tests"), "When did Fuji erupt?", "chat-4")
    provider.shutdown()

    assert Answer.objects.get().answer_text == ANSWERS["When did Fuji erupt?"]


@pytest.mark.django_db(transaction=True)
def test_the_exporter_is_refused_without_an_admins_token(live_server, reviewer):
    _, reviewer_token = ApiToken.issue(reviewer, "not an admin")
    span = TracerProvider().get_tracer("tests").start_span("rag", attributes={KIND: CHAIN})
    span.end()

    for token in ("gv_wrong", reviewer_token):
        assert exporter_to(live_server, token).export([span]) == SpanExportResult.FAILURE
    assert not Answer.objects.exists()


# --- the protocol, with Django's test client -------------------------------------------------------

TRACE = "5b8efff798038103d269b633813fc60c"


def kv(key, value):
    return {"key": key, "value": {"stringValue": value}}


def json_export(*spans):
    return {"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}


def json_span(trace=TRACE, span_id="eee19b7ec3c1b174", kind=CHAIN, **extra):
    return {
        "traceId": trace,
        "spanId": span_id,
        "name": "rag",
        "startTimeUnixNano": "1700000000000000000",
        "endTimeUnixNano": "1700000000500000000",
        "attributes": [
            kv(KIND, kind),
            kv("input.value", "Wie hoch ist der Fuji? 🗻"),
            kv("output.value", "3776 m."),
        ],
        **extra,
    }


def post(client, body, content_type=JSON, **headers):
    if isinstance(body, dict):
        body = json.dumps(body, ensure_ascii=False).encode()
    return client.post("/v1/traces", data=body, content_type=content_type, **headers)


def protobuf_export(data):
    """The same export as protobuf, built with OTLP's own message classes."""
    data = json.loads(json.dumps(data))
    for resource in data["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        # ParseDict reads bytes as base64.
                        span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    return ParseDict(data, ExportTraceServiceRequest()).SerializeToString()


@pytest.mark.django_db
def test_json_export_answers_an_empty_json_response(admin_client):
    response = post(admin_client, json_export(json_span()))

    assert response.status_code == 200, response.content
    assert response["Content-Type"] == JSON
    assert response.json() == {}
    answer = Answer.objects.get()
    assert (answer.query_text, answer.answer_text) == ("Wie hoch ist der Fuji? 🗻", "3776 m.")


@pytest.mark.django_db
def test_gzipped_protobuf_export_answers_protobuf(admin_client):
    body = gzip.compress(protobuf_export(json_export(json_span())))

    response = post(admin_client, body, PROTOBUF, HTTP_CONTENT_ENCODING="gzip")

    assert response.status_code == 200, response.content
    assert response["Content-Type"] == PROTOBUF
    reply = ExportTraceServiceResponse.FromString(response.content)
    assert not reply.HasField("partial_success")
    assert Answer.objects.get().answer_text == "3776 m."


@pytest.mark.django_db
def test_every_member_of_a_multi_member_gzip_body_is_read(admin_client):
    other = "0af7651916cd43dd8448eb211c80319c"
    first = gzip.compress(protobuf_export(json_export(json_span())))
    second = gzip.compress(protobuf_export(json_export(json_span(trace=other))))

    response = post(admin_client, first + second, PROTOBUF, HTTP_CONTENT_ENCODING="x-gzip")

    assert response.status_code == 200, response.content
    assert Answer.objects.count() == 2


@pytest.mark.django_db
def test_many_empty_gzip_members_and_zero_padding_are_read_quickly(admin_client):
    # 20,000 empty members (20 bytes each), then the trace, then gzip's permitted zero padding:
    # reading them must take time linear in the body (copying the rest per member would not).
    body = gzip.compress(b"") * 20_000 + gzip.compress(protobuf_export(json_export(json_span())))

    response = post(admin_client, body + b"\0" * 512, PROTOBUF, HTTP_CONTENT_ENCODING="gzip")

    assert response.status_code == 200, response.content
    assert Answer.objects.get().answer_text == "3776 m."


@pytest.mark.django_db
def test_a_gzip_body_cut_short_is_refused_whole(admin_client):
    whole = gzip.compress(json.dumps(json_export(json_span())).encode())

    response = post(admin_client, whole[:-8], HTTP_CONTENT_ENCODING="gzip")

    assert response.status_code == 400
    assert rpc_status(response) == (
        3,
        "body: is gzip data cut short (its end and checksum are missing)",
    )
    assert not Answer.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("content_type", [JSON, PROTOBUF])
def test_traces_that_cannot_be_answers_are_a_partial_success(admin_client, content_type):
    # One trace of plain HTTP spans (no OpenInference), one RAG trace.
    plain = json_span(trace="0af7651916cd43dd8448eb211c80319c", attributes=[kv("http.route", "/")])
    plain_child = {**plain, "spanId": "00f067aa0ba902b7", "parentSpanId": plain["spanId"]}
    data = json_export(plain, plain_child, json_span())
    body = protobuf_export(data) if content_type == PROTOBUF else data

    response = post(admin_client, body, content_type)

    assert response.status_code == 200
    if content_type == PROTOBUF:
        partial = ExportTraceServiceResponse.FromString(response.content).partial_success
        rejected, message = partial.rejected_spans, partial.error_message
    else:
        partial = response.json()["partialSuccess"]
        rejected, message = int(partial["rejectedSpans"]), partial["errorMessage"]
    assert rejected == 2
    assert message == (
        "trace 0af7651916cd43dd8448eb211c80319c: none of its 2 span(s) is an OpenInference span "
        "(none has the openinference.span.kind attribute)"
    )
    assert Answer.objects.get().name.endswith(TRACE)


@pytest.mark.django_db
def test_a_malformed_attribute_rejects_its_trace_alone(admin_client):
    bad = {**BAD_JSON_SPAN, "traceId": "0af7651916cd43dd8448eb211c80319c"}

    response = post(admin_client, json_export(bad, json_span()), JSON)

    assert response.status_code == 200
    partial = response.json()["partialSuccess"]
    assert int(partial["rejectedSpans"]) == 1
    assert partial["errorMessage"] == (
        "trace 0af7651916cd43dd8448eb211c80319c: resourceSpans[0].scopeSpans[0].spans[0]"
        ".attributes[1].value.stringValue: must be a string, not a number"
    )
    assert Answer.objects.get().name.endswith(TRACE)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content_type", "value"),
    [(PROTOBUF, "NaN"), (PROTOBUF, "-Infinity"), (JSON, "1.5"), (JSON, "Infinity")],
)
def test_a_double_attribute_written_as_text_is_read(admin_client, content_type, value):
    # protobuf's MessageToDict writes NaN and Infinity as strings; proto3 JSON allows "1.5" too.
    span = json_span(attributes=[*json_span()["attributes"], kv_double("llm.cost", value)])
    data = json_export(span)
    body = protobuf_export(data) if content_type == PROTOBUF else data

    response = post(admin_client, body, content_type)

    assert response.status_code == 200
    assert Answer.objects.count() == 1


def kv_double(key, value):
    return {"key": key, "value": {"doubleValue": value}}


def rpc_status(response):
    if response["Content-Type"] == PROTOBUF:
        status = status_pb2.Status.FromString(response.content)
        return status.code, status.message
    body = response.json()
    return body["code"], body["message"]


BAD_JSON_SPAN = json_span(
    attributes=[kv(KIND, CHAIN), {"key": "input.value", "value": {"stringValue": 3}}]
)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content_type", "body", "status", "code", "message"),
    [
        (JSON, b"{", 400, 3, "body: malformed JSON: Expecting property name"),
        (JSON, b"[]", 400, 3, "body: must be a JSON object (an ExportTraceServiceRequest)"),
        (JSON, b"\xff{}", 400, 3, "body: is not UTF-8 (byte 0)"),
        (
            PROTOBUF,
            protobuf_export(json_export(json_span(traceId="abcd"))),
            400,
            3,
            "resourceSpans[0].scopeSpans[0].spans[0].traceId: must be 32 hex digits (16 bytes)",
        ),
        (PROTOBUF, b"\x0a\xff\xff", 400, 3, "body: is not a protobuf ExportTraceServiceRequest"),
        ("text/plain", b"{}", 415, 3, "body: Content-Type must be application/x-protobuf or"),
    ],
    ids=["json", "not-object", "not-utf8", "protobuf-field", "protobuf", "media-type"],
)
def test_malformed_requests_are_refused_with_an_rpc_status_and_store_nothing(
    admin_client, content_type, body, status, code, message
):
    response = post(admin_client, body, content_type)

    assert response.status_code == status
    assert response["Content-Type"] == (PROTOBUF if content_type == PROTOBUF else JSON)
    got_code, got_message = rpc_status(response)
    assert got_code == code
    assert got_message.startswith(message), got_message
    assert not Answer.objects.exists() and not Session.objects.exists()


@pytest.mark.django_db
def test_oversize_bodies_are_refused_compressed_or_not(admin_client, monkeypatch):
    monkeypatch.setattr("groundview.api.otlp.MAX_BODY_BYTES", 1000)
    big = json_export(json_span(name="x" * 2000))

    plain = post(admin_client, big)
    # A small gzip body that inflates past the limit.
    bomb = post(admin_client, gzip.compress(json.dumps(big).encode()), HTTP_CONTENT_ENCODING="gzip")

    assert (plain.status_code, rpc_status(plain)) == (
        413,
        (8, "body: must be at most 1000 bytes"),
    )
    assert (bomb.status_code, rpc_status(bomb)) == (
        413,
        (8, "body: must be at most 1000 bytes uncompressed"),
    )
    assert not Answer.objects.exists()


@pytest.mark.django_db
def test_unauthenticated_and_non_admin_requests_get_an_rpc_status(anon, reviewer_token):
    body = protobuf_export(json_export(json_span()))

    anonymous = post(anon, body, PROTOBUF)
    reviewer = post(anon, body, PROTOBUF, HTTP_AUTHORIZATION=f"Bearer {reviewer_token}")

    assert anonymous.status_code == 401
    assert anonymous["WWW-Authenticate"].startswith("Bearer")
    assert rpc_status(anonymous)[0] == 16  # UNAUTHENTICATED
    assert (reviewer.status_code, rpc_status(reviewer)) == (403, (7, "Only admins may do this."))
    assert not Answer.objects.exists()
