"""Labels that stand alone: one row per answer with everything needed to use its labels without
groundview's database - question, answer text, contexts, every reviewer's verdicts, the final
verdicts, and the checker's claims, scores and version.

One document shape (`answer_documents`) is written five ways:

- `jsonl`: the documents as they are, one per line (the lossless one);
- `csv`: one row per answer; nested values (contexts, labels, claims) are JSON text in their cell,
  and text cells that a spreadsheet would run as a formula get a leading apostrophe;
- `parquet`: the same columns with nested types (lists of structs), one row group per chunk
  (needs pyarrow: `pip install 'groundview[parquet]'`);
- `argilla`: a JSON array of Argilla 2 records in the shape `Record.to_dict()` writes and
  `Record.from_dict()` / `dataset.records.from_json()` read (fields, metadata, suggestions,
  responses); see ARGILLA_SETTINGS;
- `label-studio`: a JSON array of Label Studio tasks (`data`, `meta`, `annotations`,
  `predictions`) for a project created with LABEL_STUDIO_CONFIG.

Offsets. A claim is a UTF-8 byte span of the answer text, as everywhere in groundview
(`start_byte`, `end_byte`, end exclusive). `start_char`/`end_char` are the same span in Unicode
code points (Python string indices), which is what Label Studio's Text regions (since its
frontend stores code points, not JavaScript's UTF-16 units) and Argilla's span questions count.
A stored span that does not fall on character boundaries has no character offsets (null) and is
left out of the Argilla and Label Studio regions rather than moved.

Final verdicts follow `review.adjudication.final_verdict`: an adjudicated claim has its settled
verdict (`final_source` "adjudicated"), a claim every reviewer gave the same verdict has that
one ("agreed"), a disputed claim has none. Answer-level verdicts have no adjudication: their final
verdict is the agreed one, if the reviewers agree.

Streaming: answers are read in chunks (a server-side cursor on PostgreSQL) and each chunk's labels,
references, adjudications and check runs in a few queries, so memory stays flat however many
answers are exported.
"""

from __future__ import annotations

import csv
import json
import uuid
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery

from groundview.answers.checks.requests import struct_text
from groundview.answers.exporting import jsonl_line
from groundview.answers.models import Answer, CheckRun, Reference, ReferenceChunk
from groundview.review.adjudication import final_verdict
from groundview.review.agreement import checker_outcome
from groundview.review.filters import filter_answers
from groundview.review.models import Adjudication, AnswerLabel, ClaimLabel, Verdict

CHUNK = 200

FORMATS = {
    # name: (content type, file name)
    "jsonl": ("application/jsonl; charset=utf-8", "labelled-answers.jsonl"),
    "csv": ("text/csv; charset=utf-8", "labelled-answers.csv"),
    "parquet": ("application/vnd.apache.parquet", "labelled-answers.parquet"),
    "argilla": ("application/json; charset=utf-8", "labelled-answers.argilla.json"),
    "label-studio": ("application/json; charset=utf-8", "labelled-answers.label-studio.json"),
}

# Reviewers become Argilla users by a stable id: create the users with these ids (or map them)
# before logging responses, since Argilla takes a response only from a user it knows.
REVIEWER_NAMESPACE = uuid.UUID("6f1c3f0e-2b7a-5d39-9a35-1f3f0c6b8e21")


class ExportError(ValueError):
    """A format that cannot be written here (unknown, or its library is not installed)."""


# --- reading ------------------------------------------------------------------------------------


def select_labelled_answers(params: Mapping[str, str]) -> QuerySet[Answer]:
    """Answers by the review list's filter spec. Without a `label_status` parameter only labelled
    answers are exported; `label_status=` (empty) exports every answer the other filters keep
    (unlabelled ones become Label Studio tasks with the checker's predictions only)."""
    params = {key: params.get(key) for key in params}
    params.setdefault("label_status", "labelled")
    return filter_answers(Answer.objects.all(), params, strict=True)


def char_offset(encoded: bytes, offset: int) -> int | None:
    """The code point index of UTF-8 byte `offset`, or None if it is not a character boundary."""
    if offset < 0 or offset > len(encoded):
        return None
    try:
        return len(encoded[:offset].decode("utf-8"))
    except UnicodeDecodeError:
        return None


def span_text(encoded: bytes, start: int, end: int) -> str | None:
    if not 0 <= start <= end <= len(encoded):
        return None
    try:
        return encoded[start:end].decode("utf-8")
    except UnicodeDecodeError:
        return None


def answer_documents(answers: QuerySet[Answer]) -> Iterator[dict[str, Any]]:
    """One self-contained document per answer, in the queryset's order, read in chunks."""
    latest_run = (
        CheckRun.objects.filter(answer=OuterRef("pk"), status=CheckRun.Status.SUCCEEDED)
        .order_by("-finished_at", "-id")
        .values("id")[:1]
    )
    rows = answers.annotate(checked_by=Subquery(latest_run)).values_list(
        "pk",
        "name",
        "session__name",
        "state",
        "query_text",
        "answer_text",
        "grounding_score",
        "checked_by",
    )
    chunk: list[tuple] = []
    for row in rows.iterator(chunk_size=CHUNK):
        chunk.append(row)
        if len(chunk) == CHUNK:
            yield from documents_of(chunk)
            chunk = []
    yield from documents_of(chunk)


def documents_of(chunk: list[tuple]) -> list[dict[str, Any]]:
    if not chunk:
        return []
    ids = [row[0] for row in chunk]
    contexts = contexts_of(ids)
    labels, claim_verdicts = labels_of(ids)
    adjudications = adjudications_of(ids)
    runs = runs_of([row[7] for row in chunk if row[7]])
    documents = []
    for pk, name, session, state, question, text, grounding, run_id in chunk:
        run = runs.get(run_id)
        answer_labels = labels.get(pk, [])
        answer_final, answer_source = final_verdict([label["verdict"] for label in answer_labels])
        documents.append(
            {
                "answer_id": pk,
                "answer": name,
                "session": session,
                "state": state,
                "question": question,
                "answer_text": text,
                "contexts": contexts.get(pk, []),
                "producer_grounding_score": grounding,
                "checker": run["summary"] if run else None,
                "labels": answer_labels,
                "final_verdict": answer_final or None,
                "final_source": answer_source or None,
                "claims": claims_of(
                    text,
                    claim_verdicts.get(pk, {}),
                    adjudications.get(pk, {}),
                    run["claims"] if run else [],
                ),
            }
        )
    return documents


def contexts_of(answer_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Each answer's references as texts: one context per chunk of a document, else its content."""
    references = list(
        Reference.objects.filter(answer_id__in=answer_ids)
        .order_by("answer_id", "position")
        .values_list(
            "pk", "answer_id", "position", "title", "uri", "document", "content", "struct_data"
        )
    )
    chunks: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for reference_id, position, content in (
        ReferenceChunk.objects.filter(reference_id__in=[r[0] for r in references])
        .order_by("reference_id", "position")
        .values_list("reference_id", "position", "content")
    ):
        chunks[reference_id].append((position, content))
    contexts: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for pk, answer_id, position, title, uri, document, content, struct_data in references:
        base = {"reference": position, "title": title, "uri": uri, "document": document}
        if chunks[pk]:
            for chunk, text in chunks[pk]:
                contexts[answer_id].append(base | {"chunk": chunk, "text": text})
        elif content or not struct_data:
            contexts[answer_id].append(base | {"chunk": None, "text": content})
        else:
            contexts[answer_id].append(base | {"chunk": None, "text": struct_text(struct_data)})
    return contexts


def labels_of(answer_ids: list[int]) -> tuple[dict, dict]:
    """(answer id -> its labels, answer id -> {(start, end): [each reviewer's claim verdict]})."""
    labels: dict[int, list[dict[str, Any]]] = defaultdict(list)
    reviewer_of: dict[int, tuple[int, str]] = {}
    for pk, answer_id, reviewer, verdict, note, created, updated in (
        AnswerLabel.objects.filter(answer_id__in=answer_ids)
        .order_by("answer_id", "created_at", "pk")
        .values_list(
            "pk", "answer_id", "reviewer__username", "verdict", "note", "created_at", "updated_at"
        )
    ):
        reviewer_of[pk] = (answer_id, reviewer)
        labels[answer_id].append(
            {
                "reviewer": reviewer,
                "verdict": verdict,
                "note": note,
                "created_at": created.isoformat(),
                "updated_at": updated.isoformat(),
            }
        )
    claims: dict[int, dict[tuple[int, int], list[dict[str, Any]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for label_id, start, end, claim_text, verdict, corrected, note in (
        ClaimLabel.objects.filter(label_id__in=reviewer_of)
        .order_by("label__answer_id", "start_index", "end_index", "label__created_at", "label_id")
        .values_list(
            "label_id",
            "start_index",
            "end_index",
            "claim_text",
            "verdict",
            "corrected_citations",
            "note",
        )
    ):
        answer_id, reviewer = reviewer_of[label_id]
        claims[answer_id][(start, end)].append(
            {
                "reviewer": reviewer,
                "verdict": verdict,
                "corrected_citations": list(corrected or []),
                "note": note,
                "claim_text": claim_text,
            }
        )
    return labels, claims


def adjudications_of(answer_ids: list[int]) -> dict[int, dict[tuple[int, int], dict[str, str]]]:
    settled: dict[int, dict[tuple[int, int], dict[str, str]]] = defaultdict(dict)
    for answer_id, start, end, claim_text, verdict, note, adjudicator in (
        Adjudication.objects.filter(answer_id__in=answer_ids)
        .order_by()
        .values_list(
            "answer_id",
            "start_index",
            "end_index",
            "claim_text",
            "verdict",
            "note",
            "adjudicator__username",
        )
    ):
        settled[answer_id][(start, end)] = {
            "verdict": verdict,
            "note": note,
            "by": adjudicator,
            "claim_text": claim_text,
        }
    return settled


def runs_of(run_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The checker's summary and claims per run; of the response, only claims and cited chunks."""
    runs = {}
    for (
        pk,
        engine_version,
        model_id,
        threshold,
        score,
        finished,
        claims,
        chunks,
        sources,
    ) in CheckRun.objects.filter(pk__in=run_ids).values_list(
        "pk",
        "engine_version",
        "model_id",
        "citation_threshold",
        "support_score",
        "finished_at",
        "response__claims",
        "response__citedChunks",
        "fact_sources",
    ):
        runs[pk] = {
            "summary": {
                "run": pk,
                "engine_version": engine_version,
                "model_id": model_id,
                "citation_threshold": threshold,
                "support_score": score,
                "finished_at": finished.isoformat() if finished else None,
            },
            "claims": [
                checker_claim(claim, chunks or [], sources or [])
                for claim in claims or []
                if isinstance(claim, dict)
            ],
        }
    return runs


def checker_claim(claim: dict[str, Any], chunks: list, sources: list) -> dict[str, Any]:
    """A response claim with its citations named as reviewers name theirs ("ref" or "ref:chunk")."""
    citations = []
    for index in claim.get("citationIndices") or []:
        try:
            source = sources[int(chunks[index]["source"])]
        except (IndexError, KeyError, TypeError, ValueError):
            continue
        if not isinstance(source, dict) or source.get("reference") is None:
            continue  # a search result seen in the steps, not a reference
        name = str(source["reference"])
        if source.get("chunk") is not None:
            name += f":{source['chunk']}"
        if name not in citations:
            citations.append(name)
    return {
        "start": int(claim.get("startPos") or 0),
        "end": int(claim.get("endPos") or 0),
        "text": claim.get("claimText", ""),
        "score": claim.get("score"),
        "check_required": claim.get("groundingCheckRequired"),
        "verdict": checker_outcome(claim),
        "citations": citations,
    }


def claims_of(
    text: str,
    verdicts: dict[tuple[int, int], list[dict[str, Any]]],
    settled: dict[tuple[int, int], dict[str, str]],
    checked: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """Every claim span anyone gave a verdict on - a reviewer, an adjudicator or the checker."""
    by_span = {(claim["start"], claim["end"]): claim for claim in checked}
    encoded = text.encode("utf-8")
    claims = []
    for start, end in sorted(set(verdicts) | set(settled) | set(by_span)):
        human = verdicts.get((start, end), [])
        adjudication = settled.get((start, end))
        checker = by_span.get((start, end))
        final, source = final_verdict(
            [v["verdict"] for v in human], adjudication["verdict"] if adjudication else ""
        )
        stored = [v["claim_text"] for v in human if v["claim_text"]]
        claim_text = span_text(encoded, start, end)
        if claim_text is None:
            # A span that does not fit the text (the answer was re-imported with other text):
            # the text as it was labelled.
            claim_text = stored[0] if stored else (checker or {}).get("text", "")
        claims.append(
            {
                "start_byte": start,
                "end_byte": end,
                "start_char": char_offset(encoded, start),
                "end_char": char_offset(encoded, end),
                "text": claim_text,
                "verdicts": [
                    {key: value for key, value in v.items() if key != "claim_text"} for v in human
                ],
                "final_verdict": final or None,
                "final_source": source or None,
                "adjudicated_by": adjudication["by"] if adjudication else None,
                "adjudication_note": adjudication["note"] if adjudication else None,
                "checker_score": checker["score"] if checker else None,
                "checker_verdict": checker["verdict"] if checker else None,
                "checker_check_required": checker["check_required"] if checker else None,
                "checker_citations": checker["citations"] if checker else None,
            }
        )
    return claims


# --- writing ------------------------------------------------------------------------------------


def write(format: str, documents: Iterable[dict[str, Any]]) -> Iterator[str | bytes]:
    """The export in `format` (see FORMATS), as pieces to stream: str, or bytes for Parquet."""
    if format == "jsonl":
        return (jsonl_line(document) for document in documents)
    if format == "csv":
        return csv_lines(documents)
    if format == "parquet":
        return parquet_chunks(documents)
    if format == "argilla":
        return json_array(argilla_record(document) for document in documents)
    if format == "label-studio":
        return json_array(label_studio_task(document) for document in documents)
    raise ExportError(f"{format!r} is not one of {', '.join(FORMATS)}")


def json_array(items: Iterable[dict[str, Any]]) -> Iterator[str]:
    """A JSON array written an element at a time (one per line, so it also diffs well)."""
    first = True
    yield "["
    for item in items:
        # jsonl_line: the same escaping of U+2028/U+2029/U+0085 as every JSONL export.
        yield ("\n" if first else ",\n") + jsonl_line(item).rstrip("\n")
        first = False
    yield "\n]\n"


# --- CSV ----------------------------------------------------------------------------------------

CSV_COLUMNS = [
    "answer_id",
    "answer",
    "session",
    "state",
    "question",
    "answer_text",
    "contexts",
    "producer_grounding_score",
    "checker_run",
    "checker_engine_version",
    "checker_model_id",
    "checker_citation_threshold",
    "checker_support_score",
    "reviewers",
    "labels",
    "final_verdict",
    "final_source",
    "claims",
]


class _Line:
    """csv.writer target that hands back the line it was given."""

    def write(self, value: str) -> str:
        return value


def spreadsheet_safe(value: str | None) -> str:
    # A cell starting with = + - @ is run as a formula by spreadsheets (CSV injection); a leading
    # apostrophe makes it text. The JSONL and Parquet exports keep the text as it is.
    if not value:
        return ""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def csv_lines(documents: Iterable[dict[str, Any]]) -> Iterator[str]:
    writer = csv.writer(_Line())
    yield writer.writerow(CSV_COLUMNS)
    for document in documents:
        checker = document["checker"] or {}
        yield writer.writerow(
            [
                document["answer_id"],
                spreadsheet_safe(document["answer"]),
                spreadsheet_safe(document["session"]),
                document["state"],
                spreadsheet_safe(document["question"]),
                spreadsheet_safe(document["answer_text"]),
                as_json(document["contexts"]),
                blank(document["producer_grounding_score"]),
                blank(checker.get("run")),
                checker.get("engine_version", ""),
                checker.get("model_id", ""),
                blank(checker.get("citation_threshold")),
                blank(checker.get("support_score")),
                as_json([label["reviewer"] for label in document["labels"]]),
                as_json(document["labels"]),
                document["final_verdict"] or "",
                document["final_source"] or "",
                as_json(document["claims"]),
            ]
        )


def blank(value: Any) -> Any:
    return "" if value is None else value


# --- Parquet ------------------------------------------------------------------------------------


def parquet_schema():
    import pyarrow as pa

    text = pa.string()
    verdict = pa.struct(
        [
            ("reviewer", text),
            ("verdict", text),
            ("corrected_citations", pa.list_(text)),
            ("note", text),
        ]
    )
    claim = pa.struct(
        [
            ("start_byte", pa.int64()),
            ("end_byte", pa.int64()),
            ("start_char", pa.int64()),
            ("end_char", pa.int64()),
            ("text", text),
            ("verdicts", pa.list_(verdict)),
            ("final_verdict", text),
            ("final_source", text),
            ("adjudicated_by", text),
            ("adjudication_note", text),
            ("checker_score", pa.float64()),
            ("checker_verdict", text),
            ("checker_check_required", pa.bool_()),
            ("checker_citations", pa.list_(text)),
        ]
    )
    return pa.schema(
        [
            ("answer_id", pa.int64()),
            ("answer", text),
            ("session", text),
            ("state", text),
            ("question", text),
            ("answer_text", text),
            (
                "contexts",
                pa.list_(
                    pa.struct(
                        [
                            ("reference", pa.int64()),
                            ("chunk", pa.int64()),
                            ("title", text),
                            ("uri", text),
                            ("document", text),
                            ("text", text),
                        ]
                    )
                ),
            ),
            ("producer_grounding_score", pa.float64()),
            (
                "checker",
                pa.struct(
                    [
                        ("run", pa.int64()),
                        ("engine_version", text),
                        ("model_id", text),
                        ("citation_threshold", pa.float64()),
                        ("support_score", pa.float64()),
                        ("finished_at", text),
                    ]
                ),
            ),
            (
                "labels",
                pa.list_(
                    pa.struct(
                        [
                            ("reviewer", text),
                            ("verdict", text),
                            ("note", text),
                            ("created_at", text),
                            ("updated_at", text),
                        ]
                    )
                ),
            ),
            ("final_verdict", text),
            ("final_source", text),
            ("claims", pa.list_(claim)),
        ]
    )


class _Pieces:
    """A write-only file that keeps what was written until it is taken, for streaming."""

    def __init__(self) -> None:
        self.pieces: list[bytes] = []
        self.position = 0
        self.closed = False

    def write(self, data) -> int:
        piece = bytes(data)
        self.pieces.append(piece)
        self.position += len(piece)
        return len(piece)

    def tell(self) -> int:
        return self.position

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    def take(self) -> bytes:
        data = b"".join(self.pieces)
        self.pieces = []
        return data


def parquet_chunks(documents: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    """Parquet, one row group per CHUNK answers, each sent as soon as it is written."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ExportError("Parquet needs pyarrow: pip install 'groundview[parquet]'") from None
    schema = parquet_schema()
    sink = _Pieces()
    writer = pq.ParquetWriter(pa.PythonFile(sink, mode="w"), schema, compression="zstd")
    batch: list[dict[str, Any]] = []
    try:
        for document in documents:
            batch.append(document)
            if len(batch) == CHUNK:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                batch = []
                yield sink.take()
        if batch:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
    finally:
        writer.close()
    yield sink.take()


def parquet_available() -> bool:
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True


# --- Argilla ------------------------------------------------------------------------------------

VERDICTS = list(Verdict.values)

# The dataset these records fit, as Argilla 2's Python SDK builds it (for the README and users):
ARGILLA_SETTINGS = """\
rg.Settings(
    fields=[rg.TextField("question"), rg.TextField("answer"), rg.TextField("contexts")],
    questions=[
        rg.LabelQuestion("answer_verdict", labels=VERDICTS),
        rg.SpanQuestion("claims", field="answer", labels=VERDICTS, allow_overlapping=True),
        rg.SpanQuestion("final_claims", field="answer", labels=VERDICTS, allow_overlapping=True),
    ],
    metadata=[rg.TermsMetadataProperty("final_verdict"), rg.FloatMetadataProperty("checker_support_score")],
)"""


def reviewer_id(username: str) -> str:
    return str(uuid.uuid5(REVIEWER_NAMESPACE, username))


def contexts_text(contexts: list[dict[str, Any]]) -> str:
    parts = []
    for context in contexts:
        heading = f"[{context['reference'] + 1}] {context['title']}".rstrip()
        parts.append(f"{heading}\n{context['text']}")
    return "\n\n".join(parts)


def char_span(claim: dict[str, Any]) -> tuple[int, int] | None:
    if claim["start_char"] is None or claim["end_char"] is None:
        return None
    return claim["start_char"], claim["end_char"]


def argilla_record(document: dict[str, Any]) -> dict[str, Any]:
    responses: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for label in document["labels"]:
        responses["answer_verdict"].append(
            {"value": label["verdict"], "user_id": reviewer_id(label["reviewer"])}
        )
    spans_by_reviewer: dict[str, list[dict[str, Any]]] = defaultdict(list)
    final_spans, checker_spans, checker_scores = [], [], []
    for claim in document["claims"]:
        span = char_span(claim)
        if span is None:
            continue
        start, end = span
        for verdict in claim["verdicts"]:
            spans_by_reviewer[verdict["reviewer"]].append(
                {"label": verdict["verdict"], "start": start, "end": end}
            )
        if claim["final_verdict"]:
            final_spans.append({"label": claim["final_verdict"], "start": start, "end": end})
        if claim["checker_verdict"]:
            checker_spans.append({"label": claim["checker_verdict"], "start": start, "end": end})
            checker_scores.append(claim["checker_score"])
    for reviewer, spans in spans_by_reviewer.items():
        responses["claims"].append({"value": spans, "user_id": reviewer_id(reviewer)})
    checker = document["checker"] or {}
    suggestions: dict[str, dict[str, Any]] = {}
    if checker_spans:
        suggestions["claims"] = {
            "value": checker_spans,
            # Argilla takes one score per span, or none; a claim without a score has none.
            "score": checker_scores if None not in checker_scores else None,
            "agent": f"groundview {checker.get('engine_version', '')}".strip(),
        }
    if final_spans:
        suggestions["final_claims"] = {
            "value": final_spans,
            "score": None,
            "agent": "groundview final verdicts",
        }
    metadata = {
        "answer_id": document["answer_id"],
        "session": document["session"],
        "state": document["state"],
        "final_verdict": document["final_verdict"],
        "producer_grounding_score": document["producer_grounding_score"],
        "checker_support_score": checker.get("support_score"),
        "checker_engine_version": checker.get("engine_version"),
        "reviewers": [label["reviewer"] for label in document["labels"]],
    }
    return {
        "id": document["answer"],
        "fields": {
            "question": document["question"],
            "answer": document["answer_text"],
            "contexts": contexts_text(document["contexts"]),
        },
        # Argilla's metadata properties take values, not nulls.
        "metadata": {key: value for key, value in metadata.items() if value not in (None, [])},
        "suggestions": suggestions,
        "responses": dict(responses),
        "vectors": {},
    }


# --- Label Studio -------------------------------------------------------------------------------

# The labelling config the tasks fit (Label Studio: project settings, "Labeling Interface", Code).
LABEL_STUDIO_CONFIG = (
    "<View>\n"
    '  <Header value="Question"/>\n'
    '  <Text name="question" value="$question"/>\n'
    '  <Header value="Answer"/>\n'
    '  <Labels name="claim" toName="answer">\n'
    + "".join(f'    <Label value="{verdict}"/>\n' for verdict in Verdict.values)
    + "  </Labels>\n"
    '  <Text name="answer" value="$answer"/>\n'
    '  <Choices name="answer_verdict" toName="answer" choice="single">\n'
    + "".join(f'    <Choice value="{verdict}"/>\n' for verdict in Verdict.values)
    + "  </Choices>\n"
    '  <Header value="Contexts"/>\n'
    '  <Text name="contexts" value="$contexts"/>\n'
    "</View>\n"
)


def claim_region(claim: dict[str, Any], number: int, verdict: str) -> dict[str, Any]:
    # The same region id in every annotation, so Label Studio's agreement compares like with like.
    return {
        "id": f"claim-{number}",
        "from_name": "claim",
        "to_name": "answer",
        "type": "labels",
        "value": {
            "start": claim["start_char"],
            "end": claim["end_char"],
            "text": claim["text"],
            "labels": [verdict],
        },
    }


def answer_choice(verdict: str) -> dict[str, Any]:
    return {
        "id": "answer-verdict",
        "from_name": "answer_verdict",
        "to_name": "answer",
        "type": "choices",
        "value": {"choices": [verdict]},
    }


def label_studio_task(document: dict[str, Any]) -> dict[str, Any]:
    claims = [
        (number, claim)
        for number, claim in enumerate(document["claims"], start=1)
        if char_span(claim) is not None
    ]
    annotations = []
    authors = []
    for label in document["labels"]:
        result = [answer_choice(label["verdict"])]
        for number, claim in claims:
            for verdict in claim["verdicts"]:
                if verdict["reviewer"] == label["reviewer"]:
                    result.append(claim_region(claim, number, verdict["verdict"]))
        annotations.append(
            {
                "result": result,
                "ground_truth": False,
                "created_at": label["created_at"],
                "updated_at": label["updated_at"],
            }
        )
        authors.append(label["reviewer"])
    final = [
        claim_region(claim, number, claim["final_verdict"])
        for number, claim in claims
        if claim["final_verdict"]
    ]
    if document["final_verdict"]:
        final.insert(0, answer_choice(document["final_verdict"]))
    if final:
        # Label Studio's ground truth: the final verdicts, adjudicated or agreed.
        annotations.append({"result": final, "ground_truth": True})
        authors.append("final")
    checker = document["checker"]
    predictions = []
    if checker:
        result = []
        for number, claim in claims:
            if claim["checker_verdict"]:
                region = claim_region(claim, number, claim["checker_verdict"])
                if claim["checker_score"] is not None:
                    region["score"] = claim["checker_score"]
                result.append(region)
        prediction: dict[str, Any] = {
            "model_version": " ".join(
                part for part in (checker["engine_version"], checker["model_id"]) if part
            )
            or "groundview",
            "result": result,
        }
        if checker["support_score"] is not None:
            prediction["score"] = checker["support_score"]
        predictions.append(prediction)
    return {
        "data": {
            "question": document["question"],
            "answer": document["answer_text"],
            "contexts": contexts_text(document["contexts"]),
            "groundview_answer": document["answer"],
        },
        # Who gave each annotation, in order: Label Studio ties `completed_by` to its own users.
        "meta": {"groundview_answer_id": document["answer_id"], "annotators": authors},
        "annotations": annotations,
        "predictions": predictions,
    }
