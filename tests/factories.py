"""Test data built the way users make it: Vertex answers go in through the real importer (the only
writer of answers), check runs and labels are stored on top of them.

Offsets are UTF-8 bytes, end exclusive, as everywhere in groundview. Take them from `span_of`, which
finds a part of the text and counts its bytes, so tests with emoji, CJK or combining characters get
them right.

The `*_document` and reference functions return plain dicts in the Vertex REST form, for tests about
importing and the API. The `create_*` functions store rows and need the database (the `db` fixture).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from django.utils import timezone

from groundview.answers.importing import ImportResult, import_text
from groundview.answers.models import Answer, CheckRun
from groundview.review.models import AnswerLabel, ClaimLabel

ENGINE = "projects/p1/locations/global/collections/default_collection/engines/e1"

PARIS_TEXT = "Paris is the capital of France. 🇫🇷 It has 2 million people."
PARIS_FACT = "Paris is the capital of France."

_numbers = itertools.count(1)


def span_of(text: str, part: str, occurrence: int = 0) -> tuple[int, int]:
    """UTF-8 byte span of `part` in `text` (its `occurrence`-th appearance, counting from 0)."""
    data, needle = text.encode(), part.encode()
    at = -1
    for _ in range(occurrence + 1):
        at = data.index(needle, at + 1)
    return at, at + len(needle)


def answer_name(answer_id: str | None = None, *, session: str = "s1") -> str:
    """A full answer resource name; without an id, a new one each call."""
    return f"{ENGINE}/sessions/{session}/answers/{answer_id or f'answer-{next(_numbers)}'}"


# --- documents (Vertex REST form) ---------------------------------------------------------------


def document_reference(
    title: str, chunks: Iterable[str], *, uri: str | None = None, document: str | None = None
) -> dict[str, Any]:
    """A reference to a whole document, given as the texts of its chunks."""
    number = next(_numbers)
    return {
        "unstructuredDocumentInfo": {
            "document": document or f"{ENGINE}/documents/doc{number}",
            "uri": uri or f"https://example.com/doc{number}",
            "title": title,
            "chunkContents": [{"content": chunk} for chunk in chunks],
        }
    }


def chunk_reference(
    content: str, *, title: str | None = None, uri: str | None = None, chunk: str | None = None
) -> dict[str, Any]:
    """A reference to one chunk; with a title it carries document metadata (title and uri)."""
    number = next(_numbers)
    info: dict[str, Any] = {"chunk": chunk or f"{ENGINE}/chunks/c{number}", "content": content}
    if title is not None:
        info["documentMetadata"] = {
            "title": title,
            "uri": uri or f"https://example.com/chunk{number}",
        }
    return {"chunkInfo": info}


def citation(start: int, end: int, *reference_ids: int) -> dict[str, Any]:
    return {
        "startIndex": str(start),
        "endIndex": str(end),
        "sources": [{"referenceId": str(r)} for r in reference_ids],
    }


def grounding_support(
    start: int, end: int, *reference_ids: int, score: float | None = None
) -> dict[str, Any]:
    support: dict[str, Any] = {"startIndex": str(start), "endIndex": str(end)}
    if score is not None:
        support["groundingScore"] = score
    support["sources"] = [{"referenceId": str(r)} for r in reference_ids]
    return support


def answer_document(
    text: str = PARIS_TEXT,
    *,
    answer_id: str | None = None,
    session: str = "s1",
    references: Iterable[dict] | None = None,
    citations: Iterable[dict] | None = None,
    supports: Iterable[dict] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A succeeded Vertex answer; `fields` are further Answer fields (camelCase) and win over the
    rest, so a test can also set `name`, `state` or a wrong `answerText`."""
    document: dict[str, Any] = {
        "name": answer_name(answer_id, session=session),
        "state": "SUCCEEDED",
        "answerText": text,
    }
    for key, value in (
        ("references", references),
        ("citations", citations),
        ("groundingSupports", supports),
    ):
        if value is not None:
            document[key] = list(value)
    document.update(fields)
    return document


def paris_document(answer_id: str | None = None, **fields: Any) -> dict[str, Any]:
    """The small answer many tests share: two sentences, the first cited from its one reference.

    The citation covers bytes 0-31 whatever the text; pass `citations=[]` with a shorter text."""
    fields.setdefault(
        "references",
        [
            document_reference(
                "Paris",
                ["Paris is the capital and largest city of France."],
                uri="https://example.org/paris",
                document="projects/p1/documents/d1",
            )
        ],
    )
    fields.setdefault("citations", [citation(0, 31, 0)])
    return answer_document(answer_id=answer_id, **fields)


# --- stored rows ----------------------------------------------------------------------------------


def import_documents(documents: Iterable[dict]) -> ImportResult:
    """Import documents as one JSONL text; every one of them must be accepted."""
    result = import_text("\n".join(json.dumps(d, ensure_ascii=False) for d in documents))
    assert not result.problems, result.problems
    return result


def create_answer(text: str = PARIS_TEXT, *, query: str = "", **document: Any) -> Answer:
    """Import one answer (`document` as for `answer_document`) and return it as stored.

    `query` sets the question, which the importer otherwise takes from the session's turns."""
    raw = answer_document(text, **document)
    import_documents([raw])
    answer = Answer.objects.get(name=raw["name"])
    if query:
        Answer.objects.filter(pk=answer.pk).update(query_text=query)
        answer.query_text = query
    return answer


def create_sourced_answer(
    text: str = PARIS_FACT, sources: Iterable[str] = (PARIS_FACT,), **document: Any
) -> Answer:
    """An answer whose references are single chunks with these texts, the facts a check gets."""
    return create_answer(text, references=[chunk_reference(s) for s in sources], **document)


class CheckedClaim(NamedTuple):
    """One claim of a check response; a plain tuple in this order does as well."""

    start: int
    end: int
    score: float | None
    cited_facts: Iterable[int] = ()
    check_required: bool = True


def create_check_run(
    answer: Answer,
    claims: Iterable[CheckedClaim | tuple] = (),
    *,
    facts: list[dict] | None = None,
    fact_sources: list[dict] | None = None,
    support_score: float | None = None,
) -> CheckRun:
    """A succeeded check run, made the answer's latest.

    Each claim cites the facts (request `facts` indices) it names; the response's `supportScore`
    is the mean of the claim scores unless given."""
    facts = facts or []
    cited_chunks: list[dict] = []
    response_claims = []
    scores = []
    for claim in map(lambda c: CheckedClaim(*c), claims):
        indices = []
        for fact in claim.cited_facts:
            indices.append(len(cited_chunks))
            cited_chunks.append({"chunkText": facts[fact]["factText"], "source": str(fact)})
        item = {
            "startPos": claim.start,
            "endPos": claim.end,
            "claimText": answer.answer_text.encode()[claim.start : claim.end].decode(),
            "citationIndices": indices,
            "groundingCheckRequired": claim.check_required,
        }
        if claim.score is not None:
            item["score"] = claim.score
            scores.append(claim.score)
        response_claims.append(item)
    if support_score is None:
        support_score = sum(scores) / len(scores) if scores else 0
    now = timezone.now()
    run = CheckRun.objects.create(
        answer=answer,
        status=CheckRun.Status.SUCCEEDED,
        request={"answerCandidate": answer.answer_text, "facts": facts},
        response={
            "supportScore": support_score,
            "citedChunks": cited_chunks,
            "claims": response_claims,
        },
        fact_sources=fact_sources or [],
        support_score=support_score,
        engine_version="test",
        model_id="test-model",
        citation_threshold=0.6,
        started_at=now,
        finished_at=now,
    )
    Answer.objects.filter(pk=answer.pk).update(latest_check=run)
    answer.latest_check = run
    return run


def create_gaps_answer(
    text: str, chunks: list[str], sentences: list[str], cited: tuple[int, int] = (0, 0)
) -> Answer:
    """An answer on one document of `chunks`, checked claim by claim (`sentences`, in order): the
    claim `cited[0]` cites chunk `cited[1]` at score 0.9, every other claim cites nothing at 0.15."""
    answer = create_answer(text, references=[document_reference("Eiffel Tower", chunks)])
    claim, chunk = cited
    create_check_run(
        answer,
        [
            (*span_of(text, s), 0.9 if i == claim else 0.15, [chunk] if i == claim else [])
            for i, s in enumerate(sentences)
        ],
        facts=[{"factText": c, "attributes": {"title": "Eiffel Tower"}} for c in chunks],
        fact_sources=[{"reference": 0, "chunk": i} for i in range(len(chunks))],
    )
    return answer


def create_label(
    answer: Answer,
    reviewer,
    verdict: str = "supported",
    *,
    claims: Mapping[str, str] | None = None,
    note: str = "",
    claim_note: str = "",
) -> AnswerLabel:
    """A reviewer's label, stored directly (not through the label service).

    `claims` maps claim texts, as they appear in the answer, to verdicts; their byte spans are
    found in the answer text."""
    label = AnswerLabel.objects.create(answer=answer, reviewer=reviewer, verdict=verdict, note=note)
    for part, claim_verdict in (claims or {}).items():
        start, end = span_of(answer.answer_text, part)
        ClaimLabel.objects.create(
            label=label,
            start_index=start,
            end_index=end,
            claim_text=part,
            verdict=claim_verdict,
            note=claim_note,
        )
    return label
