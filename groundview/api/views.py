"""The REST API under /api/. Views only translate: they validate input, call the services and
selectors, and shape their answers. A FieldError a service raises becomes a 400 naming the field in
`groundview.api.errors`, so views do not catch it."""

from __future__ import annotations

from django.db.models import Count, F, Q
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, mixins, status, viewsets
from rest_framework.exceptions import APIException, NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from groundview.answers import checks
from groundview.answers.exporting import answer_jsonl
from groundview.answers.models import Answer, CheckBatch, CheckRun, Session
from groundview.answers.queries import count_of
from groundview.answers.services import import_and_queue
from groundview.api import exports
from groundview.api.base import PAGES, NulSafeMixin, read_body
from groundview.api.filters import (
    ANSWER_FILTER_PARAMETERS,
    LABEL_FILTER_PARAMETERS,
    RUN_FILTER_PARAMETERS,
)
from groundview.api.pagination import Cursor, KeysetCursor, NameCursor
from groundview.api.permissions import IsReviewer, ReviewerReadsAdminWrites
from groundview.api.serializers import (
    AnswerDetailSerializer,
    AnswerSerializer,
    BatchCreateSerializer,
    BatchDetailSerializer,
    BatchSerializer,
    CheckRunDetailSerializer,
    CheckRunSerializer,
    ImportResultSerializer,
    LabelSerializer,
    SessionDetailSerializer,
    SessionSerializer,
)
from groundview.errors import FieldError
from groundview.review import label_export, services
from groundview.review.filters import (
    ANSWER_FILTERS,
    LABEL_FILTERS,
    RUN_FILTERS,
    answer_sort,
    filter_answers,
    filter_labels,
    filter_runs,
)
from groundview.review.models import AnswerLabel
from groundview.review.verdicts import ClaimVerdict

# Import bodies are read from the stream with this cap instead of Django's 2.5 MB form limit.
IMPORT_MAX_BYTES = 64 * 1024 * 1024


# --- sessions -----------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(summary="List sessions"),
    retrieve=extend_schema(
        summary="Get a session",
        description="`document` is the Vertex Session as imported (null if only implied).",
        responses=SessionDetailSerializer,
    ),
)
class SessionViewSet(NulSafeMixin, viewsets.ReadOnlyModelViewSet):
    pagination_class = NameCursor
    query_keys = PAGES
    lookup_value_regex = "[0-9]+"

    def get_serializer_class(self):
        return SessionDetailSerializer if self.action == "retrieve" else SessionSerializer

    def get_queryset(self):
        queryset = Session.objects.annotate(answer_count=count_of(Answer, "session"))
        return queryset if self.action == "retrieve" else queryset.defer("raw")


# --- answers ------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="List answers",
        description="Filters are those of the review UI's answer list. Cursor-paginated.",
        parameters=ANSWER_FILTER_PARAMETERS,
    ),
    retrieve=extend_schema(
        summary="Get an answer",
        description="`document` is the Vertex Answer as stored, in its REST form.",
        responses=AnswerDetailSerializer,
    ),
    destroy=extend_schema(summary="Delete an answer (admins)"),
)
class AnswerViewSet(
    NulSafeMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    permission_classes = [ReviewerReadsAdminWrites]
    pagination_class = KeysetCursor
    query_keys = (*ANSWER_FILTERS, *PAGES)
    lookup_value_regex = "[0-9]+"
    sort_field, sort_descending = answer_sort({})

    def get_serializer_class(self):
        return AnswerDetailSerializer if self.action == "retrieve" else AnswerSerializer

    def get_queryset(self):
        queryset = Answer.objects.select_related("session", "latest_check").annotate(
            label_count=count_of(AnswerLabel, "answer")
        )
        if self.action != "retrieve":
            # The document is only part of the detail; lists stay light.
            queryset = queryset.defer("raw")
        if self.action == "list":
            params = self.request.query_params
            queryset = filter_answers(queryset, params, strict=True)
            self.sort_field, self.sort_descending = answer_sort(params)
        return queryset

    @extend_schema(
        summary="Import answers (admins)",
        description=(
            "The body is Vertex JSON in any shape `manage.py import_answers` accepts: an Answer "
            "(any proto3 JSON form: camelCase or snake_case names, enum names or numbers), the "
            "`:answer` method's response (`{answer, session}`), a JSON array of those, or JSON Lines; "
            "or Ragas / DeepEval rows as JSON, JSON Lines or, with `Content-Type: text/csv`, CSV. "
            "Records are keyed by `name`: re-importing updates, never duplicates. Each record is "
            "validated whole with the import command's rules and messages.\n\n"
            "Status: **200** when at least one record was imported (created, updated or unchanged); "
            "records that were rejected are listed in `problems` with the record and field path. "
            "**400** when nothing was imported (every record rejected, or an empty body); the same "
            "body shape then lists every problem."
        ),
        request={
            "application/json": OpenApiTypes.ANY,
            "application/x-ndjson": OpenApiTypes.STR,
            "text/csv": OpenApiTypes.STR,
        },
        responses={200: ImportResultSerializer, 400: ImportResultSerializer},
    )
    def create(self, request, *args, **kwargs):
        body = read_body(request, IMPORT_MAX_BYTES)
        if len(body) > IMPORT_MAX_BYTES:
            raise FieldError("body", f"must be at most {IMPORT_MAX_BYTES} bytes; split the import")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as error:
            raise FieldError("body", f"is not UTF-8 (byte {error.start})") from None
        # Ragas and DeepEval rows may come as CSV; everything else is JSON or JSON Lines.
        is_csv = request.content_type.split(";")[0].strip().lower() == "text/csv"
        result = import_and_queue(text, csv=is_csv)
        data = {
            "created": result.created,
            "updated": result.updated,
            "unchanged": result.unchanged,
            "rejected": result.rejected,
            "problems": [
                {"record": p.record, "field": p.field, "message": p.message}
                for p in result.problems
            ],
            "summary": result.summary() if text.strip() else "empty body: nothing to import",
        }
        code = status.HTTP_200_OK if result.imported else status.HTTP_400_BAD_REQUEST
        return Response(ImportResultSerializer(data).data, status=code)


class AnswerChecksView(NulSafeMixin, generics.ListAPIView):
    serializer_class = CheckRunSerializer
    pagination_class = Cursor
    query_keys = PAGES

    def get_answer(self) -> Answer:
        return get_object_or_404(Answer.objects.only("pk", "name"), pk=self.kwargs["pk"])

    def get_queryset(self):
        answer = self.get_answer()
        return (
            CheckRun.objects.filter(answer=answer)
            .defer("request", "response")
            .annotate(answer_name=F("answer__name"))
        )

    @extend_schema(summary="List an answer's grounding-check runs")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Queue a grounding check of an answer",
        description=(
            "Queues one run (a Celery job) and answers 202; poll `/api/checks/{id}` for its "
            "result. If a run of this answer is still queued or running, that run is returned "
            "with 200 instead of queueing another, as the review page's re-run button does."
        ),
        request=None,
        responses={202: CheckRunSerializer, 200: CheckRunSerializer},
    )
    def post(self, request, *args, **kwargs):
        answer = self.get_answer()
        run, created = checks.join_or_queue_check(answer)
        run = CheckRun.objects.annotate(answer_name=F("answer__name")).get(pk=run.pk)
        code = status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK
        return Response(CheckRunSerializer(run).data, status=code)


# --- check runs and batches -----------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(summary="List grounding-check runs", parameters=RUN_FILTER_PARAMETERS),
    retrieve=extend_schema(summary="Get a grounding-check run, with its request and response"),
)
class CheckRunViewSet(NulSafeMixin, viewsets.ReadOnlyModelViewSet):
    pagination_class = Cursor
    query_keys = (*RUN_FILTERS, *PAGES)
    lookup_value_regex = "[0-9]+"

    def get_serializer_class(self):
        return CheckRunDetailSerializer if self.action == "retrieve" else CheckRunSerializer

    def get_queryset(self):
        queryset = CheckRun.objects.annotate(answer_name=F("answer__name"))
        if self.action == "list":
            queryset = filter_runs(queryset.defer("request", "response"), self.request.query_params)
        return queryset


def progress_of(batch: CheckBatch) -> dict:
    progress = checks.batch_progress(batch)
    return {
        "total": progress.total,
        "queued": progress.queued,
        "running": progress.running,
        "succeeded": progress.succeeded,
        "failed": progress.failed,
        "failures": [
            {"run_id": run_id, "answer_name": name, "error": error}
            for run_id, name, error in progress.failures
        ],
    }


def count_status(value: str) -> Count:
    return Count("runs", filter=Q(runs__status=value))


@extend_schema_view(
    list=extend_schema(summary="List check batches with their counts"),
    retrieve=extend_schema(summary="Get a batch's progress, with each failure's error"),
)
class BatchViewSet(
    NulSafeMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    permission_classes = [ReviewerReadsAdminWrites]
    pagination_class = Cursor
    query_keys = PAGES
    lookup_value_regex = "[0-9]+"

    def get_serializer_class(self):
        if self.action == "list":
            return BatchSerializer
        if self.action == "create":
            return BatchCreateSerializer
        return BatchDetailSerializer

    def get_queryset(self):
        queryset = CheckBatch.objects.select_related("created_by")
        if self.action == "list":
            queryset = queryset.annotate(
                total=Count("runs"),
                queued=count_status(CheckRun.Status.QUEUED),
                running=count_status(CheckRun.Status.RUNNING),
                succeeded=count_status(CheckRun.Status.SUCCEEDED),
                failed=count_status(CheckRun.Status.FAILED),
            )
        return queryset

    def retrieve(self, request, *args, **kwargs):
        batch = self.get_object()
        batch.progress = progress_of(batch)
        return Response(BatchDetailSerializer(batch).data)

    @extend_schema(
        summary="Queue grounding checks of many answers (admins)",
        description=(
            "Give `answer_ids`, or `filters` with the answer-list filters ({} = every answer). "
            "Returns the batch; poll `/api/batches/{id}` for its progress."
        ),
        request=BatchCreateSerializer,
        responses={201: BatchDetailSerializer},
    )
    def create(self, request, *args, **kwargs):
        serializer = BatchCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        batch = services.queue_batch(
            answer_ids=data.get("answer_ids"),
            filters=data.get("filters"),
            created_by=request.user,
            description=data.get("description", ""),
        )
        batch.progress = progress_of(batch)
        return Response(BatchDetailSerializer(batch).data, status=status.HTTP_201_CREATED)


# --- labels -------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(summary="List review labels", parameters=LABEL_FILTER_PARAMETERS),
    retrieve=extend_schema(summary="Get a review label"),
)
class LabelViewSet(
    NulSafeMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = LabelSerializer
    pagination_class = Cursor
    query_keys = (*LABEL_FILTERS, *PAGES)
    permission_classes = [IsReviewer]
    lookup_value_regex = "[0-9]+"

    def get_queryset(self):
        queryset = (
            AnswerLabel.objects.select_related("reviewer")
            .annotate(answer_name=F("answer__name"))
            .prefetch_related("claims")
        )
        if self.action == "list":
            queryset = filter_labels(queryset, self.request.query_params)
        return queryset

    @extend_schema(
        summary="Label an answer",
        description=(
            "Saves the signed-in reviewer's label of an answer: an answer-level verdict and one "
            "verdict per claim, identified by its UTF-8 byte span. Saving again replaces the "
            "reviewer's earlier label of that answer (201 when new, 200 when replaced)."
        ),
        responses={201: LabelSerializer, 200: LabelSerializer},
    )
    def create(self, request, *args, **kwargs):
        serializer = LabelSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        claims = [
            ClaimVerdict(
                start_index=claim["start_index"],
                end_index=claim["end_index"],
                verdict=claim["verdict"],
                corrected_citations=tuple(claim.get("corrected_citations", ())),
                note=claim.get("note", ""),
            )
            for claim in data.get("claims", [])
        ]
        label, created = services.label_answer(
            data["answer_id"],
            request.user,
            verdict=data.get("verdict", ""),
            note=data.get("note", ""),
            claims=claims,
            shown_text_sha256=data.get("answer_text_sha256"),
            text_field="answer_text_sha256",
        )
        label = self.get_queryset().get(pk=label.pk)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(LabelSerializer(label).data, status=code)


# --- exports ------------------------------------------------------------------------------------


def streamed(lines, content_type: str, filename: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def export_schema(summary: str, media_type: str, parameters) -> dict:
    return {
        "summary": summary,
        "parameters": parameters,
        "responses": {
            (200, media_type): OpenApiResponse(OpenApiTypes.STR, description="Streamed file."),
        },
    }


class ExportView(NulSafeMixin, APIView):
    def perform_content_negotiation(self, request, force=False):
        # The file's own type (application/jsonl, text/csv) is not a renderer's: never answer 406
        # to a client that asks for it; errors still come back as JSON.
        return super().perform_content_negotiation(request, force=True)


WITH_SESSIONS = OpenApiParameter(
    "with_sessions",
    {"type": "boolean"},
    OpenApiParameter.QUERY,
    description="true: each answer that has a session as an `:answer` response "
    "(`{answer, session}`), so its question goes with it",
)


class AnswersExportView(ExportView):
    query_keys = (*ANSWER_FILTERS, "with_sessions")

    @extend_schema(
        **export_schema(
            "Export answers as JSON Lines (the Vertex documents in their REST form)",
            "application/jsonl",
            [*ANSWER_FILTER_PARAMETERS, WITH_SESSIONS],
        )
    )
    def get(self, request):
        params = request.query_params
        with_sessions = params.get("with_sessions", "false")
        if with_sessions not in ("true", "false"):
            raise FieldError("with_sessions", f"must be true or false, not {with_sessions!r}")
        filters = {key: params[key] for key in ANSWER_FILTERS if key in params}
        answers = filter_answers(Answer.objects.all(), filters, strict=True)
        lines = answer_jsonl(answers, with_sessions=with_sessions == "true")
        return streamed(lines, "application/jsonl; charset=utf-8", "answers.jsonl")


class LabelsExportView(ExportView):
    query_keys = tuple(LABEL_FILTERS)

    def labels(self, request):
        return filter_labels(AnswerLabel.objects.all(), request.query_params)


class LabelsJsonlExportView(LabelsExportView):
    @extend_schema(
        **export_schema(
            "Export labels as JSON Lines (one label with its claims per line)",
            "application/jsonl",
            LABEL_FILTER_PARAMETERS,
        )
    )
    def get(self, request):
        lines = exports.labels_jsonl(self.labels(request))
        return streamed(lines, "application/jsonl; charset=utf-8", "labels.jsonl")


class LabelsCsvExportView(LabelsExportView):
    @extend_schema(
        **export_schema(
            "Export labels as CSV (one row per claim verdict)", "text/csv", LABEL_FILTER_PARAMETERS
        )
    )
    def get(self, request):
        lines = exports.labels_csv(self.labels(request))
        return streamed(lines, "text/csv; charset=utf-8", "labels.csv")


# URL suffix -> label_export format.
LABELLED_SUFFIXES = {
    "jsonl": "jsonl",
    "csv": "csv",
    "parquet": "parquet",
    "argilla.json": "argilla",
    "label-studio.json": "label-studio",
}


class NotInstalled(APIException):
    status_code = status.HTTP_501_NOT_IMPLEMENTED
    default_detail = (
        "Parquet export needs pyarrow on the server: pip install 'groundview[parquet]'."
    )


LABELLED_DESCRIPTION = (
    "One row per answer, usable without groundview: question, answer text, contexts, each "
    "reviewer's answer and claim verdicts (claims with UTF-8 byte and character offsets), final "
    "verdicts (adjudicated or agreed) and the checker's scores and version. The answer list's "
    "filters apply; `label_status` defaults to `labelled` (send it empty for every answer)."
)
LABELLED_SUMMARIES = {
    "jsonl": "Export labelled answers as JSON Lines",
    "csv": "Export labelled answers as CSV (nested values as JSON text)",
    "parquet": "Export labelled answers as Parquet (needs pyarrow on the server)",
    "argilla": "Export labelled answers as Argilla 2 records (a JSON array)",
    "label-studio": "Export labelled answers as Label Studio tasks (a JSON array)",
}


class LabelledAnswersExportView(ExportView):
    query_keys = tuple(ANSWER_FILTERS)
    kind = ""

    def get(self, request):
        answers = label_export.select_labelled_answers(request.query_params)
        if self.kind == "parquet" and not label_export.parquet_available():
            raise NotInstalled()
        content_type, filename = label_export.FORMATS[self.kind]
        pieces = label_export.write(self.kind, label_export.answer_documents(answers))
        return streamed(pieces, content_type, filename)


def labelled_export_view(kind: str) -> type[LabelledAnswersExportView]:
    """The export view of one format, documented with that format's own media type."""
    media_type = label_export.FORMATS[kind][0].split(";")[0]
    body = {
        "parquet": OpenApiTypes.BINARY,
        "argilla": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
        "label-studio": {
            "type": "array",
            "items": {"type": "object", "additionalProperties": True},
        },
    }.get(kind, OpenApiTypes.STR)
    schema = extend_schema(
        summary=LABELLED_SUMMARIES[kind],
        description=LABELLED_DESCRIPTION,
        parameters=ANSWER_FILTER_PARAMETERS,
        responses={(200, media_type): OpenApiResponse(body, description="Streamed file.")},
    )

    # A function of its own: extend_schema marks the function it decorates.
    def get(self, request):
        return LabelledAnswersExportView.get(self, request)

    name = f"Labelled{kind.title().replace('-', '')}ExportView"
    return type(name, (LabelledAnswersExportView,), {"kind": kind, "get": schema(get)})


LABELLED_EXPORT_VIEWS = {
    suffix: labelled_export_view(kind) for suffix, kind in LABELLED_SUFFIXES.items()
}


class NotFoundView(APIView):
    """JSON 404 for unknown paths under /api/ (instead of Django's HTML page), after sign-in."""

    schema = None

    def http_method_not_allowed(self, request, *args, **kwargs):
        raise NotFound()
