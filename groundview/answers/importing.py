"""Import of Vertex answers from JSON, JSON arrays or JSONL.

Each record is validated whole and written in its own transaction: a bad record is rejected with
an error naming it and the field, and the good records of the same file still import. Records are
keyed by `name`, so importing the same file twice changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

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


@dataclass
class Record:
    """One record of an import file: where it came from and its parsed JSON (or why it has none)."""

    where: str
    data: Any = None
    parse_error: str = ""

    def describe(self) -> str:
        name = self.answer_name()
        return f"{self.where} ({name})" if name else self.where

    def answer_name(self) -> str:
        if isinstance(self.data, dict):
            answer = self.data.get("answer") if is_answer_response(self.data) else self.data
            if isinstance(answer, dict) and isinstance(answer.get("name"), str):
                return answer["name"]
        return ""


@dataclass
class Problem:
    record: str
    field: str
    message: str

    def __str__(self) -> str:
        prefix = f"{self.record}: " if self.record else ""
        return f"{prefix}{self.field}: {self.message}" if self.field else f"{prefix}{self.message}"


@dataclass
class ImportResult:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    problems: list[Problem] = field(default_factory=list)
    # Answers whose stored document is new or changed, e.g. to queue grounding checks for.
    changed_answer_ids: list[int] = field(default_factory=list)

    @property
    def imported(self) -> int:
        return self.created + self.updated + self.unchanged

    @property
    def rejected(self) -> int:
        return len(self.problems)

    def summary(self) -> str:
        return (
            f"{self.imported} imported ({self.created} new, {self.updated} updated, "
            f"{self.unchanged} unchanged), {self.rejected} rejected"
        )


def is_answer_response(data: dict[str, Any]) -> bool:
    """The `:answer` method's response wraps the Answer: {"answer": {...}, "session": {...}}."""
    return isinstance(data.get("answer"), dict) and "answerText" not in data and "name" not in data


def read_records(text: str) -> Iterator[Record]:
    """Split an import file into records: one JSON value, a JSON array, or JSON Lines."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
        is_jsonl = True
    else:
        is_jsonl = False
    if not is_jsonl:
        if isinstance(whole, list):
            for index, item in enumerate(whole):
                yield Record(where=f"item {index}", data=item)
        else:
            yield Record(where="record", data=whole)
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield Record(where=f"line {number}", data=json.loads(line))
        except json.JSONDecodeError as error:
            yield Record(
                where=f"line {number}",
                parse_error=f"malformed JSON: {error.msg} at column {error.colno}",
            )


def split_record(data: Any) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Return (answer, session or None), validated."""
    if not isinstance(data, dict):
        raise RecordError("", f"must be a JSON object, not {schema.describe(data)}")
    if is_answer_response(data):
        answer, session = data["answer"], data.get("session")
        if session is not None:
            schema.validate_session(session)
        try:
            schema.validate_answer(answer)
        except RecordError as error:
            raise RecordError(
                schema.join("answer", error.field) if error.field else "answer", error.message
            ) from None
        return answer, session
    schema.validate_answer(data)
    return data, None


def import_records(records: Iterable[Record]) -> ImportResult:
    result = ImportResult()
    for record in records:
        if record.parse_error:
            result.problems.append(Problem(record.describe(), "", record.parse_error))
            continue
        try:
            answer, session = split_record(record.data)
        except RecordError as error:
            result.problems.append(Problem(record.describe(), error.field, error.message))
            continue
        outcome, answer_id = store(answer, session)
        if outcome == "created":
            result.created += 1
        elif outcome == "updated":
            result.updated += 1
        else:
            result.unchanged += 1
        if outcome != "unchanged":
            result.changed_answer_ids.append(answer_id)
    return result


def import_text(text: str) -> ImportResult:
    return import_records(read_records(text))


def session_name_of(answer_name: str) -> str:
    if "/answers/" not in answer_name:
        return ""
    return answer_name.rsplit("/answers/", 1)[0]


def query_text_of(session_raw: dict[str, Any] | None, answer_name: str) -> str:
    for turn in (session_raw or {}).get("turns", []):
        if turn.get("answer") == answer_name:
            return turn.get("query", {}).get("text", "")
    return ""


@transaction.atomic
def store(answer_raw: dict[str, Any], session_raw: dict[str, Any] | None) -> tuple[str, int]:
    session = upsert_session(session_name_of(answer_raw["name"]), session_raw)
    existing = Answer.objects.select_for_update().filter(name=answer_raw["name"]).first()
    query_text = query_text_of(
        session_raw or (session.raw if session else None), answer_raw["name"]
    )
    if (
        existing is not None
        and existing.raw == answer_raw
        and existing.session_id == (session.pk if session else None)
    ):
        if query_text and existing.query_text != query_text:
            existing.query_text = query_text
            existing.save(update_fields=["query_text", "updated_at"])
        return "unchanged", existing.pk

    answer = existing or Answer(name=answer_raw["name"])
    answer.session = session
    answer.raw = answer_raw
    answer.state = answer_raw.get("state", "")
    answer.answer_text = answer_raw.get("answerText", "")
    answer.query_text = query_text or answer.query_text
    answer.grounding_score = (
        float(answer_raw["groundingScore"]) if "groundingScore" in answer_raw else None
    )
    answer.create_time = optional_time(answer_raw, "createTime")
    answer.complete_time = optional_time(answer_raw, "completeTime")
    answer.save()
    if existing is not None:
        clear_projection(answer)
    build_projection(answer, answer_raw)
    return ("updated" if existing is not None else "created"), answer.pk


def upsert_session(name: str, raw: dict[str, Any] | None) -> Session | None:
    if raw is not None:
        name = raw["name"]
    if not name:
        return None
    session, created = Session.objects.get_or_create(name=name)
    if raw is not None and session.raw != raw and not is_older_snapshot(raw, session.raw):
        session.raw = raw
        session.state = raw.get("state", "")
        session.user_pseudo_id = raw.get("userPseudoId", "")
        session.start_time = optional_time(raw, "startTime")
        session.end_time = optional_time(raw, "endTime")
        session.save()
        # Answers imported before their session learn their question now.
        for turn in raw.get("turns", []):
            query = turn.get("query", {}).get("text", "")
            if query and turn.get("answer"):
                Answer.objects.filter(name=turn["answer"], query_text="").update(query_text=query)
    return session


def is_older_snapshot(new: dict[str, Any], stored: dict[str, Any] | None) -> bool:
    """Each :answer response carries its session's turns so far; an earlier one must not win."""
    if stored is None:
        return False
    new_turns, stored_turns = new.get("turns", []), stored.get("turns", [])
    return len(new_turns) < len(stored_turns) and stored_turns[: len(new_turns)] == new_turns


def optional_time(data: dict[str, Any], key: str) -> Any:
    return schema.parse_timestamp(data[key], key) if key in data else None


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
            positive=item.get("positive"),
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
            blocked=item.get("blocked"),
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
