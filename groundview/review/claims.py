"""Claims as the answer page shows them, from one of three sources: the latest grounding-check run
(the checker's claims, scores and cited chunks), the imported Vertex groundingSupports/citations, or
plain sentences. All become `ClaimView`s with the same fields, so the page, the highlighter and the
labelling form don't care which."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from groundview.answers.checks.requests import (
    citation_name,
    cited_source,
    fact_index,
    struct_text,
)
from groundview.answers.models import (
    Answer,
    CheckRun,
    Reference,
)
from groundview.grounding.schema import Fact
from groundview.grounding.support import Gaps
from groundview.review import highlight
from groundview.review.evidence import (
    MarkedText,
    claim_gaps,
    in_document,
    mark_support,
    nearest_chunks,
    tokens,
)
from groundview.review.verdicts import page_citation
from groundview.review.vertex_terms import score_band

CHECKER = "checker"
IMPORTED = "imported"
# The checker's own sentence segmentation without a check: lets reviewers label claims of an
# answer nobody checked yet, with spans that a later check run will match.
SENTENCES = "sentences"
SOURCE_LABELS = {
    CHECKER: "Checker run",
    IMPORTED: "Imported supports",
    SENTENCES: "Sentences",
}


@dataclass
class Evidence:
    """One cited chunk of a claim, with the supporting sentence marked."""

    number: int | None  # reference number shown in markers (position + 1), None for step results
    title: str
    uri: str
    page: str
    marked: MarkedText
    citation_value: str = ""  # "2" or "2:1" as the page numbers them, for corrected citations
    # Nearest chunks of an uncited claim only: how near (evidence.Nearby).
    bm25: float | None = None
    found: int = 0
    wanted: int = 0


@dataclass
class ClaimView:
    index: int
    start: int
    end: int
    text: str
    score: float | None
    check_required: bool | None
    evidence: list[Evidence] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)
    # For a claim nothing was cited for: the chunks the checker's retrieval ranks nearest.
    nearest: list[Evidence] = field(default_factory=list)
    # ... and what in it none of the references states, or None.
    gaps: Gaps | None = None
    verdict: str = ""
    corrected: list[str] = field(default_factory=list)
    note: str = ""
    # False for plain sentences nobody checked: no citation means nothing then.
    checked: bool = True
    # False when the span does not fit the text (a bad response): shown, never labelled.
    valid_span: bool = True
    # Other reviewers' verdicts and the settled one, shown once the reviewer has given their own
    # (adjudication.verdicts_for_page); until then only how many are hidden.
    others: list[Any] = field(default_factory=list)
    hidden_others: int = 0
    final: Any = None

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def key(self) -> str:
        return f"claim-{self.number}"

    @property
    def cited(self) -> bool:
        return bool(self.evidence) or bool(self.markers)

    @property
    def css(self) -> str:
        if self.check_required is False:
            return "hl-nocheck"
        if not self.checked:
            return "hl-plain"
        if not self.cited:
            return "hl-uncited"
        return score_band(self.score)

    @property
    def status(self) -> str:
        if self.check_required is False:
            return "No check needed"
        if not self.checked:
            return "Not checked"
        if not self.cited:
            return "No citation"
        if self.score is None:
            return "Cited"
        return f"Score {self.score:.2f}"

    def span(self) -> highlight.Span:
        return highlight.Span(
            key=self.key,
            start=self.start,
            end=self.end,
            css=self.css,
            title=f"Claim {self.number}: {self.status}",
            markers=tuple(self.markers),
        )


@dataclass
class ReferenceView:
    reference: Reference
    cited_by_answer: bool
    cited_by_checker: bool | None  # None when there is no check run to tell

    @property
    def number(self) -> int:
        return self.reference.position + 1

    @property
    def text(self) -> str:
        ref = self.reference
        if ref.kind == Reference.Kind.CHUNK:
            return ref.content
        chunks = [c.content for c in ref.chunks.all()]
        if chunks:
            return "\n\n".join(chunks)
        return json.dumps(ref.struct_data, ensure_ascii=False) if ref.struct_data else ""

    @property
    def never_cited(self) -> bool:
        return not self.cited_by_answer and not self.cited_by_checker


def document_text(reference: Reference) -> str:
    """All the text stored for a reference, as one document: a chunk's content, a document's
    chunks in order (a blank line between), or a structured document as the checker reads it."""
    if reference.kind == Reference.Kind.CHUNK:
        return reference.content
    chunks = [c.content for c in reference.chunks.all()]
    if chunks:
        return "\n\n".join(chunks)
    return struct_text(reference.struct_data) if reference.struct_data else ""


def reference_evidence(reference: Reference, claim_text: str) -> Evidence:
    """A reference cited by an imported support: its best-matching chunk, sentence marked."""
    value = str(reference.position)
    if reference.kind == Reference.Kind.CHUNK:
        text = reference.content
    else:
        chunks = list(reference.chunks.all())
        if chunks:
            wanted = tokens(claim_text)
            best = max(chunks, key=lambda c: (len(wanted & tokens(c.content)), -c.position))
            text = best.content
            value = f"{reference.position}:{best.position}"
        else:
            text = (
                json.dumps(reference.struct_data, ensure_ascii=False)
                if reference.struct_data
                else ""
            )
    return Evidence(
        number=reference.position + 1,
        title=reference.title or reference.document or reference.uri,
        uri=reference.uri,
        page=reference.page_identifier,
        marked=in_document(mark_support(claim_text, text), document_text(reference)),
        citation_value=page_citation(value),
    )


def reference_facts(answer: Answer) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The answer's references as request facts (one per stored chunk) and where each came
    from: nearest chunks for claims no check run has looked at."""
    facts, sources = [], []
    for reference in answer.references.all():
        attributes = {"title": reference.title} if reference.title else {}
        chunks = [] if reference.kind == Reference.Kind.CHUNK else list(reference.chunks.all())
        for chunk in chunks:
            facts.append({"factText": chunk.content, "attributes": attributes})
            sources.append({"reference": reference.position, "chunk": chunk.position})
        text = document_text(reference) if not chunks else ""
        if text.strip():
            facts.append({"factText": text, "attributes": attributes})
            sources.append({"reference": reference.position, "chunk": None})
    return facts, sources


def add_nearest(
    claims: list[ClaimView],
    get_facts: Callable[[], tuple[list[dict[str, Any]], list[dict[str, Any]]]],
    references: dict[int, Reference],
) -> None:
    """Nearest chunks (facts in request JSON, and where each came from, from `get_facts`: called
    only when some claim needs them) for the claims that need a check and cite nothing."""
    wanted = [c.index for c in claims if c.text and c.check_required is not False and not c.cited]
    if not wanted:
        return
    facts, sources = get_facts()
    texts = [c.text for c in claims]
    as_facts = [Fact(f.get("factText") or "", f.get("attributes") or {}) for f in facts]
    for index, gaps in claim_gaps(texts, wanted, as_facts).items():
        claims[index].gaps = gaps
    found = nearest_chunks(texts, wanted, as_facts)
    for index, nearby in found.items():
        claim = claims[index]
        for near in nearby:
            text = facts[near.fact].get("factText") or ""
            chunk = {"chunkText": text[near.start : near.end], "source": near.fact}
            evidence = cited_evidence(chunk, claim.text, facts, sources, references)
            evidence.bm25, evidence.found, evidence.wanted = near.bm25, near.found, near.wanted
            claim.nearest.append(evidence)


def imported_claims(answer: Answer) -> list[ClaimView]:
    data = answer.answer_text.encode("utf-8")
    # The span rows' prefetched references are separate instances without their chunks; use
    # the answer's own (chunks prefetched) so evidence costs no query per claim.
    canonical = {r.pk: r for r in answer.references.all()}
    supports = sorted(answer.grounding_supports.all(), key=lambda s: s.position)
    rows: list[Any] = supports or sorted(answer.citations.all(), key=lambda c: c.position)
    claims = []
    for row in rows:
        text = safe_slice(data, row.start_index, row.end_index)
        references = sorted(
            (canonical.get(r.pk, r) for r in row.references.all()), key=lambda r: r.position
        )
        claims.append(
            ClaimView(
                index=0,
                start=row.start_index,
                end=row.end_index,
                text=text,
                score=getattr(row, "grounding_score", None),
                check_required=getattr(row, "grounding_check_required", None),
                evidence=[reference_evidence(r, text) for r in references],
                markers=[str(r.position + 1) for r in references],
            )
        )
    claims = number_claims(claims)
    add_nearest(
        claims, lambda: reference_facts(answer), {r.position: r for r in canonical.values()}
    )
    return claims


def citation_markers(answer: Answer) -> list[highlight.Span]:
    """Imported citations as markers at their end, for when supports are the claims."""
    supports = answer.grounding_supports.all()
    if not supports:
        return []
    # A support already shows its references' markers at its end; don't repeat them.
    shown = {
        (s.end_index, tuple(sorted(r.position + 1 for r in s.references.all()))) for s in supports
    }
    spans = []
    for citation in answer.citations.all():
        numbers = sorted(r.position + 1 for r in citation.references.all())
        if numbers and (citation.end_index, tuple(numbers)) not in shown:
            spans.append(
                highlight.Span(
                    key=f"citation-{citation.position + 1}",
                    start=citation.end_index,
                    end=citation.end_index,
                    markers=tuple(str(n) for n in numbers),
                    marker_only=True,
                )
            )
    return spans


def checker_claims(
    answer: Answer, run: CheckRun, references: dict[int, Reference]
) -> list[ClaimView]:
    response = run.response or {}
    facts = (run.request or {}).get("facts") or []
    sources = run.fact_sources or []
    cited_chunks = response.get("citedChunks") or []
    data = answer.answer_text.encode("utf-8")
    claims = []
    for item in response.get("claims") or []:
        start, end = int(item.get("startPos", 0)), int(item.get("endPos", 0))
        # The span is the truth (it is what labels store); claimText only if the span is bad.
        text = safe_slice(data, start, end) or item.get("claimText", "")
        evidence: list[Evidence] = []
        markers: list[str] = []
        for index in item.get("citationIndices") or []:
            if not isinstance(index, int) or not 0 <= index < len(cited_chunks):
                continue
            chunk = cited_chunks[index]
            evidence.append(cited_evidence(chunk, text, facts, sources, references))
            marker = str(evidence[-1].number) if evidence[-1].number else f"s{index + 1}"
            if marker not in markers:
                markers.append(marker)
        claims.append(
            ClaimView(
                index=0,
                start=start,
                end=end,
                text=text,
                score=item.get("score"),
                check_required=item.get("groundingCheckRequired"),
                evidence=evidence,
                markers=markers,
            )
        )
    claims = number_claims(claims)
    add_nearest(claims, lambda: (facts, sources), references)
    return claims


def cited_evidence(
    chunk: dict[str, Any],
    claim_text: str,
    facts: list[dict[str, Any]],
    sources: list[dict[str, Any]],
    references: dict[int, Reference],
) -> Evidence:
    chunk_text = chunk.get("chunkText", "")
    index = fact_index(chunk)
    fact = facts[index] if index is not None and index < len(facts) else {}
    attributes = fact.get("attributes") or {}
    fact_text = fact.get("factText") or chunk_text
    source = cited_source(chunk, sources)
    reference = references.get(source["reference"]) if source else None
    if source is not None and reference is not None:
        return Evidence(
            number=reference.position + 1,
            title=reference.title or reference.document or reference.uri,
            uri=reference.uri,
            page=attributes.get("pageIdentifier", reference.page_identifier),
            marked=in_document(
                mark_support(claim_text, fact_text, chunk_text), document_text(reference)
            ),
            citation_value=page_citation(citation_name(source)),
        )
    # A search result seen in the answer's steps, or a run from before fact sources existed.
    return Evidence(
        number=None,
        title=attributes.get("title") or attributes.get("document") or "Search result",
        uri=attributes.get("uri", ""),
        page=attributes.get("pageIdentifier", ""),
        marked=mark_support(claim_text, fact_text, chunk_text),
    )


def sentence_claims(answer: Answer) -> list[ClaimView]:
    from groundview.grounding.claims import segment_claims

    claims = number_claims(
        [
            ClaimView(
                index=0,
                start=claim.start_byte,
                end=claim.end_byte,
                text=claim.text,
                score=None,
                check_required=claim.check_required,
                checked=False,
            )
            for claim in segment_claims(answer.answer_text)
        ]
    )
    add_nearest(
        claims, lambda: reference_facts(answer), {r.position: r for r in answer.references.all()}
    )
    return claims


def number_claims(claims: list[ClaimView]) -> list[ClaimView]:
    claims.sort(key=lambda c: (c.start, c.end))
    for index, claim in enumerate(claims):
        claim.index = index
    return claims


def safe_slice(data: bytes, start: int, end: int) -> str:
    if highlight.span_error(data, start, end):
        return ""
    return data[start:end].decode("utf-8")
