"""The Check Grounding request for a stored answer: its text and the evidence it was given."""

from __future__ import annotations

import html
import json
import logging
import re
from collections.abc import Iterator
from typing import Any

from groundview.answers.checks.engine import engine_config
from groundview.answers.models import Answer
from groundview.grounding.rows import pieces
from groundview.grounding.schema import MAX_TOTAL_FACT_CHARS

logger = logging.getLogger(__name__)


def build_request(answer: Answer) -> dict[str, Any]:
    """The Check Grounding request for a stored answer."""
    return prepare_request(answer)[0]


def prepare_request(answer: Answer) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The request and, for each of its facts, where in the answer the fact came from. A stored
    answer may hold more, or longer, texts than the engine takes (GROUNDING's MAX_FACTS and
    MAX_FACT_CHARS, within MAX_TOTAL_FACT_CHARS in all): a long text goes as several facts cut
    where sentences end, and what lies past the limits is left out rather than failing the check."""
    config = engine_config()
    facts: list[dict[str, Any]] = []
    sources: list[dict[str, Any]] = []
    total = 0
    for text, attributes, source in _pieces(answer.raw or {}, config.max_fact_chars):
        total += len(text)
        if len(facts) == config.max_facts or total > MAX_TOTAL_FACT_CHARS:
            logger.info("%s: past the engine's fact limits, the rest is left out", answer.name)
            break
        facts.append({"factText": text, "attributes": attributes})
        sources.append(source)
    request = {
        "answerCandidate": answer.answer_text,
        "facts": facts,
        "groundingSpec": {
            "citationThreshold": config.default_citation_threshold,
            "enableClaimLevelScore": True,
        },
    }
    return request, sources


def fact_index(chunk: Any) -> int | None:
    """The request fact a response's cited chunk came from (`citedChunks[].source`), or None."""
    try:
        index = int(chunk.get("source", ""))
    except (AttributeError, TypeError, ValueError):
        return None
    return index if index >= 0 else None


def cited_source(chunk: Any, sources: list[Any]) -> dict[str, Any] | None:
    """Where in the answer a cited chunk's fact came from ({"reference": position, "chunk":
    position or None}); None for a search result seen in the steps, or an index out of range."""
    index = fact_index(chunk)
    source = sources[index] if index is not None and index < len(sources) else None
    if not isinstance(source, dict) or source.get("reference") is None:
        return None
    return source


def citation_name(source: dict[str, Any]) -> str:
    """A fact source as a corrected citation names it: "2" or "2:0" (positions)."""
    chunk = source.get("chunk")
    return f"{source['reference']}:{chunk}" if chunk is not None else str(source["reference"])


def _pieces(
    raw: dict[str, Any], limit: int
) -> Iterator[tuple[str, dict[str, str], dict[str, Any]]]:
    for text, attributes, source in answer_facts(raw):
        for piece in pieces(text, limit):
            yield piece, attributes, source


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
