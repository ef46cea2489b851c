"""An OTLP/HTTP trace receiver at `POST /v1/traces`, OTLP's default path: an OpenTelemetry exporter
pointed at groundview's base URL sends its spans here, and OpenInference traces become answers
(see groundview.answers.formats.otlp).

It speaks OTLP/HTTP: an ExportTraceServiceRequest in protobuf (`application/x-protobuf`) or JSON
(`application/json`), optionally gzip-compressed; the answer is an ExportTraceServiceResponse in the
same encoding, with `partialSuccess` when some traces were rejected, and errors are a
google.rpc.Status in that encoding. Authentication is the API's: `Authorization: Bearer <token>`
of an admin, as for every other import.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from google.protobuf.json_format import MessageToDict
from google.rpc import status_pb2
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse
from rest_framework import serializers
from rest_framework.views import APIView

from groundview.answers.formats import otlp
from groundview.answers.reading import PARSE_ERRORS, loads, parse_failure
from groundview.answers.services import import_traces_and_queue
from groundview.api.base import NulSafeMixin, read_body
from groundview.api.errors import flatten
from groundview.api.permissions import IsAdmin
from groundview.errors import FieldError

PROTOBUF = "application/x-protobuf"
JSON = "application/json"
# A batch of 512 spans (the SDK's default) with a few kilobytes of documents each fits many times.
MAX_BODY_BYTES = 32 * 1024 * 1024
# The partial-success message names this many rejected traces, then counts the rest.
MAX_PROBLEMS_SHOWN = 5

# google.rpc.Code for each HTTP status this view answers with.
RPC_CODES = {400: 3, 401: 16, 403: 7, 404: 5, 405: 12, 413: 8, 415: 3, 429: 8, 500: 13, 503: 14}


class PartialSuccessSerializer(serializers.Serializer):
    rejectedSpans = serializers.CharField(help_text="int64, as OTLP JSON writes it")  # noqa: N815
    errorMessage = serializers.CharField()  # noqa: N815


class ExportTraceResponseSerializer(serializers.Serializer):
    partialSuccess = PartialSuccessSerializer(required=False)  # noqa: N815


class RpcStatusSerializer(serializers.Serializer):
    code = serializers.IntegerField(help_text="google.rpc.Code, e.g. 3 INVALID_ARGUMENT")
    message = serializers.CharField()


def both_encodings(code: int, json_schema, description: str) -> dict:
    """An OTLP response is JSON or protobuf, as the request was."""
    return {
        (code, JSON): OpenApiResponse(json_schema, description=description),
        (code, PROTOBUF): OpenApiResponse(OpenApiTypes.BINARY, description=description),
    }


ERRORS = {
    400: "Malformed request; the message names the field. Nothing is stored.",
    401: "No valid credentials.",
    403: "Not an admin.",
    404: "Not found.",
    413: f"Body over {MAX_BODY_BYTES} bytes (also uncompressed).",
    415: "Neither application/x-protobuf nor application/json (answered in JSON).",
    429: "Too many requests; see Retry-After.",
}


class TracesBodyError(FieldError):
    """The body cannot be read at all; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__("body", message)
        self.status = status


class TracesView(NulSafeMixin, APIView):
    permission_classes = [IsAdmin]

    def perform_content_negotiation(self, request, force=False):
        # OTLP answers in the request's encoding, whatever Accept says.
        return super().perform_content_negotiation(request, force=True)

    def media_type(self) -> str:
        return self.request.content_type.split(";")[0].strip().lower()

    @extend_schema(
        tags=["otlp"],
        operation_id="otlp_traces_export",
        summary="Receive OpenTelemetry traces (OTLP/HTTP)",
        description=(
            "OTLP/HTTP's trace export: an `ExportTraceServiceRequest` as protobuf "
            "(`application/x-protobuf`) or OTLP JSON (`application/json`), optionally with "
            "`Content-Encoding: gzip`. Spans are grouped by trace; each trace with OpenInference "
            "spans becomes one answer (question and answer text from the outermost CHAIN/AGENT "
            "span, RETRIEVER documents as references), merged with spans of the same trace that "
            "came before. Until its root span arrives the answer is `IN_PROGRESS`. Admins only, "
            "like other imports; checks are queued for complete traces when "
            "`GROUNDVIEW_CHECK_ON_IMPORT` is on.\n\n"
            "**200** with an `ExportTraceServiceResponse` in the request's encoding; traces that "
            "could not be turned into answers (an OpenInference attribute of the wrong type "
            "among them) are counted in `partialSuccess`. **400** when the "
            "request is malformed (the message names the field, nothing is stored)."
        ),
        request={JSON: OpenApiTypes.OBJECT, PROTOBUF: OpenApiTypes.BINARY},
        responses={
            **both_encodings(200, ExportTraceResponseSerializer, "ExportTraceServiceResponse"),
            **{
                key: value
                for code, description in ERRORS.items()
                for key, value in both_encodings(code, RpcStatusSerializer, description).items()
            },
        },
    )
    def post(self, request):
        media_type = self.media_type()
        if media_type not in (PROTOBUF, JSON):
            raise TracesBodyError(f"Content-Type must be {PROTOBUF} or {JSON}", status=415)
        body = read_body(request, MAX_BODY_BYTES)
        if len(body) > MAX_BODY_BYTES:
            raise TracesBodyError(f"must be at most {MAX_BODY_BYTES} bytes", status=413)
        encoding = request.headers.get("Content-Encoding", "identity").strip().lower()
        if encoding in ("gzip", "x-gzip"):
            body = gunzip(body)
        elif encoding not in ("", "identity"):
            raise TracesBodyError(f"Content-Encoding {encoding!r} is not supported (use gzip)", 415)
        result = import_traces_and_queue(parse(body, media_type))
        reply = ExportTraceServiceResponse()
        if result.problems:
            reply.partial_success.rejected_spans = result.rejected_spans
            reply.partial_success.error_message = summary(result.problems)
        if media_type == PROTOBUF:
            return HttpResponse(reply.SerializeToString(), content_type=PROTOBUF)
        return json_response(200, MessageToDict(reply))

    def handle_exception(self, exc):
        """Errors as a google.rpc.Status in the request's encoding, as OTLP/HTTP asks."""
        if isinstance(exc, TracesBodyError):
            code, message, headers = exc.status, str(exc), {}
        else:
            response = super().handle_exception(exc)
            code, headers = response.status_code, response.headers
            message = str(exc) if isinstance(exc, FieldError) else "; ".join(flatten(exc.detail))
        status = status_pb2.Status(code=RPC_CODES.get(code, 2), message=message)
        if self.media_type() == PROTOBUF and code != 415:
            reply = HttpResponse(status.SerializeToString(), content_type=PROTOBUF, status=code)
        else:
            reply = json_response(code, {"code": status.code, "message": status.message})
        for header in ("WWW-Authenticate", "Retry-After"):
            if header in headers:
                reply[header] = headers[header]
        return reply


def parse(body: bytes, media_type: str) -> dict:
    if media_type == PROTOBUF:
        try:
            return otlp.from_protobuf(body)
        except ValueError as error:
            raise TracesBodyError(str(error)) from None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise TracesBodyError(f"is not UTF-8 (byte {error.start})") from None
    try:
        data = loads(text)
    except PARSE_ERRORS as error:
        raise TracesBodyError(parse_failure(error)) from None
    if not isinstance(data, dict):
        raise TracesBodyError("must be a JSON object (an ExportTraceServiceRequest)")
    return data


def gunzip(body: bytes) -> bytes:
    """Every member of a gzip body (a file may hold several, one after another), read in time
    linear in its size and bounded so that a small bomb cannot fill the memory; a body cut short
    is an error, not a part import."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(body)) as inflating:
            data = inflating.read(MAX_BODY_BYTES + 1)
    except EOFError:
        raise TracesBodyError("is gzip data cut short (its end and checksum are missing)") from None
    except (OSError, zlib.error) as error:
        raise TracesBodyError(f"is not gzip data ({error})") from None
    if len(data) > MAX_BODY_BYTES:
        raise TracesBodyError(f"must be at most {MAX_BODY_BYTES} bytes uncompressed", status=413)
    return data


def json_response(code: int, data: dict) -> HttpResponse:
    return HttpResponse(json.dumps(data, ensure_ascii=False), content_type=JSON, status=code)


def summary(problems) -> str:
    shown = "; ".join(str(problem) for problem in problems[:MAX_PROBLEMS_SHOWN])
    rest = len(problems) - MAX_PROBLEMS_SHOWN
    return f"{shown}; and {rest} more rejected trace(s)" if rest > 0 else shown
