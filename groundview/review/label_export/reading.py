"""Reading: one self-contained document per answer, in chunks of CHUNK answers."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any

from django.db.models import QuerySet

from groundview.answers.checks.requests import citation_name, cited_source, struct_text
from groundview.answers.models import Answer, CheckRun, Reference, ReferenceChunk
from groundview.review.adjudication import final_verdict
from groundview.review.agreement import checker_outcome
from groundview.review.filters import filter_answers
from groundview.review.models import Adjudication, AnswerLabel, ClaimLabel

# Answers per chunk, and rows per Parquet row group.
CHUNK = 200


class ExportError(ValueError):
    """A format that cannot be written here (unknown, or its library is not installed)."""


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
    """One self-contained document per answer, in the queryset's order, read in chunks.

    The checker's claims are those of `latest_check`, as every page shows them: a re-import that
    changes the text clears it, and an older run's spans would be spans of another text."""
    rows = answers.values_list(
        "pk",
        "name",
        "session__name",
        "state",
        "query_text",
        "answer_text",
        "grounding_score",
        "latest_check_id",
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
            "pk",
            "answer_id",
            "position",
            "title",
            "uri",
            "document",
            "chunk",
            "content",
            "struct_data",
            named=True,
        )
    )
    chunks: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for reference_id, position, content in (
        ReferenceChunk.objects.filter(reference_id__in=[r.pk for r in references])
        .order_by("reference_id", "position")
        .values_list("reference_id", "position", "content")
    ):
        chunks[reference_id].append((position, content))
    contexts: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for ref in references:
        base = {
            "reference": ref.position,
            "title": ref.title,
            "uri": ref.uri,
            "document": ref.document,
            # A chunkInfo reference's chunk resource name, which a caller needs to find the chunk
            # again; `chunk` is the position among a document's chunkContents.
            "chunk_name": ref.chunk,
        }
        if chunks[ref.pk]:
            for chunk, text in chunks[ref.pk]:
                contexts[ref.answer_id].append(base | {"chunk": chunk, "text": text})
        elif ref.content or not ref.struct_data:
            contexts[ref.answer_id].append(base | {"chunk": None, "text": ref.content})
        else:
            contexts[ref.answer_id].append(
                base | {"chunk": None, "text": struct_text(ref.struct_data)}
            )
    return contexts


def labels_of(answer_ids: list[int]) -> tuple[dict, dict]:
    """(answer id -> its labels, answer id -> {(start, end): [each reviewer's claim verdict]})."""
    labels: dict[int, list[dict[str, Any]]] = defaultdict(list)
    reviewer_of: dict[int, tuple[int, str]] = {}
    for pk, answer_id, reviewer, verdict, from_claims, note, created, updated in (
        AnswerLabel.objects.filter(answer_id__in=answer_ids)
        .order_by("answer_id", "created_at", "pk")
        .values_list(
            "pk",
            "answer_id",
            "reviewer__username",
            "verdict",
            "verdict_from_claims",
            "note",
            "created_at",
            "updated_at",
        )
    ):
        reviewer_of[pk] = (answer_id, reviewer)
        labels[answer_id].append(
            {
                "reviewer": reviewer,
                "verdict": verdict,
                "verdict_from_claims": from_claims,
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
        chunk = chunks[index] if isinstance(index, int) and 0 <= index < len(chunks) else None
        source = cited_source(chunk, sources)
        if source is None:
            continue  # a search result seen in the steps, not a reference
        name = citation_name(source)
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
