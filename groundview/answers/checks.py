"""Grounding checks of stored answers: building the request, queueing, running, progress.

A check is a `CheckRun` row created when it is queued; the Celery task only carries run ids. Running
a check claims the row (queued -> running), calls the engine and writes the outcome once, so a task
delivered twice, or redelivered after its worker died, still leaves exactly one run per queued check.
The answer's imported Vertex data is only read here: the result lives on the run and
`Answer.latest_check` (groundview's own bookkeeping) points at the newest succeeded one.
"""

from __future__ import annotations

import html
import json
import logging
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.module_loading import import_string
from kombu.exceptions import OperationalError as KombuOperationalError

from groundview.answers.models import Answer, CheckBatch, CheckRun

logger = logging.getLogger(__name__)

# The engine's request limits (groundview/grounding/README.md, "Semantics"); a stored answer may
# have more, or longer, texts.
MAX_FACTS = 200
MAX_FACT_CHARS = 10_000

# A run found "running" with this many attempts is failed instead of started again.
MAX_ATTEMPTS = 3

# Errors that are not the engine's verdict on a request: they abort the whole task.
ABORTING = (SoftTimeLimitExceeded,)

Status = CheckRun.Status


# --- the engine ------------------------------------------------------------------------------


def engine_config():
    from groundview.grounding import EngineConfig

    return EngineConfig.from_dict(settings.GROUNDING)


def get_engine():
    """This process's engine (models load once per process; the engine caches it per config)."""
    config = engine_config()
    if settings.GROUNDVIEW_CHECK_ENGINE:
        return import_string(settings.GROUNDVIEW_CHECK_ENGINE)(config)
    from groundview.grounding import get_engine as grounding_engine

    return grounding_engine(config)


def engine_version(engine) -> str:
    version = getattr(engine, "version", None)
    if version:
        return str(version)
    from groundview.grounding import ENGINE_VERSION

    return ENGINE_VERSION


def warm_engine() -> None:
    """Load the models now, e.g. when a worker process starts, rather than in its first task."""
    started = time.monotonic()
    get_engine().warm_up()
    logger.info("grounding engine ready in %.1f s", time.monotonic() - started)


# --- the request -----------------------------------------------------------------------------


def build_request(answer: Answer) -> dict[str, Any]:
    """The Check Grounding request for a stored answer."""
    return prepare_request(answer)[0]


def prepare_request(answer: Answer) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The request and, for each of its facts, where in the answer the fact came from."""
    facts: list[dict[str, Any]] = []
    sources: list[dict[str, Any]] = []
    for text, attributes, source in answer_facts(answer.raw or {}):
        for piece in split_long(text):
            if len(facts) == MAX_FACTS:
                logger.info("%s: more than %d facts, the rest are left out", answer.name, MAX_FACTS)
                break
            facts.append({"factText": piece, "attributes": attributes})
            sources.append(source)
    request = {
        "answerCandidate": answer.answer_text,
        "facts": facts,
        "groundingSpec": {
            "citationThreshold": engine_config().default_citation_threshold,
            "enableClaimLevelScore": True,
        },
    }
    return request, sources


def answer_facts(raw: dict[str, Any]) -> Iterator[tuple[str, dict[str, str], dict[str, Any]]]:
    """(text, attributes, source) for every piece of evidence the answer was given.

    References come first, in order, since citations name them; then what the answer's steps
    observed (search result snippets and chunks) that no reference already holds.
    """
    seen: set[str] = set()
    for position, reference in enumerate(raw.get("references") or []):
        for text, attributes, chunk in reference_facts(reference):
            seen.add(text_key(text))
            yield text, attributes, {"reference": position, "chunk": chunk}
    for step_pos, step in enumerate(raw.get("steps") or []):
        for action_pos, action in enumerate(step.get("actions") or []):
            results = (action.get("observation") or {}).get("searchResults") or []
            for result_pos, result in enumerate(results):
                attributes = attributes_of(result)
                where = {"step": step_pos, "action": action_pos, "result": result_pos}
                pieces = [
                    (clean_snippet(item.get("snippet", "")), {"snippet": i})
                    for i, item in enumerate(result.get("snippetInfo") or [])
                ] + [
                    (item.get("content", ""), {"chunk": i})
                    for i, item in enumerate(result.get("chunkInfo") or [])
                ]
                for text, part in pieces:
                    key = text_key(text)
                    if not key or key in seen:
                        continue
                    seen.add(key)
                    source = {"reference": None, "chunk": None, "observation": where | part}
                    yield text, attributes, source


def reference_facts(reference: dict[str, Any]) -> Iterator[tuple[str, dict[str, str], int | None]]:
    if "unstructuredDocumentInfo" in reference:
        info = reference["unstructuredDocumentInfo"]
        chunks = info.get("chunkContents") or []
        for position, chunk in enumerate(chunks):
            if chunk.get("content", "").strip():
                attributes = attributes_of(info, page=chunk.get("pageIdentifier", ""))
                yield chunk["content"], attributes, position
        if not chunks and info.get("structData"):
            yield struct_text(info["structData"]), attributes_of(info), None
    elif "chunkInfo" in reference:
        info = reference["chunkInfo"]
        metadata = info.get("documentMetadata") or {}
        if info.get("content", "").strip():
            attributes = attributes_of(metadata, page=metadata.get("pageIdentifier", ""))
            yield info["content"], attributes, None
    elif "structuredDocumentInfo" in reference:
        info = reference["structuredDocumentInfo"]
        if info.get("structData"):
            yield struct_text(info["structData"]), attributes_of(info), None


def attributes_of(info: dict[str, Any], page: str = "") -> dict[str, str]:
    attributes = {key: info[key] for key in ("title", "uri", "document") if info.get(key)}
    if page:
        attributes["pageIdentifier"] = page
    return {key: str(value) for key, value in attributes.items()}


def struct_text(data: Any) -> str:
    """A structured document as "key: value" lines, which the engine can match sentences against."""
    if not isinstance(data, dict):
        return json.dumps(data, ensure_ascii=False)
    lines = []
    # Sorted: PostgreSQL's jsonb does not keep the document's key order, SQLite does.
    for key, value in sorted(data.items()):
        if not isinstance(value, str):
            value = json.dumps(value, ensure_ascii=False)
        lines.append(f"{key}: {value}")
    return "\n".join(lines)


_TAG_RE = re.compile(r"<[^>]{0,200}>")
_SPACE_RE = re.compile(r"\s+")


def clean_snippet(snippet: str) -> str:
    # Search snippets come as HTML (<b> around matched terms, escaped entities).
    return html.unescape(_TAG_RE.sub("", snippet)).strip()


def text_key(text: str) -> str:
    return _SPACE_RE.sub(" ", text).strip().casefold()


def split_long(text: str) -> list[str]:
    """A text longer than the engine's fact limit, as consecutive pieces cut at whitespace."""
    pieces = []
    while len(text) > MAX_FACT_CHARS:
        cut = text.rfind(" ", MAX_FACT_CHARS // 2, MAX_FACT_CHARS)
        cut = cut + 1 if cut > 0 else MAX_FACT_CHARS
        pieces.append(text[:cut])
        text = text[cut:]
    pieces.append(text)
    return pieces


# --- queueing --------------------------------------------------------------------------------


def queue_checks(
    answers: QuerySet[Answer] | Iterable[Answer],
    *,
    created_by=None,
    description: str = "",
) -> CheckBatch:
    """A new run for each answer, in a new batch; the tasks go out once the transaction commits."""
    if isinstance(answers, QuerySet):
        answer_ids = list(answers.order_by("pk").values_list("pk", flat=True))
    else:
        answer_ids = [answer.pk for answer in answers]
    with transaction.atomic():
        batch = CheckBatch.objects.create(created_by=created_by, description=description[:255])
        runs = CheckRun.objects.bulk_create(
            CheckRun(answer_id=answer_id, batch=batch) for answer_id in answer_ids
        )
        run_ids = [run.pk for run in runs]
        transaction.on_commit(partial(send_runs, run_ids))
    return batch


def queue_check(answer: Answer, *, created_by=None) -> CheckRun:
    """A new run for one answer, outside any batch (created_by is accepted for symmetry)."""
    with transaction.atomic():
        run = CheckRun.objects.create(answer=answer)
        transaction.on_commit(partial(send_runs, [run.pk]))
    return run


def queue_checks_after_import(answer_ids: Sequence[int]) -> CheckBatch | None:
    if not settings.GROUNDVIEW_CHECK_ON_IMPORT or not answer_ids:
        return None
    return queue_checks(
        Answer.objects.filter(pk__in=answer_ids),
        description=f"after import of {len(answer_ids)} answer(s)",
    )


def send_runs(run_ids: Sequence[int]) -> None:
    from groundview.answers.tasks import check_runs

    size = max(1, settings.GROUNDVIEW_CHECK_BATCH_SIZE)
    for start in range(0, len(run_ids), size):
        chunk = list(run_ids[start : start + size])
        try:
            check_runs.delay(chunk)
        except KombuOperationalError as exc:
            # Celery already retried the publish. Say so on the runs rather than leave them
            # "queued" for a task that does not exist.
            logger.exception("cannot queue check runs %s", chunk)
            fail_unfinished(chunk, f"could not queue the check: {describe(exc)}")


# --- running ---------------------------------------------------------------------------------


def run_check(run_id: int) -> CheckRun:
    """Run one queued check (a no-op for a finished one) and return the run as stored."""
    run_checks([run_id])
    return CheckRun.objects.get(pk=run_id)


@dataclass
class Outcome:
    succeeded: int = 0
    failed: int = 0
    skipped: int = 0


def run_checks(run_ids: Sequence[int]) -> Outcome:
    """Run the given checks through the engine together. Idempotent.

    A run already finished, or being run right now by a live worker, is skipped. A run left
    "running" by a worker that died is taken over: its row lock died with the worker's connection.
    Engine errors fail the run they belong to; database errors propagate, for the task to retry.
    """
    outcome = Outcome()
    with run_locks(run_ids) as locked:
        outcome.skipped += len(run_ids) - len(locked)
        claimed = [run for run in (claim(run_id) for run_id in locked) if run is not None]
        outcome.skipped += len(locked) - len(claimed)
        if not claimed:
            return outcome
        timings: list[dict[str, Any]] = []
        requests: list[dict[str, Any]] = []
        sources: list[list[dict[str, Any]]] = []
        for run in claimed:
            started = time.monotonic()
            request, fact_sources = prepare_request(run.answer)
            requests.append(request)
            sources.append(fact_sources)
            timings.append(
                {
                    "queue_ms": ms_between(run.queued_at, run.started_at),
                    "build_ms": round((time.monotonic() - started) * 1000, 1),
                }
            )
        results, engine_ms, engine = check_all(requests)
        for run, request, fact_sources, run_timings, (response, error) in zip(
            claimed, requests, sources, timings, results, strict=True
        ):
            run_timings["engine_ms"] = round(engine_ms / len(claimed), 1)
            run_timings["batch_engine_ms"] = round(engine_ms, 1)
            run_timings["batch_size"] = len(claimed)
            ok = finish(run, request, fact_sources, response, error, run_timings, engine)
            if ok:
                outcome.succeeded += 1
            else:
                outcome.failed += 1
    return outcome


@contextmanager
def run_locks(run_ids: Sequence[int]) -> Iterator[list[int]]:
    """Hold a PostgreSQL session lock on each run this worker may work on.

    The lock lives as long as the worker's database connection: a second delivery of the same task
    finds it taken and leaves the run to the live worker, while a dead worker's lock is gone.
    SQLite (the embedded, single-process default) needs none.
    """
    if connection.vendor != "postgresql":
        yield list(run_ids)
        return
    locked = []
    try:
        with connection.cursor() as cursor:
            for run_id in run_ids:
                cursor.execute("SELECT pg_try_advisory_lock(%s)", [run_id])
                if cursor.fetchone()[0]:
                    locked.append(run_id)
        yield locked
    finally:
        try:
            with connection.cursor() as cursor:
                for run_id in locked:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [run_id])
        except DatabaseError:
            # The connection is gone, and its locks with it.
            pass


def claim(run_id: int) -> CheckRun | None:
    """Mark a run running (queued, or running for a dead worker); None if there is nothing to do."""
    with transaction.atomic():
        run = (
            CheckRun.objects.select_for_update(of=("self",))
            .select_related("answer")
            .filter(pk=run_id)
            .first()
        )
        if run is None or run.is_finished:
            return None
        if run.status == Status.RUNNING:
            if run.attempts >= MAX_ATTEMPTS:
                # Each attempt so far took its worker down (out of memory, a crash, the hard time
                # limit): running it again would only do that again.
                run.status = Status.FAILED
                run.error = f"the worker was lost {run.attempts} times while checking this answer"
                run.finished_at = timezone.now()
                run.save(update_fields=["status", "error", "finished_at"])
                return None
            logger.warning("check run %s: taking over from a worker that stopped", run_id)
        run.status = Status.RUNNING
        run.started_at = timezone.now()
        run.attempts += 1
        run.save(update_fields=["status", "started_at", "attempts"])
    return run


def check_all(
    requests: list[dict[str, Any]],
) -> tuple[list[tuple[dict[str, Any] | None, str]], float, Any]:
    """(response, error) per request, the engine's time in ms and the engine."""
    started = time.monotonic()
    try:
        engine = get_engine()
    except ABORTING:
        raise
    except Exception as exc:
        logger.exception("cannot load the grounding engine")
        return [(None, describe(exc)) for _ in requests], 0.0, None
    try:
        responses = engine.check_many(requests, return_errors=True)
        results = [as_result(response) for response in responses]
    except ABORTING:
        raise
    except Exception:
        # One bad request (or an engine bug) must not sink the others: check them one by one.
        logger.exception("check_many failed; checking the batch one request at a time")
        results = [check_one(engine, request) for request in requests]
    return results, (time.monotonic() - started) * 1000, engine


def check_one(engine, request: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    try:
        return engine.check(request), ""
    except ABORTING:
        raise
    except Exception as exc:
        logger.exception("grounding check failed")
        return None, describe(exc)


def as_result(response: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    # check_many(return_errors=True) puts a Google-style 400 body where a request was invalid.
    if isinstance(response, dict) and isinstance(response.get("error"), dict):
        return None, f"RequestError: {response['error'].get('message', '')}"
    return response, ""


def describe(exc: BaseException) -> str:
    message = getattr(exc, "message", None) or str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def finish(
    run: CheckRun,
    request: dict[str, Any],
    fact_sources: list[dict[str, Any]],
    response: dict[str, Any] | None,
    error: str,
    timings: dict[str, Any],
    engine,
) -> bool:
    """Store the outcome on a running run; point the answer at it if it is the newest success."""
    succeeded = response is not None
    now = timezone.now()
    timings["total_ms"] = ms_between(run.started_at, now)
    fields: dict[str, Any] = {
        "status": Status.SUCCEEDED if succeeded else Status.FAILED,
        "request": request,
        "response": response,
        "fact_sources": fact_sources,
        "citation_threshold": request["groundingSpec"]["citationThreshold"],
        "support_score": score_of(response) if succeeded else None,
        "error": error,
        "timings": timings,
        "finished_at": now,
    }
    if engine is not None:
        fields["engine_version"] = engine_version(engine)
        fields["model_id"] = str(engine.model_id)
    with transaction.atomic():
        stored = CheckRun.objects.filter(pk=run.pk, status=Status.RUNNING).update(**fields)
        if stored and succeeded:
            Answer.objects.filter(pk=run.answer_id).filter(
                Q(latest_check__isnull=True) | Q(latest_check_id__lt=run.pk)
            ).update(latest_check_id=run.pk)
    return succeeded


def score_of(response: dict[str, Any]) -> float | None:
    """The run's score for sorting and filtering: none when no claim needed a check.

    The engine answers supportScore 1.0 for an empty answer or one of pleasantries only (nothing
    to contradict); ranking those as perfectly grounded would put them on top of every review.
    """
    if not any(claim.get("groundingCheckRequired") for claim in response.get("claims", [])):
        return None
    return response.get("supportScore")


def fail_unfinished(run_ids: Sequence[int], error: str) -> int:
    """Fail whatever of these runs did not finish (the task gave up or ran out of time)."""
    return CheckRun.objects.filter(
        pk__in=run_ids, status__in=[Status.QUEUED, Status.RUNNING]
    ).update(status=Status.FAILED, error=error, finished_at=timezone.now())


def ms_between(start, end) -> float | None:
    if start is None or end is None:
        return None
    return round((end - start).total_seconds() * 1000, 1)


# --- progress --------------------------------------------------------------------------------


@dataclass
class BatchProgress:
    total: int = 0
    queued: int = 0
    running: int = 0
    succeeded: int = 0
    failed: int = 0
    # (run id, answer name, error) for each failed run, oldest first.
    failures: list[tuple[int, str, str]] = field(default_factory=list)

    @property
    def done(self) -> int:
        return self.succeeded + self.failed

    @property
    def finished(self) -> bool:
        return self.done == self.total

    @property
    def percent(self) -> float:
        return 100.0 * self.done / self.total if self.total else 100.0


def batch_progress(batch: CheckBatch | int, *, failure_limit: int | None = 100) -> BatchProgress:
    batch_id = batch.pk if isinstance(batch, CheckBatch) else batch
    runs = CheckRun.objects.filter(batch_id=batch_id)
    counts = runs.aggregate(
        total=Count("pk"),
        **{status: Count("pk", filter=Q(status=status)) for status in Status.values},
    )
    failures = (
        runs.filter(status=Status.FAILED).order_by("pk").values_list("pk", "answer__name", "error")
    )
    if failure_limit is not None:
        failures = failures[:failure_limit]
    return BatchProgress(
        total=counts["total"],
        queued=counts[Status.QUEUED],
        running=counts[Status.RUNNING],
        succeeded=counts[Status.SUCCEEDED],
        failed=counts[Status.FAILED],
        failures=[tuple(row) for row in failures],
    )
