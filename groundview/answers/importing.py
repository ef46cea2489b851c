"""Import of answers: Vertex JSON (any proto3 JSON form), JSON arrays, JSONL, Ragas/DeepEval rows
and OpenInference traces (OTLP JSON exports, one answer per trace).

Each record is checked whole and written in its own transaction: a bad record is rejected with
an error naming it and the field, and the good records of the same file still import. Nothing in
a record can crash the import: what PostgreSQL cannot hold (NUL, lone surrogates, huge numbers,
over-long strings, hostile depth) is found first and reported like any other field error.
Records are keyed by `name`, so importing the same file twice, or twice at once, changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import DataError, IntegrityError, connection, transaction

from groundview.answers import projection, schema
from groundview.answers.formats import otlp, protojson, rows
from groundview.answers.models import UNFINISHED_STATES, Answer, Session
from groundview.answers.reading import (
    Record,
    is_answer_response,
    read_csv_records,
    read_records,
)
from groundview.answers.schema import RecordError
from groundview.errors import FieldError

__all__ = [
    "ImportResult",
    "Problem",
    "Record",
    "import_records",
    "import_text",
    "is_answer_response",
    "read_records",
]

# First key of the two-part advisory lock taken per session (or sessionless answer) while storing.
IMPORT_LOCK = 0x6776  # "gv"


class Problem(FieldError):
    """A rejected record, kept in ImportResult.problems rather than raised (the import goes on)."""

    def __init__(self, record: str, field: str, message: str) -> None:
        super().__init__(field, message, record=record)


@dataclass
class ImportResult:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    problems: list[Problem] = field(default_factory=list)
    # Answers whose stored document is new or changed, e.g. to queue grounding checks for.
    changed_answer_ids: list[int] = field(default_factory=list)
    # Spans of the traces that were rejected (OTLP's partial success counts spans, not records).
    rejected_spans: int = 0

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


NOT_A_ROW = (
    "has neither Ragas columns (user_input, response, retrieved_contexts; or question, answer, "
    "contexts) nor DeepEval ones (input, actual_output, retrieval_context)"
)


def split_record(
    data: Any, *, row_only: bool = False
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Return (answer, session or None) in the stored REST form, checked."""
    if not isinstance(data, dict):
        raise RecordError("", f"must be a JSON object, not {schema.describe(data)}")
    # Before anything reads the values, so that every later step sees storable JSON.
    schema.check_storable(data, "")
    row_format = rows.detect(data)
    if row_format is not None:
        data = rows.to_answer_response(data, row_format)
    elif row_only:
        raise RecordError("", NOT_A_ROW)
    if is_answer_response(data):
        response = protojson.to_rest(data, "AnswerQueryResponse")
        answer, session = response["answer"], response.get("session")
        if session is not None:
            schema.validate_session(session)
            projection.check_columns(session, projection.SESSION_COLUMNS, "session")
        try:
            schema.validate_answer(answer)
            projection.check_columns(answer, projection.ANSWER_COLUMNS)
        except RecordError as error:
            raise RecordError(
                schema.join("answer", error.field) if error.field else "answer", error.message
            ) from None
        # An answer is filed under the session its name says; another session here would file
        # it where the Vertex API never lists it.
        named = session_name_of(answer["name"])
        if session is not None and named and session["name"] != named:
            raise RecordError(
                "session.name",
                f"is {session['name']!r}, but the answer's name puts it in {named!r}",
            )
        return answer, session
    answer = protojson.to_rest(data, "Answer")
    schema.validate_answer(answer)
    projection.check_columns(answer, projection.ANSWER_COLUMNS)
    return answer, None


_SESSION_NAME = re.compile(r"/sessions/[^/]+$")


def is_session(data: Any) -> bool:
    """A Vertex Session document (`sessions.get`), not an Answer: read as one, it would be stored
    as an empty answer with the session's state, and the answers in its turns lost."""
    if not isinstance(data, dict) or rows.detect(data) is not None:
        return False
    name = data.get("name")
    return (isinstance(name, str) and bool(_SESSION_NAME.search(name))) or "turns" in data


def split_session(data: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The answers of a Session read with `includeAnswerDetails=true`, each with the session.

    Each turn's `detailedAnswer` becomes an answer of its own; the stored session keeps the turn
    with the answer's name, as `sessions.get` writes it without the details, so the question is
    kept once and an export with sessions gives each answer back as an :answer response.
    """
    schema.check_storable(data, "")
    session = protojson.to_rest(data, "Session")
    turns = session.get("turns")
    details = []
    if isinstance(turns, list):
        for i, turn in enumerate(turns):
            if isinstance(turn, dict) and "detailedAnswer" in turn:
                details.append((i, turn.pop("detailedAnswer")))
    schema.SESSION(session, "")
    if not session.get("name"):
        raise RecordError("name", "is required: sessions are keyed by their resource name")
    projection.check_columns(session, projection.SESSION_COLUMNS)
    if not details:
        raise RecordError(
            "turns",
            "hold no detailedAnswer: read the session with includeAnswerDetails=true "
            "(sessions.get), or import each answer as an :answer response "
            '({"answer": …, "session": …}) or as an Answer document',
        )
    answers = []
    for i, answer in details:
        path = f"turns[{i}].detailedAnswer"
        try:
            schema.validate_answer(answer)
            projection.check_columns(answer, projection.ANSWER_COLUMNS)
        except RecordError as error:
            field = schema.join(path, error.field) if error.field else path
            raise RecordError(field, error.message) from None
        turn = session["turns"][i]
        # The client library's to_json writes an unset name as "".
        turn["answer"] = turn.get("answer") or answer["name"]
        if turn["answer"] != answer["name"]:
            raise RecordError(
                f"turns[{i}].answer",
                f"is {turn['answer']!r}, but its detailedAnswer is {answer['name']!r}",
            )
        if session_name_of(answer["name"]) != session["name"]:
            raise RecordError(
                f"{path}.name",
                f"is {answer['name']!r}, not an answer of session {session['name']!r}",
            )
        answers.append(answer)
    return [(answer, session) for answer in answers]


@transaction.atomic
def store_session(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[tuple[str, int]]:
    """Store a session's answers together: one bad answer rejects the session whole."""
    stored = []
    for answer, session in pairs:
        try:
            stored.append(store(answer, session))
        except RecordError as error:
            turn = next(
                i
                for i, t in enumerate(session.get("turns", []))
                if t.get("answer") == answer["name"]
            )
            path = f"turns[{turn}].detailedAnswer"
            field = schema.join(path, error.field) if error.field else path
            raise RecordError(field, error.message) from None
    return stored


def import_records(records: Iterable[Record], *, rows_only: bool = False) -> ImportResult:
    result = ImportResult()
    # A trace's spans may be spread over several records (the Collector writes one export per
    # batch): they are gathered first, and each trace is stored once at the end.
    spans: list[otlp.Span] = []
    for record in records:
        if record.parse_error:
            result.problems.append(Problem(record.describe(), "", record.parse_error))
            continue
        if otlp.is_export(record.data) and not rows_only:
            try:
                schema.check_storable(record.data, "")
                spans += otlp.read_export(record.data)
            except RecordError as error:
                result.problems.append(Problem(record.describe(), error.field, error.message))
            continue
        session_document = not rows_only and is_session(record.data)
        try:
            if session_document:
                pairs = split_session(record.data)
            else:
                pairs = [split_record(record.data, row_only=rows_only)]
        except RecordError as error:
            result.problems.append(Problem(record.describe(), error.field, error.message))
            continue
        try:
            outcomes = store_session(pairs) if session_document else [store(*pairs[0])]
        except RecordError as error:
            field = error.field if session_document else as_written(record.data, error.field)
            result.problems.append(Problem(record.describe(), field, error.message))
            continue
        except (IntegrityError, DataError) as error:
            # Every known cause is checked above; this keeps an unforeseen one per-record too.
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            result.problems.append(
                Problem(record.describe(), "", f"could not be stored: {message}")
            )
            continue
        for outcome, answer_id in outcomes:
            setattr(result, outcome, getattr(result, outcome) + 1)
            if outcome != "unchanged":
                result.changed_answer_ids.append(answer_id)
    if spans:
        import_spans(spans, result)
    return result


def as_written(data: Any, field: str) -> str:
    """A stored answer's field as the record names it: "answer.answerText" in an :answer
    response, the response column ("actual_output") in a Ragas or DeepEval row."""
    row_format = rows.detect(data) if isinstance(data, dict) else None
    if row_format is not None:
        return rows.first(data, row_format.response)[0] if field == "answerText" else field
    return schema.join("answer", field) if is_answer_response(data) else field


def import_spans(spans: list[otlp.Span], result: ImportResult | None = None) -> ImportResult:
    """Store the traces these spans belong to, one answer each, merged with what is stored.

    A rejected trace is a problem named `trace <id>`; its spans count in result.rejected_spans.
    """
    result = result or ImportResult()
    for trace_id, trace in otlp.by_trace(spans).items():
        bad = next((span.problem for span in trace if span.problem is not None), None)
        if bad is not None:
            result.problems.append(Problem(f"trace {trace_id}", bad.field, bad.message))
            result.rejected_spans += len(trace)
            continue
        try:
            outcome, answer_id, state = store_trace(trace_id, trace)
        except RecordError as error:
            result.problems.append(Problem(f"trace {trace_id}", error.field, error.message))
            result.rejected_spans += len(trace)
            continue
        except (IntegrityError, DataError) as error:
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            result.problems.append(
                Problem(f"trace {trace_id}", "", f"could not be stored: {message}")
            )
            result.rejected_spans += len(trace)
            continue
        setattr(result, outcome, getattr(result, outcome) + 1)
        # A trace whose root span has not arrived is not checked yet: its answer may change.
        if outcome != "unchanged" and state not in UNFINISHED_STATES:
            result.changed_answer_ids.append(answer_id)
    return result


@transaction.atomic
def store_trace(trace_id: str, spans: list[otlp.Span]) -> tuple[str, int, str]:
    """Merge these spans into the trace's stored answer (or make it); (outcome, answer id, state).

    Locked per trace, so that two batches of one trace arriving at once merge rather than race.
    """
    lock_for_import(f"trace {trace_id}")
    names = otlp.possible_names(trace_id, spans)
    existing = Answer.objects.select_for_update().filter(name__in=names).order_by("pk").first()
    if existing is not None:
        try:
            spans = otlp.merge(otlp.stored_spans(existing.raw), spans)
        except RecordError as error:
            raise RecordError(
                "", f"the stored spans of this trace are unreadable: {error}"
            ) from None
    answer, session = split_record(otlp.to_answer_response(trace_id, spans))
    assert session is not None
    # The session's other turns (the conversation's other traces) stay; this trace's is updated.
    lock_for_import(session["name"])
    stored = Session.objects.filter(name=session["name"]).values_list("raw", flat=True).first()
    if stored:
        session = {**stored, **session, "turns": with_turn(stored.get("turns", []), session)}
    renamed = existing is not None and existing.name != answer["name"]
    if renamed:
        # The trace's first spans named no session; these do. Same answer, its labels and check
        # runs kept, under its session's name now.
        Answer.objects.filter(pk=existing.pk).update(name=answer["name"])
    outcome, answer_id = store(answer, session)
    if renamed:
        Session.objects.filter(name=otlp.lone_session_name(trace_id), answers=None).delete()
    return outcome, answer_id, answer["state"]


def import_text(text: str, *, csv: bool = False) -> ImportResult:
    """Import a file's text: JSON/JSONL, or with csv=True, Ragas or DeepEval rows as CSV."""
    if csv:
        return import_records(read_csv_records(text), rows_only=True)
    return import_records(read_records(text))


def with_turn(turns: list[dict[str, Any]], session: dict[str, Any]) -> list[dict[str, Any]]:
    """A session's turns with the one `session` brings for its answer, in its old place if any."""
    (turn,) = session["turns"]
    kept = [turn if old.get("answer") == turn["answer"] else old for old in turns]
    return kept if turn in kept else [*kept, turn]


def session_name_of(answer_name: str) -> str:
    if "/answers/" not in answer_name:
        return ""
    return answer_name.rsplit("/answers/", 1)[0]


def query_text_of(session_raw: dict[str, Any] | None, answer_name: str) -> str:
    for turn in (session_raw or {}).get("turns", []):
        if turn.get("answer") == answer_name:
            return turn.get("query", {}).get("text", "")
    return ""


def lock_for_import(*keys: str) -> None:
    """Serialise imports touching the same session, so two at once cannot insert it twice.

    A transaction-scoped advisory lock: released at commit, and taken in sorted order so that
    two imports never wait on each other in a circle.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for key in sorted(set(keys)):
            cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [IMPORT_LOCK, key])


@transaction.atomic
def store(answer_raw: dict[str, Any], session_raw: dict[str, Any] | None) -> tuple[str, int]:
    session_name = session_name_of(answer_raw["name"])
    lock_for_import(
        session_name or answer_raw["name"], *([session_raw["name"]] if session_raw else [])
    )
    session = upsert_session(session_name, session_raw)
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
    new_text = answer_raw.get("answerText", "")
    if existing is not None and existing.answer_text != new_text:
        # An unfinished answer's text grows as its trace's spans arrive; it is never labelled.
        if existing.state not in UNFINISHED_STATES:
            refuse_if_labelled(existing)
        # The stored check judged the old text; it stays in the answer's history, but it is not
        # the check of this text (a new one is queued after import when checks run on import).
        answer.latest_check = None
    answer.session = session
    answer.raw = answer_raw
    answer.state = answer_raw.get("state", "")
    answer.answer_text = new_text
    answer.query_text = query_text or answer.query_text
    answer.grounding_score = (
        float(answer_raw["groundingScore"]) if "groundingScore" in answer_raw else None
    )
    answer.create_time = optional_time(answer_raw, "createTime")
    answer.complete_time = optional_time(answer_raw, "completeTime")
    answer.save()
    if existing is not None:
        projection.clear_projection(answer)
    projection.build_projection(answer, answer_raw)
    return ("updated" if existing is not None else "created"), answer.pk


def refuse_if_labelled(answer: Answer) -> None:
    """Labels judge the text they were given: a new text would keep verdicts nobody gave it."""
    labels = answer.labels.count()
    settled = answer.adjudications.count()
    if not labels and not settled:
        return
    given = [f"{labels} reviewer label(s)"] if labels else []
    given += [f"{settled} adjudicated claim(s)"] if settled else []
    raise RecordError(
        "answerText",
        f"differs from the stored answer's text, which has {' and '.join(given)}; labels are "
        "kept with the text they judged, so import the new text under another name (or delete "
        "the labels first)",
    )


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
