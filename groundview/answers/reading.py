"""Splitting an import file into records: one JSON value, a JSON array, JSON Lines, or CSV.

Parsing never fails a whole file for one bad record: a line that is not JSON becomes a record
with a parse error, and numbers no column can hold (NaN, 1e400, thousands of digits) are parsed
into `BadNumber` markers so the record is rejected with the path of the field that holds them.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from groundview.answers.schema import MAX_INT_DIGITS, BadNumber, TwiceGiven, string_problem


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
            name = answer.get("name") if isinstance(answer, dict) else None
            # Only a name that can be printed and stored; a bad one is the problem reported.
            if isinstance(name, str) and len(name) <= 2048 and not string_problem(name):
                return name
        return ""


def is_answer_response(data: dict[str, Any]) -> bool:
    """The `:answer` method's response wraps the Answer: {"answer": {...}, "session": {...}}."""
    return (
        isinstance(data.get("answer"), dict)
        and "answerText" not in data
        and "answer_text" not in data
        and "name" not in data
    )


def parse_int(text: str) -> int | BadNumber:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        return BadNumber(text, "is too large an integer (at most 64 bits)")
    return int(text)


def parse_float(text: str) -> float | BadNumber:
    number = float(text)
    if not math.isfinite(number):
        return BadNumber(text, "is out of range for a number (the largest is about 1.8e308)")
    return number


def parse_constant(text: str) -> BadNumber:
    return BadNumber(text, "is not JSON: JSON has no NaN or Infinity")


class DuplicateKey(ValueError):
    """An object that gives one key twice: JSON parsers keep either, so its meaning is unknown."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key!r} is given twice in one object")
        self.key = key


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise DuplicateKey(key)
        data[key] = value
    return data


def mark_twice_given(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    try:
        return unique_keys(pairs)
    except DuplicateKey as error:
        marked = TwiceGiven(pairs)
        marked.key = error.key
        return marked


def loads(text: str, *, mark_duplicates: bool = False) -> Any:
    """json.loads that neither fails on, nor lets through, numbers no column can hold, and that
    refuses a key given twice (as Google's parsers do) rather than keep the last one: raising
    DuplicateKey, or with `mark_duplicates` returning the object as a TwiceGiven."""
    return json.loads(
        text,
        parse_int=parse_int,
        parse_float=parse_float,
        parse_constant=parse_constant,
        object_pairs_hook=mark_twice_given if mark_duplicates else unique_keys,
    )


def parse_failure(error: Exception) -> str:
    if isinstance(error, json.JSONDecodeError):
        # Some of json's messages end in "at" already ("Unterminated string starting at").
        at = "" if error.msg.endswith(" at") else " at"
        return f"malformed JSON: {error.msg}{at} column {error.colno}"
    if isinstance(error, RecursionError):
        return "malformed JSON: nested too deeply to read"
    return f"malformed JSON: {error}"


# What loads() can raise on hostile text besides a decode error.
PARSE_ERRORS = (json.JSONDecodeError, RecursionError, ValueError, MemoryError)


def read_records(text: str) -> Iterator[Record]:
    """Split an import file into records: one JSON value, a JSON array, or JSON Lines."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return
    try:
        whole = loads(text, mark_duplicates=True)
    except PARSE_ERRORS:
        pass
    else:
        if isinstance(whole, list):
            for index, item in enumerate(whole):
                yield Record(where=f"item {index}", data=item)
        else:
            yield Record(where="record", data=whole)
        return
    # JSON Lines end with "\n" only. str.splitlines() would also split on U+2028, U+0085 and
    # other characters that JSON allows unescaped inside strings, and cut records in two.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            data = loads(line, mark_duplicates=True)
        except PARSE_ERRORS as error:
            yield Record(where=f"line {number}", parse_error=parse_failure(error))
        else:
            yield Record(where=f"line {number}", data=data)


def read_csv_records(text: str) -> Iterator[Record]:
    """Rows of a CSV file with a header line, as {column: cell} records named by line number."""
    text = text.removeprefix("\ufeff")
    # A context may be long; the default cell limit (128 KiB) would stop the whole file.
    csv.field_size_limit(max(csv.field_size_limit(), len(text) + 1))
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        return
    header = [column.strip() for column in header]
    while True:
        start = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            yield Record(where=f"line {start}", parse_error=f"malformed CSV: {error}")
            if reader.line_num < start:
                return  # the reader cannot get past it
            continue
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) > len(header):
            yield Record(
                where=f"line {start}",
                parse_error=f"has {len(cells)} cells but the header names {len(header)} columns",
            )
            continue
        yield Record(where=f"line {start}", data=dict(zip(header, cells, strict=False)))
