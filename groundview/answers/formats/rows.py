"""Ragas and DeepEval rows, mapped onto the Answer shape groundview stores.

A row becomes an `:answer`-style record: a session whose one turn asks the row's question, and an
answer whose text is the row's response and whose references are the retrieved contexts, one
`chunkInfo` each. The row itself is kept, exactly as read, in the answer's `groundviewSource`
extension field, so its ids and columns (metrics, ground truth) survive an export and a re-import.

Names are synthesised from the row's own id when it has one, else from its content, so importing
the same file twice updates in place instead of duplicating.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from groundview.answers.schema import RecordError, describe, join
from groundview.grounding.rows import list_cell

EXTENSION = "groundviewSource"
PROJECT = "projects/groundview/locations/global/collections/default_collection"


@dataclass(frozen=True)
class RowFormat:
    name: str
    # Column names for each part, the current name first (Ragas renamed its columns in 0.2).
    question: tuple[str, ...]
    response: tuple[str, ...]
    contexts: tuple[str, ...]
    reference: tuple[str, ...]


RAGAS = RowFormat(
    name="ragas",
    question=("user_input", "question"),
    response=("response", "answer"),
    contexts=("retrieved_contexts", "contexts"),
    reference=("reference", "ground_truth", "ground_truths"),
)
DEEPEVAL = RowFormat(
    name="deepeval",
    question=("input",),
    response=("actual_output",),
    contexts=("retrieval_context",),
    reference=("expected_output",),
)
ID_COLUMNS = ("id", "sample_id", "test_case_id")


def detect(data: dict[str, Any]) -> RowFormat | None:
    """The row format a record is written in, or None for a Vertex document."""
    if "actual_output" in data or "retrieval_context" in data:
        return DEEPEVAL
    if "input" in data and "expected_output" in data:
        return DEEPEVAL
    if "user_input" in data or "retrieved_contexts" in data:
        return RAGAS
    # Older Ragas: question/answer/contexts. A Vertex `:answer` response's "answer" is an object.
    if "question" in data and ("contexts" in data or isinstance(data.get("answer"), str)):
        return RAGAS
    return None


def first(data: dict[str, Any], columns: tuple[str, ...]) -> tuple[str, Any]:
    for column in columns:
        if data.get(column) is not None:
            return column, data[column]
    return columns[0], None


def text_column(data: dict[str, Any], columns: tuple[str, ...], row: RowFormat) -> str:
    column, value = first(data, columns)
    if value is None:
        names = " or ".join(columns)
        raise RecordError(column, f"is required (a {row.name} row names its {names})")
    if not isinstance(value, str):
        raise RecordError(column, f"must be a string, not {describe(value)}")
    return value


def context_list(value: Any, path: str) -> list[str]:
    """A list of strings; from CSV, a cell holding a JSON or Python list (pandas writes the latter)."""
    if value is None:
        return []
    if isinstance(value, str):
        cell = value.strip()
        if not cell:
            return []
        if not cell.startswith("["):
            return [value]
        value = parse_list_cell(cell, path)
    if not isinstance(value, list):
        raise RecordError(path, f"must be a list of strings, not {describe(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise RecordError(join(path, index), f"must be a string, not {describe(item)}")
    return value


def parse_list_cell(cell: str, path: str) -> Any:
    try:
        return list_cell(cell)
    except ValueError as exc:
        raise RecordError(path, str(exc)) from None


def source_id(data: dict[str, Any]) -> str | None:
    for column in ID_COLUMNS:
        value = data.get(column)
        if isinstance(value, str | int) and not isinstance(value, bool) and value != "":
            return str(value)
    return None


def digest(*parts: Any) -> str:
    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def to_answer_response(data: dict[str, Any], row: RowFormat) -> dict[str, Any]:
    """The `{answer, session}` record a row stands for."""
    question = text_column(data, row.question, row)
    response = text_column(data, row.response, row)
    column, value = first(data, row.contexts)
    contexts = context_list(value, column)
    _, reference = first(data, row.reference)
    identity = source_id(data)
    key = (
        digest(row.name, identity) if identity else digest(question, response, contexts, reference)
    )
    session_name = f"{PROJECT}/engines/{row.name}/sessions/{key}"
    answer_name = f"{session_name}/answers/{key}"
    source: dict[str, Any] = {"format": row.name, "row": data}
    if identity is not None:
        source["id"] = identity
    answer = {
        "name": answer_name,
        "state": "SUCCEEDED",
        "answerText": response,
        "references": [{"chunkInfo": {"content": context}} for context in contexts],
        EXTENSION: source,
    }
    session = {
        "name": session_name,
        "turns": [{"query": {"text": question}, "answer": answer_name}],
    }
    return {"answer": answer, "session": session}


def source_row(answer: dict[str, Any]) -> dict[str, Any] | None:
    """The row an imported answer came from, as it was read; None for a Vertex answer."""
    source = answer.get(EXTENSION)
    if isinstance(source, dict) and isinstance(source.get("row"), dict):
        return source["row"]
    return None
