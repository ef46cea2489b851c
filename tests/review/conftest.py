"""Fixtures for the review UI: answers built through the real importer, plus check runs."""

import itertools
import json

import pytest
from django.utils import timezone

from groundview.answers.importing import import_text
from groundview.answers.models import Answer, CheckRun

_names = itertools.count(1)


def span_of(text: str, part: str, occurrence: int = 0) -> tuple[int, int]:
    """UTF-8 byte span of `part` in `text`."""
    data, needle = text.encode(), part.encode()
    at = -1
    for _ in range(occurrence + 1):
        at = data.index(needle, at + 1)
    return at, at + len(needle)


def build_answer(
    text: str,
    *,
    session: str = "s1",
    query: str = "",
    references=(),
    supports=(),
    citations=(),
    grounding_score=None,
    extra=None,
) -> Answer:
    """Import one Vertex answer; references are (title, [chunk texts]) or ("chunk", title, content)."""
    name = f"projects/p/locations/global/collections/c/engines/e/sessions/{session}/answers/a{next(_names)}"
    raw = {"name": name, "state": "SUCCEEDED", "answerText": text}
    refs = []
    for ref in references:
        if ref[0] == "chunk":
            refs.append(
                {
                    "chunkInfo": {
                        "chunk": f"{name}/chunks/{len(refs)}",
                        "content": ref[2],
                        "documentMetadata": {
                            "title": ref[1],
                            "uri": f"https://example.com/{len(refs)}",
                        },
                    }
                }
            )
        else:
            title, chunks = ref
            refs.append(
                {
                    "unstructuredDocumentInfo": {
                        "document": f"doc{len(refs)}",
                        "uri": f"https://example.com/doc{len(refs)}",
                        "title": title,
                        "chunkContents": [{"content": c} for c in chunks],
                    }
                }
            )
    if refs:
        raw["references"] = refs
    if supports:
        raw["groundingSupports"] = [
            {
                "startIndex": str(s),
                "endIndex": str(e),
                **({"groundingScore": score} if score is not None else {}),
                "sources": [{"referenceId": str(r)} for r in ref_ids],
            }
            for s, e, score, ref_ids in supports
        ]
    if citations:
        raw["citations"] = [
            {
                "startIndex": str(s),
                "endIndex": str(e),
                "sources": [{"referenceId": str(r)} for r in ids],
            }
            for s, e, ids in citations
        ]
    if grounding_score is not None:
        raw["groundingScore"] = grounding_score
    raw.update(extra or {})
    result = import_text(json.dumps(raw))
    assert not result.problems, result.problems
    answer = Answer.objects.get(name=name)
    if query:
        Answer.objects.filter(pk=answer.pk).update(query_text=query)
        answer.query_text = query
    return answer


def add_check(
    answer: Answer, claims, *, facts=None, fact_sources=None, support_score=None
) -> CheckRun:
    """A succeeded run: claims are (start, end, score, [fact indices]) or with check_required."""
    facts = facts or []
    cited_chunks = []
    response_claims = []
    for claim in claims:
        start, end, score, fact_ids, *rest = claim
        check_required = rest[0] if rest else True
        indices = []
        for fact in fact_ids:
            indices.append(len(cited_chunks))
            cited_chunks.append({"chunkText": facts[fact]["factText"], "source": str(fact)})
        item = {
            "startPos": start,
            "endPos": end,
            "claimText": answer.answer_text.encode()[start:end].decode(),
            "citationIndices": indices,
            "groundingCheckRequired": check_required,
        }
        if score is not None:
            item["score"] = score
        response_claims.append(item)
    scores = [c[2] for c in claims if c[2] is not None]
    run = CheckRun.objects.create(
        answer=answer,
        status=CheckRun.Status.SUCCEEDED,
        request={"answerCandidate": answer.answer_text, "facts": facts},
        response={
            "supportScore": support_score or (sum(scores) / len(scores) if scores else 0),
            "citedChunks": cited_chunks,
            "claims": response_claims,
        },
        fact_sources=fact_sources or [],
        support_score=support_score
        if support_score is not None
        else (sum(scores) / len(scores) if scores else 0),
        engine_version="test",
        model_id="test-model",
        citation_threshold=0.6,
        started_at=timezone.now(),
        finished_at=timezone.now(),
    )
    Answer.objects.filter(pk=answer.pk).update(latest_check=run)
    answer.latest_check = run
    return run


@pytest.fixture
def make_answer(db):
    return build_answer


@pytest.fixture
def make_check(db):
    return add_check


@pytest.fixture
def reviewer_client(client, reviewer):
    client.force_login(reviewer)
    return client
