"""The typed tables built from a stored Answer document, and the limits their columns set.

The document (`Answer.raw`) is the record; these rows are a projection of it for filtering,
joins and highlighting, rebuilt whenever a re-import changes the document.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db import models

from groundview.answers import schema
from groundview.answers.models import (
    Answer,
    Citation,
    GroundingSupport,
    QueryClassification,
    Reference,
    ReferenceChunk,
    RelatedQuestion,
    SafetyRating,
    SearchResult,
    SearchResultChunk,
    SearchResultSnippet,
    Session,
    SkippedReason,
    Step,
    StepAction,
)
from groundview.answers.schema import RecordError

# Where each length-limited column takes its value from, so an over-long string is rejected with
# its field path instead of failing the INSERT. "[]" stands for every element of an array.
ANSWER_COLUMNS: list[tuple[str, models.Field]] = [
    ("name", Answer._meta.get_field("name")),
    ("state", Answer._meta.get_field("state")),
    ("references[].unstructuredDocumentInfo.document", Reference._meta.get_field("document")),
    ("references[].unstructuredDocumentInfo.uri", Reference._meta.get_field("uri")),
    (
        "references[].unstructuredDocumentInfo.chunkContents[].pageIdentifier",
        ReferenceChunk._meta.get_field("page_identifier"),
    ),
    ("references[].chunkInfo.chunk", Reference._meta.get_field("chunk")),
    ("references[].chunkInfo.documentMetadata.document", Reference._meta.get_field("document")),
    ("references[].chunkInfo.documentMetadata.uri", Reference._meta.get_field("uri")),
    (
        "references[].chunkInfo.documentMetadata.pageIdentifier",
        Reference._meta.get_field("page_identifier"),
    ),
    ("references[].structuredDocumentInfo.document", Reference._meta.get_field("document")),
    ("references[].structuredDocumentInfo.uri", Reference._meta.get_field("uri")),
    ("answerSkippedReasons[]", SkippedReason._meta.get_field("reason")),
    (
        "queryUnderstandingInfo.queryClassificationInfo[].type",
        QueryClassification._meta.get_field("type"),
    ),
    ("safetyRatings[].category", SafetyRating._meta.get_field("category")),
    ("safetyRatings[].probability", SafetyRating._meta.get_field("probability")),
    ("safetyRatings[].severity", SafetyRating._meta.get_field("severity")),
    ("steps[].state", Step._meta.get_field("state")),
    (
        "steps[].actions[].observation.searchResults[].document",
        SearchResult._meta.get_field("document"),
    ),
    ("steps[].actions[].observation.searchResults[].uri", SearchResult._meta.get_field("uri")),
    (
        "steps[].actions[].observation.searchResults[].snippetInfo[].snippetStatus",
        SearchResultSnippet._meta.get_field("snippet_status"),
    ),
    (
        "steps[].actions[].observation.searchResults[].chunkInfo[].chunk",
        SearchResultChunk._meta.get_field("chunk"),
    ),
]
SESSION_COLUMNS: list[tuple[str, models.Field]] = [
    ("name", Session._meta.get_field("name")),
    ("state", Session._meta.get_field("state")),
    ("userPseudoId", Session._meta.get_field("user_pseudo_id")),
]
# PostgreSQL cannot put a btree index entry over ~2,700 bytes; names are uniquely indexed.
MAX_NAME_BYTES = 2048


def values_at(document: Any, steps: list[str], path: str) -> Iterator[tuple[str, Any]]:
    if not steps:
        yield path, document
        return
    step, rest = steps[0], steps[1:]
    every = step.endswith("[]")
    key = step.removesuffix("[]")
    value = document.get(key) if isinstance(document, dict) and key else document
    if value is None:
        return
    path = schema.join(path, key) if key else path
    if every:
        for index, item in enumerate(value if isinstance(value, list) else []):
            yield from values_at(item, rest, schema.join(path, index))
    else:
        yield from values_at(value, rest, path)


def check_columns(
    document: dict[str, Any], columns: list[tuple[str, models.Field]], path=""
) -> None:
    """Raise RecordError for a string longer than the column it is projected into."""
    for pattern, column in columns:
        for field, value in values_at(document, pattern.split("."), path):
            if isinstance(value, str) and len(value) > column.max_length:
                raise RecordError(
                    field,
                    f"is {len(value)} characters long; at most {column.max_length} can be stored",
                )
    name = document.get("name")
    if isinstance(name, str) and len(name.encode()) > MAX_NAME_BYTES:
        raise RecordError(
            schema.join(path, "name"),
            f"is {len(name.encode())} bytes in UTF-8; at most {MAX_NAME_BYTES} can be indexed",
        )


def clear_projection(answer: Answer) -> None:
    # Children cascade from these; references last, since citations point at them.
    answer.citations.all().delete()
    answer.grounding_supports.all().delete()
    answer.steps.all().delete()
    answer.related_questions.all().delete()
    answer.skipped_reasons.all().delete()
    answer.query_classifications.all().delete()
    answer.safety_ratings.all().delete()
    answer.references.all().delete()


def optional_float(data: dict[str, Any], key: str) -> float | None:
    return float(data[key]) if key in data else None


def build_projection(answer: Answer, raw: dict[str, Any]) -> None:
    references = Reference.objects.bulk_create(
        [
            reference_row(answer, position, item)
            for position, item in enumerate(raw.get("references", []))
        ]
    )
    chunks = []
    for reference, item in zip(references, raw.get("references", []), strict=True):
        for position, chunk in enumerate(
            item.get("unstructuredDocumentInfo", {}).get("chunkContents", [])
        ):
            chunks.append(
                ReferenceChunk(
                    reference=reference,
                    position=position,
                    content=chunk.get("content", ""),
                    page_identifier=chunk.get("pageIdentifier", ""),
                    relevance_score=optional_float(chunk, "relevanceScore"),
                )
            )
    ReferenceChunk.objects.bulk_create(chunks)

    build_spans(answer, raw.get("citations", []), Citation, references)
    build_spans(answer, raw.get("groundingSupports", []), GroundingSupport, references)

    RelatedQuestion.objects.bulk_create(
        RelatedQuestion(answer=answer, position=position, text=text)
        for position, text in enumerate(raw.get("relatedQuestions", []))
    )
    SkippedReason.objects.bulk_create(
        SkippedReason(answer=answer, position=position, reason=reason)
        for position, reason in enumerate(raw.get("answerSkippedReasons", []))
    )
    QueryClassification.objects.bulk_create(
        QueryClassification(
            answer=answer,
            position=position,
            type=item.get("type", ""),
            # Plain proto3 bools: the REST form omits false, so absent means false.
            positive=item.get("positive", False),
        )
        for position, item in enumerate(
            raw.get("queryUnderstandingInfo", {}).get("queryClassificationInfo", [])
        )
    )
    SafetyRating.objects.bulk_create(
        SafetyRating(
            answer=answer,
            position=position,
            category=item.get("category", ""),
            probability=item.get("probability", ""),
            probability_score=optional_float(item, "probabilityScore"),
            severity=item.get("severity", ""),
            severity_score=optional_float(item, "severityScore"),
            blocked=item.get("blocked", False),
        )
        for position, item in enumerate(raw.get("safetyRatings", []))
    )
    build_steps(answer, raw.get("steps", []))


def reference_row(answer: Answer, position: int, item: dict[str, Any]) -> Reference:
    row = Reference(answer=answer, position=position)
    if "unstructuredDocumentInfo" in item:
        info = item["unstructuredDocumentInfo"]
        row.kind = Reference.Kind.UNSTRUCTURED
        row.document = info.get("document", "")
        row.uri = info.get("uri", "")
        row.title = info.get("title", "")
        row.struct_data = info.get("structData")
    elif "chunkInfo" in item:
        info = item["chunkInfo"]
        metadata = info.get("documentMetadata", {})
        row.kind = Reference.Kind.CHUNK
        row.chunk = info.get("chunk", "")
        row.content = info.get("content", "")
        row.relevance_score = optional_float(info, "relevanceScore")
        row.document = metadata.get("document", "")
        row.uri = metadata.get("uri", "")
        row.title = metadata.get("title", "")
        row.page_identifier = metadata.get("pageIdentifier", "")
        row.struct_data = metadata.get("structData")
    elif "structuredDocumentInfo" in item:
        info = item["structuredDocumentInfo"]
        row.kind = Reference.Kind.STRUCTURED
        row.document = info.get("document", "")
        row.uri = info.get("uri", "")
        row.title = info.get("title", "")
        row.struct_data = info.get("structData")
    else:
        row.kind = Reference.Kind.UNKNOWN
    return row


def build_spans(
    answer: Answer,
    items: list[dict[str, Any]],
    model: type[Citation] | type[GroundingSupport],
    references: list[Reference],
) -> None:
    rows = []
    for position, item in enumerate(items):
        row = model(
            answer=answer,
            position=position,
            start_index=schema.as_int64(item.get("startIndex", 0), "startIndex"),
            end_index=schema.as_int64(item.get("endIndex", 0), "endIndex"),
        )
        if isinstance(row, GroundingSupport):
            row.grounding_score = optional_float(item, "groundingScore")
            row.grounding_check_required = item.get("groundingCheckRequired")
        rows.append(row)
    rows = model.objects.bulk_create(rows)
    through = model.references.through
    links = []
    seen = set()
    for row, item in zip(rows, items, strict=True):
        for source in item.get("sources", []):
            reference = references[int(source["referenceId"])]
            # A source listed twice is kept in `raw`; the link table holds it once.
            if (row.pk, reference.pk) in seen:
                continue
            seen.add((row.pk, reference.pk))
            links.append(
                through(**{f"{model.__name__.lower()}_id": row.pk, "reference_id": reference.pk})
            )
    through.objects.bulk_create(links)


def build_steps(answer: Answer, steps: list[dict[str, Any]]) -> None:
    for position, item in enumerate(steps):
        step = Step.objects.create(
            answer=answer,
            position=position,
            state=item.get("state", ""),
            description=item.get("description", ""),
            thought=item.get("thought", ""),
        )
        for action_position, action_raw in enumerate(item.get("actions", [])):
            action = StepAction.objects.create(
                step=step,
                position=action_position,
                search_query=action_raw.get("searchAction", {}).get("query", ""),
            )
            results = action_raw.get("observation", {}).get("searchResults", [])
            for result_position, result_raw in enumerate(results):
                result = SearchResult.objects.create(
                    action=action,
                    position=result_position,
                    document=result_raw.get("document", ""),
                    uri=result_raw.get("uri", ""),
                    title=result_raw.get("title", ""),
                    struct_data=result_raw.get("structData"),
                )
                SearchResultSnippet.objects.bulk_create(
                    SearchResultSnippet(
                        result=result,
                        position=snippet_position,
                        snippet=snippet.get("snippet", ""),
                        snippet_status=snippet.get("snippetStatus", ""),
                    )
                    for snippet_position, snippet in enumerate(result_raw.get("snippetInfo", []))
                )
                SearchResultChunk.objects.bulk_create(
                    SearchResultChunk(
                        result=result,
                        position=chunk_position,
                        chunk=chunk.get("chunk", ""),
                        content=chunk.get("content", ""),
                        relevance_score=optional_float(chunk, "relevanceScore"),
                    )
                    for chunk_position, chunk in enumerate(result_raw.get("chunkInfo", []))
                )
