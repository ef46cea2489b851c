"""OpenInference traces, in OTLP's encodings, mapped onto the Answer shape groundview stores.

An OTLP trace export (`{"resourceSpans": [{"resource", "scopeSpans": [{"scope", "spans"}]}]}`: what
an OTLP/HTTP exporter sends and the OpenTelemetry Collector's file exporter writes, one per line)
holds spans of any number of traces. Spans are grouped by trace id and each trace becomes one
answer, read from its OpenInference attributes:

- the question and the answer text come from the outermost OpenInference span (the CHAIN or AGENT
  span around the pipeline): its `input.value` and `output.value`, the text inside when the mime
  type says JSON. Failing those, from a RETRIEVER's `input.value`, an LLM's last user message and
  the last LLM's `llm.output_messages`.
- every RETRIEVER span's `retrieval.documents.N.document.*` becomes a `chunkInfo` reference, in
  the order the retrievers started: content, id (as the document), score (as relevanceScore),
  metadata (a JSON object, as structData; its title and uri fill the document's).
- `session.id` names the session (without one, the trace is a session of its own); `user.id` is
  the session's userPseudoId.

The trace's spans are kept in the answer's `groundviewSource` extension field as OTLP JSON, each
exactly as read, under its resource and scope. Nothing of the trace is lost, and spans of the same
trace that arrive later (exporters send batches, and a root span ends last) are merged with them.
Until the trace's root span (one without a parent) has arrived, the answer is IN_PROGRESS.

Validation is of the shape OTLP JSON allows (ids in hex, int64 as strings or numbers, attribute
values as AnyValue objects) and of the OpenInference attributes read above; a problem is a
RecordError naming its path, e.g. `resourceSpans[0].scopeSpans[0].spans[3].attributes[5].value`.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from groundview.answers.formats.rows import EXTENSION, PROJECT, digest
from groundview.answers.schema import RecordError, as_int64, describe, join

FORMAT = "openinference"
ENGINE = f"{PROJECT}/engines/{FORMAT}"
# A trace of more spans is refused: its answer document would keep every one of them.
MAX_SPANS_PER_TRACE = 2000
# AnyValue nests (arrays of key-value lists); OpenInference flattens everything it writes.
MAX_VALUE_DEPTH = 32

STATUS_ERROR = 2
STATUS_CODES = {"STATUS_CODE_UNSET": 0, "STATUS_CODE_OK": 1, "STATUS_CODE_ERROR": 2}

ANY_VALUE_KINDS = (
    "stringValue",
    "boolValue",
    "intValue",
    "doubleValue",
    "arrayValue",
    "kvlistValue",
    "bytesValue",
)
# Keys under which a JSON input or output usually holds the text itself (LangChain, LlamaIndex).
TEXT_KEYS = ("answer", "output", "response", "result", "question", "query", "input", "text")
# Kinds that are a step of a pipeline, never the whole of it: when the outermost span of a trace
# (so far) is one of these, the question and answer are read from the steps instead.
STEP_KINDS = ("LLM", "RETRIEVER", "EMBEDDING", "RERANKER")
SESSION_SEGMENT = re.compile(r"[A-Za-z0-9._~-]{1,100}\Z")
HEX = re.compile(r"[0-9a-fA-F]+\Z")
DOCUMENT = re.compile(r"retrieval\.documents\.(\d+)\.document\.(\w+)\Z")
MESSAGE = re.compile(r"llm\.(input|output)_messages\.(\d+)\.message\.(role|content)\Z")

# The types OpenInference gives the attributes read here; others are kept, never read.
STRING_ATTRIBUTES = (
    "openinference.span.kind",
    "input.value",
    "input.mime_type",
    "output.value",
    "output.mime_type",
)
ID_ATTRIBUTES = ("session.id", "user.id")


@dataclass
class Span:
    """One span: the OTLP JSON it was read from, where, and the attributes groundview reads."""

    trace_id: str  # lowercase hex, 32 digits
    span_id: str  # lowercase hex, 16 digits
    parent_id: str  # "" for a root span
    start: int  # Unix nanoseconds; 0 when not given
    end: int
    status_code: int
    attributes: dict[str, Any]
    raw: dict[str, Any]
    resource: dict[str, Any] = field(default_factory=dict)  # its resourceSpans entry, less spans
    scope: dict[str, Any] = field(default_factory=dict)  # its scopeSpans entry, less spans
    # Well-formed OTLP whose OpenInference attributes have the wrong types: its trace is
    # rejected, the other traces of the export are not.
    problem: RecordError | None = None

    @property
    def kind(self) -> str:
        return self.attributes.get("openinference.span.kind", "")


# --- reading ------------------------------------------------------------------------------------


def is_export(data: Any) -> bool:
    """An OTLP trace export rather than a Vertex document or a Ragas/DeepEval row."""
    return isinstance(data, dict) and ("resourceSpans" in data or "resource_spans" in data)


def get(data: dict[str, Any], name: str, path: str) -> tuple[Any, str]:
    """A field by its lowerCamelCase name or its proto name (OTLP JSON readers accept both)."""
    snake = re.sub(r"([A-Z])", r"_\1", name).lower()
    for key in (name, snake):
        if key in data:
            return data[key], join(path, key)
    return None, join(path, name)


def need_object(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(path, f"must be an object, not {describe(value)}")
    return value


def need_array(value: Any, path: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise RecordError(path, f"must be an array, not {describe(value)}")
    return value


def without(data: dict[str, Any], name: str) -> dict[str, Any]:
    snake = re.sub(r"([A-Z])", r"_\1", name).lower()
    return {key: value for key, value in data.items() if key not in (name, snake)}


def _check_attributes_of(container: dict[str, Any], key: str, path: str) -> None:
    """Validate the attributes of an optional `resource` or `scope` object (kept as sent)."""
    value, field_path = get(container, key, path)
    if value is not None:
        attributes, attributes_path = get(need_object(value, field_path), "attributes", field_path)
        read_attributes(attributes, attributes_path)


def read_export(data: Any, path: str = "") -> list[Span]:
    """Every span of an OTLP JSON trace export, checked; RecordError names the first problem of
    its shape. A span whose attributes are malformed, or whose OpenInference attributes have the
    wrong types, carries its problem (`Span.problem`) for the import to reject its trace alone."""
    data = need_object(data, path)
    value, resource_path = get(data, "resourceSpans", path)
    spans = []
    for i, resource_spans in enumerate(need_array(value, resource_path)):
        rs_path = join(resource_path, i)
        resource_spans = need_object(resource_spans, rs_path)
        _check_attributes_of(resource_spans, "resource", rs_path)
        scope_value, scope_list_path = get(resource_spans, "scopeSpans", rs_path)
        for j, scope_spans in enumerate(need_array(scope_value, scope_list_path)):
            ss_path = join(scope_list_path, j)
            scope_spans = need_object(scope_spans, ss_path)
            _check_attributes_of(scope_spans, "scope", ss_path)
            span_value, span_list_path = get(scope_spans, "spans", ss_path)
            for k, raw in enumerate(need_array(span_value, span_list_path)):
                span = read_span(raw, join(span_list_path, k))
                span.resource = without(resource_spans, "scopeSpans")
                span.scope = without(scope_spans, "spans")
                spans.append(span)
    return spans


def read_span(raw: Any, path: str) -> Span:
    raw = need_object(raw, path)
    trace_id = read_id(raw, "traceId", 16, path, required=True)
    span_id = read_id(raw, "spanId", 8, path, required=True)
    parent_id = read_id(raw, "parentSpanId", 8, path, required=False)
    name, name_path = get(raw, "name", path)
    if name is not None and not isinstance(name, str):
        raise RecordError(name_path, f"must be a string, not {describe(name)}")
    start = read_time(raw, "startTimeUnixNano", path)
    end = read_time(raw, "endTimeUnixNano", path)
    for key in ("events", "links"):
        need_array(*get(raw, key, path))
    value, attributes_path = get(raw, "attributes", path)
    attributes: dict[str, Any] = {}
    problem = None
    try:
        # An attribute is the trace's business: a bad one rejects its trace, not the export.
        attributes = read_attributes(value, attributes_path)
        check_openinference(attributes, need_array(value, attributes_path), attributes_path)
    except RecordError as error:
        problem = error
    return Span(
        trace_id=trace_id,
        span_id=span_id,
        parent_id=parent_id,
        start=start,
        end=end,
        status_code=read_status(raw, path),
        attributes=attributes,
        raw=raw,
        problem=problem,
    )


def read_id(raw: dict[str, Any], name: str, size: int, path: str, *, required: bool) -> str:
    value, id_path = get(raw, name, path)
    if value is None or value == "":
        if required:
            raise RecordError(id_path, "is required")
        return ""
    if not isinstance(value, str):
        raise RecordError(
            id_path, f"must be a string of {size * 2} hex digits, not {describe(value)}"
        )
    if len(value) == size * 2 and HEX.match(value):
        hex_id = value.lower()
    else:
        # OTLP JSON writes ids in hex; a generic protobuf JSON writer uses base64. Take both.
        try:
            decoded = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            decoded = b""
        if len(decoded) != size:
            raise RecordError(
                id_path, f"must be {size * 2} hex digits ({size} bytes), not {value!r:.60}"
            )
        hex_id = decoded.hex()
    if hex_id == "0" * (size * 2):
        raise RecordError(id_path, "must not be all zeros (that means no id in OTLP)")
    return hex_id


def read_time(raw: dict[str, Any], name: str, path: str) -> int:
    value, time_path = get(raw, name, path)
    if value is None:
        return 0
    number = as_int64(value, time_path)
    if not 0 <= number < 2**64:
        raise RecordError(time_path, f"must be nanoseconds since 1970 (0 to 2^64-1), not {number}")
    return number


def read_status(raw: dict[str, Any], path: str) -> int:
    status, status_path = get(raw, "status", path)
    if status is None:
        return 0
    status = need_object(status, status_path)
    code, code_path = get(status, "code", status_path)
    message, message_path = get(status, "message", status_path)
    if message is not None and not isinstance(message, str):
        raise RecordError(message_path, f"must be a string, not {describe(message)}")
    if code is None:
        return 0
    if isinstance(code, str) and code in STATUS_CODES:
        return STATUS_CODES[code]
    if isinstance(code, int) and not isinstance(code, bool):
        return code
    raise RecordError(code_path, f"must be a status code (0, 1, 2 or its name), not {code!r:.60}")


def read_attributes(value: Any, path: str) -> dict[str, Any]:
    """A list of OTLP KeyValues as {key: plain value}."""
    attributes: dict[str, Any] = {}
    for index, item in enumerate(need_array(value, path)):
        item_path = join(path, index)
        item = need_object(item, item_path)
        key, key_path = get(item, "key", item_path)
        if not isinstance(key, str):
            raise RecordError(key_path, f"must be a string, not {describe(key)}")
        if key in attributes:
            raise RecordError(key_path, f"{key!r} is given twice")
        attributes[key] = any_value(item.get("value"), join(item_path, "value"), 0)
    return attributes


def any_value(value: Any, path: str, depth: int) -> Any:
    """An OTLP AnyValue (`{"stringValue": "x"}`, `{"arrayValue": {"values": [...]}}`, ...) as
    plain JSON: bytes stay base64 text, an empty AnyValue is None."""
    if value is None:
        return None
    if depth > MAX_VALUE_DEPTH:
        raise RecordError(path, f"is nested more than {MAX_VALUE_DEPTH} levels deep")
    value = need_object(value, path)
    given = [(name, *get(value, name, path)) for name in ANY_VALUE_KINDS]
    given = [(name, item, item_path) for name, item, item_path in given if item is not None]
    if not given:
        return None
    if len(given) > 1:
        names = ", ".join(name for name, _, _ in given)
        raise RecordError(path, f"must hold one value, not several ({names})")
    kind, item, item_path = given[0]
    if kind in ("stringValue", "bytesValue"):
        if not isinstance(item, str):
            raise RecordError(item_path, f"must be a string, not {describe(item)}")
        return item
    if kind == "boolValue":
        if not isinstance(item, bool):
            raise RecordError(item_path, f"must be a boolean, not {describe(item)}")
        return item
    if kind == "intValue":
        return as_int64(item, item_path)
    if kind == "doubleValue":
        return double_value(item, item_path)
    values, values_path = get(need_object(item, item_path), "values", item_path)
    values = need_array(values, values_path)
    if kind == "arrayValue":
        return [any_value(v, join(values_path, i), depth + 1) for i, v in enumerate(values)]
    result = {}
    for index, pair in enumerate(values):
        pair_path = join(values_path, index)
        pair = need_object(pair, pair_path)
        key, key_path = get(pair, "key", pair_path)
        if not isinstance(key, str):
            raise RecordError(key_path, f"must be a string, not {describe(key)}")
        result[key] = any_value(pair.get("value"), join(pair_path, "value"), depth + 1)
    return result


def double_value(item: Any, path: str) -> float | int | str:
    """proto3 JSON writes a double as a number or as a string: "1.5", and "NaN", "Infinity" or
    "-Infinity", which protobuf's own MessageToDict writes and a JSON column cannot hold as a
    number, so those stay text."""
    if isinstance(item, int | float) and not isinstance(item, bool):
        return item
    if isinstance(item, str):
        if item in ("NaN", "Infinity", "-Infinity"):
            return item
        try:
            number = float(item)
        except ValueError:
            pass
        else:
            if math.isfinite(number):
                return number
    raise RecordError(path, f"must be a number, not {describe(item)}")


def check_openinference(attributes: dict[str, Any], items: list[Any], path: str) -> None:
    """The OpenInference attributes groundview reads must have the types the conventions give."""
    position = {item["key"]: index for index, item in enumerate(items)}

    def fail(key: str, expected: str) -> None:
        where = join(join(path, position[key]), "value")
        raise RecordError(where, f"{key} must be {expected}, not {describe(attributes[key])}")

    for key, value in attributes.items():
        if value is None:
            continue
        if key in STRING_ATTRIBUTES:
            if not isinstance(value, str):
                fail(key, "a string")
        elif key in ID_ATTRIBUTES:
            if isinstance(value, bool) or not isinstance(value, str | int):
                fail(key, "a string")
        elif match := DOCUMENT.match(key):
            part = match[2]
            if part in ("content", "name", "url", "mime_type") and not isinstance(value, str):
                fail(key, "a string")
            if part == "id" and (isinstance(value, bool) or not isinstance(value, str | int)):
                fail(key, "a string")
            if part == "score" and (isinstance(value, bool) or not isinstance(value, int | float)):
                fail(key, "a number")
            if part == "metadata":
                if isinstance(value, str):
                    try:
                        json.loads(value)
                    except (ValueError, RecursionError):
                        fail(key, "JSON text (OpenInference writes metadata with json.dumps)")
                elif not isinstance(value, dict):
                    fail(key, "JSON text")
        elif MESSAGE.match(key) and not isinstance(value, str):
            fail(key, "a string")


def from_protobuf(body: bytes) -> dict[str, Any]:
    """An ExportTraceServiceRequest in protobuf, as the OTLP JSON that read_export reads.

    ValueError when the bytes are not one.
    """
    from google.protobuf.json_format import MessageToDict
    from google.protobuf.message import DecodeError
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    request = ExportTraceServiceRequest()
    try:
        request.ParseFromString(body)
    except (DecodeError, RecursionError) as error:
        raise ValueError(f"is not a protobuf ExportTraceServiceRequest ({error})") from None
    data = MessageToDict(request, use_integers_for_enums=True)
    # The proto3 JSON mapping writes bytes in base64; OTLP JSON writes trace and span ids in hex.
    for resource_spans in data.get("resourceSpans", []):
        for scope_spans in resource_spans.get("scopeSpans", []):
            for span in scope_spans.get("spans", []):
                hex_ids(span)
                for link in span.get("links", []):
                    hex_ids(link)
    return data


def hex_ids(data: dict[str, Any]) -> None:
    for key in ("traceId", "spanId", "parentSpanId"):
        if key in data:
            data[key] = base64.b64decode(data[key]).hex()


# --- traces -------------------------------------------------------------------------------------


def by_trace(spans: Iterable[Span]) -> dict[str, list[Span]]:
    traces: dict[str, list[Span]] = {}
    for span in spans:
        traces.setdefault(span.trace_id, []).append(span)
    return traces


def merge(stored: list[Span], new: list[Span]) -> list[Span]:
    """The spans of both, one per span id, in the order they arrived (a span sent again replaces
    the one kept, in its place), so that importing the same spans again changes nothing."""
    spans = {span.span_id: span for span in stored}
    spans.update((span.span_id, span) for span in new)
    return list(spans.values())


def stored_spans(answer: dict[str, Any]) -> list[Span]:
    """The spans an answer made from a trace keeps; [] for any other answer."""
    source = answer.get(EXTENSION)
    if not isinstance(source, dict) or source.get("format") != FORMAT:
        return []
    return read_export({"resourceSpans": source.get("resourceSpans", [])})


def session_key(spans: list[Span], trace_id: str) -> str:
    """The session segment of the trace's names: the first-started span's `session.id`."""
    for span in sorted(spans, key=lambda span: (span.start, span.span_id)):
        value = span.attributes.get("session.id")
        if value is not None and value != "":
            text = str(value)
            return text if SESSION_SEGMENT.match(text) else digest(FORMAT, text)
    return trace_id


def answer_name(trace_id: str, session: str) -> str:
    return f"{ENGINE}/sessions/{session}/answers/{trace_id}"


def possible_names(trace_id: str, spans: list[Span]) -> list[str]:
    """Where an earlier part of this trace may be stored: under the session these spans name, or
    under the trace's own session if the spans that came first named none."""
    return list(
        dict.fromkeys(
            [answer_name(trace_id, session_key(spans, trace_id)), answer_name(trace_id, trace_id)]
        )
    )


def lone_session_name(trace_id: str) -> str:
    return f"{ENGINE}/sessions/{trace_id}"


def to_answer_response(trace_id: str, spans: list[Span]) -> dict[str, Any]:
    """The `{answer, session}` record a trace stands for; its spans are kept in the order given."""
    if len(spans) > MAX_SPANS_PER_TRACE:
        raise RecordError(
            "", f"has {len(spans)} spans; at most {MAX_SPANS_PER_TRACE} are kept per trace"
        )
    if not any(span.kind for span in spans):
        raise RecordError(
            "",
            f"none of its {len(spans)} span(s) is an OpenInference span "
            "(none has the openinference.span.kind attribute)",
        )
    by_start = sorted(spans, key=lambda span: (span.start, span.span_id))
    traced = [span for span in by_start if span.kind]
    top = outermost(by_start, traced)
    complete = any(not span.parent_id for span in spans)
    if complete and top.status_code == STATUS_ERROR:
        state = "FAILED"
    else:
        state = "SUCCEEDED" if complete else "IN_PROGRESS"
    session = session_key(spans, trace_id)
    name = answer_name(trace_id, session)
    answer: dict[str, Any] = {
        "name": name,
        "state": state,
        "answerText": answer_text(top, traced),
        "references": [
            reference(document)
            for span in traced
            if span.kind == "RETRIEVER"
            for document in documents(span)
        ],
    }
    if top.start:
        answer["createTime"] = rfc3339(top.start)
    if complete and top.end:
        answer["completeTime"] = rfc3339(top.end)
    answer[EXTENSION] = {"format": FORMAT, "id": trace_id, "resourceSpans": export_of(spans)}
    session_raw: dict[str, Any] = {
        "name": f"{ENGINE}/sessions/{session}",
        "turns": [{"query": {"text": question(top, traced)}, "answer": name}],
    }
    user = next((s.attributes["user.id"] for s in spans if s.attributes.get("user.id")), None)
    if user is not None:
        session_raw["userPseudoId"] = str(user)
    return {"answer": answer, "session": session_raw}


def outermost(spans: list[Span], traced: list[Span]) -> Span:
    """The first-started OpenInference span with no OpenInference span above it."""
    by_id = {span.span_id: span for span in spans}
    for span in traced:
        if not has_traced_ancestor(span, by_id):
            return span
    return traced[0]


def has_traced_ancestor(span: Span, by_id: dict[str, Span]) -> bool:
    # Spans in between may be another library's (an HTTP server span): look past them. The seen
    # set stops a hostile file whose parents go round in a circle.
    seen = {span.span_id}
    parent = by_id.get(span.parent_id)
    while parent is not None and parent.span_id not in seen:
        if parent.kind:
            return True
        seen.add(parent.span_id)
        parent = by_id.get(parent.parent_id)
    return False


def plain_text(span: Span, which: str) -> str:
    """`input.value` or `output.value`; for JSON, the text it holds under a usual key."""
    value = span.attributes.get(f"{which}.value")
    if not isinstance(value, str):
        return ""
    if span.attributes.get(f"{which}.mime_type") != "application/json":
        return value
    try:
        data = json.loads(value)
    except (ValueError, RecursionError):
        return value
    if isinstance(data, str):
        return data
    if isinstance(data, dict):
        for key in TEXT_KEYS:
            if isinstance(data.get(key), str):
                return data[key]
    return value


def messages(span: Span, direction: str) -> list[dict[str, str]]:
    found: dict[int, dict[str, str]] = {}
    for key, value in span.attributes.items():
        match = MESSAGE.match(key)
        if match and match[1] == direction and isinstance(value, str):
            found.setdefault(int(match[2]), {})[match[3]] = value
    return [found[index] for index in sorted(found)]


def question(top: Span, traced: list[Span]) -> str:
    if top.kind not in STEP_KINDS and (text := plain_text(top, "input")):
        return text
    for span in traced:
        if span.kind == "RETRIEVER" and (text := plain_text(span, "input")):
            return text
    for span in traced:
        if span.kind == "LLM":
            asked = [m["content"] for m in messages(span, "input") if m.get("role") == "user"]
            if asked and asked[-1]:
                return asked[-1]
    return ""


def answer_text(top: Span, traced: list[Span]) -> str:
    if top.kind not in STEP_KINDS and (text := plain_text(top, "output")):
        return text
    llms = sorted(
        (span for span in traced if span.kind == "LLM"), key=lambda span: (span.end, span.start)
    )
    for span in reversed(llms):
        said = [m.get("content", "") for m in messages(span, "output")]
        if said and said[-1]:
            return said[-1]
        if text := plain_text(span, "output"):
            return text
    return ""


def documents(span: Span) -> list[dict[str, Any]]:
    found: dict[int, dict[str, Any]] = {}
    for key, value in span.attributes.items():
        match = DOCUMENT.match(key)
        if match and value is not None:
            found.setdefault(int(match[1]), {})[match[2]] = value
    return [found[index] for index in sorted(found)]


def reference(document: dict[str, Any]) -> dict[str, Any]:
    chunk: dict[str, Any] = {"content": document.get("content", "")}
    if "score" in document:
        chunk["relevanceScore"] = document["score"]
    metadata: dict[str, Any] = {}
    if document.get("id") not in (None, ""):
        metadata["document"] = str(document["id"])
    struct = document.get("metadata")
    if isinstance(struct, str):
        struct = json.loads(struct)
    if struct is not None and not isinstance(struct, dict):
        struct = {"metadata": struct}
    struct = struct or {}
    title = document.get("name") or struct.get("title")
    # LangChain's loaders put the page's address (or a file's path) in metadata["source"].
    source = struct.get("source")
    linked = source if isinstance(source, str) and "://" in source else None
    uri = document.get("url") or struct.get("uri") or struct.get("url") or linked
    if isinstance(uri, str) and uri:
        metadata["uri"] = uri
    if isinstance(title, str) and title:
        metadata["title"] = title
    if struct:
        metadata["structData"] = struct
    if metadata:
        chunk["documentMetadata"] = metadata
    return {"chunkInfo": chunk}


def rfc3339(nanoseconds: int) -> str:
    seconds, fraction = divmod(nanoseconds, 10**9)
    moment = datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S")
    return f"{moment}.{fraction:09d}Z" if fraction else f"{moment}Z"


def export_of(spans: list[Span]) -> list[dict[str, Any]]:
    """The spans as OTLP JSON `resourceSpans`, each span under the resource and scope it came with."""
    groups: dict[str, dict[str, Any]] = {}
    scopes: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for span in spans:
        resource_key = canonical(span.resource)
        scope_key = canonical(span.scope)
        if resource_key not in groups:
            groups[resource_key] = {**span.resource, "scopeSpans": []}
        if (resource_key, scope_key) not in scopes:
            entry = {**span.scope, "spans": []}
            groups[resource_key]["scopeSpans"].append(entry)
            scopes[resource_key, scope_key] = entry["spans"]
        scopes[resource_key, scope_key].append(span.raw)
    return list(groups.values())


def canonical(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)
