"""Validation of Vertex `Answer` and `Session` documents before they are stored.

The rules are the documented ones: known fields must have their documented JSON types, byte spans
must lie inside the answer text on UTF-8 character boundaries, and every `referenceId` must name a
reference of the same answer. Unknown fields are allowed and kept, because the resource grows.
Every problem is reported as a `RecordError` naming the field path, e.g. `citations[2].endIndex`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from groundview.errors import FieldError


class RecordError(FieldError):
    """A field of an imported record is wrong; the importer adds which record it was."""


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


# Each checker takes (value, path) and raises RecordError when the value has the wrong shape.
Checker = Callable[[Any, str], None]


def describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def string(value: Any, path: str) -> None:
    if not isinstance(value, str):
        raise RecordError(path, f"must be a string, not {describe(value)}")


def boolean(value: Any, path: str) -> None:
    if not isinstance(value, bool):
        raise RecordError(path, f"must be a boolean, not {describe(value)}")


def as_number(value: Any, path: str) -> float:
    """A proto3 JSON double: a number or a numeric string."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise RecordError(path, f"must be a number, not {describe(value)}")
    try:
        number = float(value)
    except ValueError:
        raise RecordError(path, f"must be a number, not {value!r}") from None
    if not math.isfinite(number):
        raise RecordError(path, "must be a finite number")
    return number


def number(value: Any, path: str) -> None:
    as_number(value, path)


def score(value: Any, path: str) -> None:
    if not 0.0 <= as_number(value, path) <= 1.0:
        raise RecordError(path, f"must be between 0 and 1, not {value}")


INT64 = re.compile(r"-?[0-9]+\Z")


def as_int64(value: Any, path: str) -> int:
    """A proto3 JSON int64: a whole number or a string of digits."""
    if isinstance(value, bool):
        raise RecordError(path, "must be an integer, not a boolean")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and INT64.match(value):
        return int(value)
    raise RecordError(path, f"must be an integer, not {value!r}")


TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)\Z")


def parse_timestamp(value: Any, path: str) -> datetime:
    string(value, path)
    if not TIMESTAMP.match(value):
        raise RecordError(
            path, f'must be an RFC 3339 timestamp like "2024-05-01T12:00:00Z", not {value!r}'
        )
    try:
        parsed = datetime.fromisoformat(value)
        # Stored in UTC: "9999-12-31T23:59:59-23:59" would land in year 10000, beyond Python.
        parsed.astimezone(UTC)
    except (ValueError, OverflowError) as error:
        raise RecordError(path, f"is not a valid timestamp: {error}") from None
    return parsed


def timestamp(value: Any, path: str) -> None:
    parse_timestamp(value, path)


def free_object(value: Any, path: str) -> None:
    if not isinstance(value, dict):
        raise RecordError(path, f"must be an object, not {describe(value)}")


def array(item: Checker) -> Checker:
    def check(value: Any, path: str) -> None:
        if not isinstance(value, list):
            raise RecordError(path, f"must be an array, not {describe(value)}")
        for index, element in enumerate(value):
            item(element, join(path, index))

    return check


def obj(fields: Mapping[str, Checker]) -> Checker:
    def check(value: Any, path: str) -> None:
        free_object(value, path)
        for key, checker in fields.items():
            if key in value:
                checker(value[key], join(path, key))

    return check


string_map = obj({})

CHUNK_CONTENT = obj({"content": string, "pageIdentifier": string, "relevanceScore": number})
DOCUMENT_METADATA = obj(
    {
        "document": string,
        "uri": string,
        "title": string,
        "pageIdentifier": string,
        "structData": free_object,
    }
)
REFERENCE = obj(
    {
        "unstructuredDocumentInfo": obj(
            {
                "document": string,
                "uri": string,
                "title": string,
                "chunkContents": array(CHUNK_CONTENT),
                "structData": free_object,
            }
        ),
        "chunkInfo": obj(
            {
                "chunk": string,
                "content": string,
                "relevanceScore": number,
                "documentMetadata": DOCUMENT_METADATA,
            }
        ),
        "structuredDocumentInfo": obj(
            {"document": string, "structData": free_object, "title": string, "uri": string}
        ),
    }
)
SOURCE = obj({"referenceId": string})
SEARCH_RESULT = obj(
    {
        "document": string,
        "uri": string,
        "title": string,
        "snippetInfo": array(obj({"snippet": string, "snippetStatus": string})),
        "chunkInfo": array(obj({"chunk": string, "content": string, "relevanceScore": number})),
        "structData": free_object,
    }
)
STEP = obj(
    {
        "state": string,
        "description": string,
        "thought": string,
        "actions": array(
            obj(
                {
                    "searchAction": obj({"query": string}),
                    "observation": obj({"searchResults": array(SEARCH_RESULT)}),
                }
            )
        ),
    }
)
SAFETY_RATING = obj(
    {
        "category": string,
        "probability": string,
        "probabilityScore": number,
        "severity": string,
        "severityScore": number,
        "blocked": boolean,
    }
)
ANSWER = obj(
    {
        "name": string,
        "state": string,
        "answerText": string,
        "groundingScore": score,
        "citations": array(obj({"sources": array(SOURCE)})),
        "groundingSupports": array(
            obj(
                {
                    "sources": array(SOURCE),
                    "groundingScore": score,
                    "groundingCheckRequired": boolean,
                }
            )
        ),
        "references": array(REFERENCE),
        "relatedQuestions": array(string),
        "steps": array(STEP),
        "queryUnderstandingInfo": obj(
            {"queryClassificationInfo": array(obj({"type": string, "positive": boolean}))}
        ),
        "answerSkippedReasons": array(string),
        "createTime": timestamp,
        "completeTime": timestamp,
        "safetyRatings": array(SAFETY_RATING),
    }
)
SESSION = obj(
    {
        "name": string,
        "state": string,
        "userPseudoId": string,
        "displayName": string,
        "turns": array(obj({"query": obj({"text": string, "queryId": string}), "answer": string})),
        "startTime": timestamp,
        "endTime": timestamp,
        "isPinned": boolean,
    }
)


class BadNumber:
    """A number in the JSON text that no column or JSON writer can hold (NaN, 1e400, 5,000 digits).

    The parser returns this marker instead of failing, so the record is rejected with the path
    of the field that holds it, and the rest of the file still imports.
    """

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason

    def __repr__(self) -> str:
        shown = self.text if len(self.text) <= 24 else f"{self.text[:12]}…({len(self.text)} chars)"
        return f"{shown} {self.reason}"


# The JSON limits of every route in (imports, OTLP, the Check Grounding API), so one body is
# refused or taken the same way everywhere. Deeper than any Answer needs (protobuf's own parsers
# stop at 100 too); bounds every walk below.
MAX_DEPTH = 100
# A 64-bit integer has at most 20 digits; Python refuses to convert past 4,300, so longer
# literals are never converted.
MAX_INT_DIGITS = 20
INT_LIMIT = 2**64


class TwiceGiven(dict):
    """A JSON object that gave `key` twice (reading.mark_twice_given), kept as parsed so that
    only its own record is refused, naming it, not the file it came in."""

    key = ""


def string_problem(value: str) -> str:
    if "\x00" in value:
        return "contains the NUL character (U+0000), which cannot be stored"
    try:
        value.encode()
    except UnicodeEncodeError:
        return "is not valid Unicode (it has a lone surrogate)"
    return ""


def check_storable(value: Any, path: str) -> None:
    """Raise RecordError for the first value PostgreSQL or a JSON writer would choke on.

    Iterative, so a hostile depth cannot exhaust the stack before the limit is reached.
    """
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError(path, f"is nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, str):
            if problem := string_problem(value):
                raise RecordError(path, problem)
        elif isinstance(value, BadNumber):
            raise RecordError(path, repr(value))
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not -INT_LIMIT < value < INT_LIMIT:
                raise RecordError(path, "is too large an integer (at most 64 bits)")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise RecordError(path, f"must be a finite number, not {value}")
        elif isinstance(value, list):
            stack.extend(
                (item, join(path, index), depth + 1)
                for index, item in reversed(list(enumerate(value)))
            )
        elif isinstance(value, TwiceGiven):
            raise RecordError(path, f"gives the key {value.key!r} twice")
        elif isinstance(value, dict):
            for key in value:
                if problem := string_problem(key):
                    raise RecordError(path, f"has a key that {problem}")
            stack.extend(
                (item, join(path, key), depth + 1) for key, item in reversed(value.items())
            )
        else:
            raise RecordError(path, f"is not a JSON value ({type(value).__name__})")


def is_char_boundary(data: bytes, offset: int) -> bool:
    # UTF-8 continuation bytes look like 0b10xxxxxx; a boundary is never in front of one.
    return offset == len(data) or (data[offset] & 0xC0) != 0x80


@dataclass(frozen=True)
class Span:
    start: int
    end: int


def check_span(item: Mapping[str, Any], path: str, text: bytes) -> Span:
    # proto3 JSON omits zero values, so a missing index means 0.
    start = as_int64(item.get("startIndex", 0), join(path, "startIndex"))
    end = as_int64(item.get("endIndex", 0), join(path, "endIndex"))
    size = len(text)
    for key, offset in (("startIndex", start), ("endIndex", end)):
        field = join(path, key)
        if offset < 0:
            raise RecordError(field, f"must not be negative, got {offset}")
        if offset > size:
            raise RecordError(
                field, f"{offset} is beyond the end of answerText ({size} bytes in UTF-8)"
            )
        if not is_char_boundary(text, offset):
            raise RecordError(
                field, f"{offset} falls inside a UTF-8 encoded character of answerText"
            )
    if start > end:
        raise RecordError(path, f"startIndex {start} is after endIndex {end}")
    return Span(start, end)


REFERENCE_ID = re.compile(r"(0|[1-9][0-9]*)\Z")


def check_sources(item: Mapping[str, Any], path: str, reference_count: int) -> list[int]:
    positions = []
    for index, source in enumerate(item.get("sources", [])):
        field = join(join(join(path, "sources"), index), "referenceId")
        if "referenceId" not in source:
            raise RecordError(field, "is required")
        reference_id = source["referenceId"]
        if not REFERENCE_ID.match(reference_id) or int(reference_id) >= reference_count:
            raise RecordError(
                field,
                f"{reference_id!r} does not name a reference of this answer "
                f"(it has {reference_count}; ids are their positions, 0 to {reference_count - 1})"
                if reference_count
                else f"{reference_id!r} does not name a reference: this answer has no references",
            )
        positions.append(int(reference_id))
    return positions


def validate_answer(answer: Any) -> None:
    """Raise RecordError for the first problem in an Answer document."""
    check_storable(answer, "")
    ANSWER(answer, "")
    name = answer.get("name")
    if not name:
        raise RecordError("name", "is required: answers are keyed by their resource name")
    answer_id = name.rsplit("/answers/", 1)[1] if "/answers/" in name else None
    if answer_id is not None and (not answer_id or "/" in answer_id):
        # Google's routes take one path segment there: .../answers/a1/ could never be fetched.
        raise RecordError("name", "needs one answer id after its last /answers/, e.g. /answers/a1")
    text = answer.get("answerText", "")
    try:
        encoded = text.encode()
    except UnicodeEncodeError:
        raise RecordError("answerText", "is not valid Unicode (it has a lone surrogate)") from None
    reference_count = len(answer.get("references", []))
    for key in ("citations", "groundingSupports"):
        for index, item in enumerate(answer.get(key, [])):
            path = join(key, index)
            check_span(item, path, encoded)
            check_sources(item, path, reference_count)


def validate_session(session: Any) -> None:
    check_storable(session, "session")
    SESSION(session, "session")
    if not session.get("name"):
        raise RecordError("session.name", "is required")
