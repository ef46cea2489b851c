"""Ragas and DeepEval rows as Check Grounding requests, for the CLI's CI gate (`--rows`).

    python -m groundview.grounding --rows rows.jsonl --min-support 0.7 [--format csv]

A row is one answer with its retrieved contexts, as either tool writes it:
Ragas (current) `user_input`, `response`, `retrieved_contexts`; Ragas (older) `question`, `answer`,
`contexts`; DeepEval `input`, `actual_output`, `retrieval_context`. Rows come from JSONL (one object per
line) or CSV (contexts as a JSON array of strings, a Python list as pandas writes it, or one plain
string), in UTF-8 with or without a byte-order mark. Nothing is stored.

A context may be a whole document: one longer than a fact may be (10,000 characters) is sent as several
facts cut at sentence ends, and citations still name the context; a title line that opens it ("Title:
…") is the title of every part.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .claims import split_sentences
from .evidence import title_line
from .schema import MAX_FACT_CHARS

ANSWER_KEYS = ("response", "answer", "actual_output")
CONTEXT_KEYS = ("retrieved_contexts", "contexts", "retrieval_context")
QUESTION_KEYS = ("user_input", "question", "input")


class RowError(ValueError):
    """A row that is not a Ragas/DeepEval record; names the row and the field."""


@dataclass(frozen=True)
class Row:
    number: int  # 1-based line or record number
    question: str
    request: dict[str, Any]
    contexts: tuple[int, ...] = ()  # per fact of the request, the context it was cut from


def pieces(text: str, limit: int = MAX_FACT_CHARS) -> list[str]:
    """`text` as parts of at most `limit` characters, cut where sentences end (inside a sentence
    longer than that, at a space); blank parts are left out."""
    if len(text) <= limit:
        return [text.strip()] if text.strip() else []
    out: list[str] = []
    start = end = 0
    for sentence in split_sentences(text):
        if sentence.end - start > limit and end > start:
            out.append(text[start:end])
            start = sentence.start
        while sentence.end - start > limit:
            cut = text.rfind(" ", start + 1, start + limit)
            cut = cut if cut > start else start + limit
            out.append(text[start:cut])
            start = cut
        end = sentence.end
    if end > start:
        out.append(text[start:end])
    return [p.strip() for p in out if p.strip()]


def _first(row: Mapping[str, Any], keys: tuple[str, ...]) -> tuple[str, Any] | None:
    for key in keys:
        if key in row and row[key] is not None:
            return key, row[key]
    return None


def list_cell(cell: str) -> Any:
    """A CSV cell holding a list: JSON, or the Python literal pandas writes for a list column
    (`['a', 'b']`). ValueError when it is neither."""
    try:
        return json.loads(cell)
    except (ValueError, RecursionError):
        pass
    try:
        return ast.literal_eval(cell)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        raise ValueError(
            "looks like a list but is neither JSON nor a Python list literal"
        ) from None


def _contexts(value: Any, field: str, number: int) -> list[str]:
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = list_cell(text)
            except ValueError as exc:
                raise RowError(f"row {number}: {field}: {exc}") from None
        else:
            return [value] if text else []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RowError(f"row {number}: {field}: must be a list of strings")
    return [v for v in value if v.strip()]


def to_request(row: Mapping[str, Any], number: int) -> Row:
    if not isinstance(row, Mapping):
        raise RowError(f"row {number}: must be an object")
    answer = _first(row, ANSWER_KEYS)
    if answer is None:
        raise RowError(f"row {number}: no answer field (one of {', '.join(ANSWER_KEYS)})")
    if not isinstance(answer[1], str):
        raise RowError(f"row {number}: {answer[0]}: must be a string")
    contexts = _first(row, CONTEXT_KEYS)
    if contexts is None:
        raise RowError(f"row {number}: no contexts field (one of {', '.join(CONTEXT_KEYS)})")
    facts: list[dict[str, Any]] = []
    owners: list[int] = []
    for i, context in enumerate(_contexts(contexts[1], contexts[0], number)):
        # A title line heads the whole document, not only the part it opens
        title = title_line(context)
        for k, part in enumerate(pieces(context)):
            fact: dict[str, Any] = {"factText": part}
            if k and title:
                fact["attributes"] = {"title": title[0]}
            facts.append(fact)
            owners.append(i)
    question = _first(row, QUESTION_KEYS)
    request = {
        "answerCandidate": answer[1],
        "facts": facts,
        "groundingSpec": {"enableClaimLevelScore": True},
    }
    return Row(number, str(question[1]) if question else "", request, tuple(owners))


class InputError(ValueError):
    """An input file that cannot be read as text."""


def read_input(path: str) -> str:
    """A file's text ('-': stdin), UTF-8 with or without a byte-order mark (Excel's "CSV UTF-8"
    writes one). InputError naming where the text stops being UTF-8, rather than a traceback."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as source:
                data = source.read()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start}; save it as UTF-8"
        ) from None


def rows_format(text: str, name: str) -> str | None:
    """ "csv" or "jsonl" when `text` holds Ragas/DeepEval rows, None when it holds Check Grounding
    requests: a .csv name (any case), a first line that is a CSV header naming an answer and a
    contexts column, or a first JSON record with an answer field of theirs and no answerCandidate."""
    if name.lower().endswith(".csv"):
        return "csv"
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        record = json.loads(first)
    except (ValueError, RecursionError):
        header = {cell.strip() for cell in next(csv.reader([first]), [])}
        if header & set(ANSWER_KEYS) and header & set(CONTEXT_KEYS):
            return "csv"
        return None
    if (
        isinstance(record, dict)
        and "answerCandidate" not in record
        and any(key in record for key in ANSWER_KEYS)
    ):
        return "jsonl"
    return None


def read_rows(text: str, fmt: str) -> Iterator[Row | RowError]:
    """Rows of a JSONL or CSV document, each a request or the error that names it."""
    if fmt == "csv":
        for number, rec in enumerate(csv.DictReader(io.StringIO(text)), start=1):
            try:
                yield to_request(rec, number)
            except RowError as exc:
                yield exc
        return
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            yield to_request(json.loads(line), number)
        except RecursionError:
            yield RowError(f"row {number}: invalid JSON: nested too deeply to read")
        except ValueError as exc:
            yield (
                exc if isinstance(exc, RowError) else RowError(f"row {number}: invalid JSON: {exc}")
            )
