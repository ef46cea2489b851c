"""Everything the answer page shows, loaded in a fixed number of queries and shaped for templates.

Claims come from one of two sources: the latest grounding-check run (the checker's claims, scores
and cited chunks) or the imported Vertex groundingSupports/citations. Both become `ClaimView`s
with the same fields, so the page, the highlighter and the labelling form don't care which.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch

from groundview.answers.models import (
    Answer,
    CheckRun,
    Reference,
    SafetyRating,
    SearchResult,
    Step,
    StepAction,
)
from groundview.review import highlight
from groundview.review.evidence import MarkedText, mark_support, tokens
from groundview.review.models import AnswerLabel

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

SKIP_REASONS = {
    "ANSWER_SKIPPED_REASON_UNSPECIFIED": "No reason was given.",
    "ADVERSARIAL_QUERY_IGNORED": "The query looked adversarial, so no answer was generated.",
    "NON_ANSWER_SEEKING_QUERY_IGNORED": "The query was chit-chat rather than a question, so it "
    "was not answered.",
    "OUT_OF_DOMAIN_QUERY_IGNORED": "No search result was relevant enough: the query is outside "
    "what the data store covers.",
    "POTENTIAL_POLICY_VIOLATION": "A possible policy violation (e.g. violent or toxic content) "
    "was detected, so the answer was withheld.",
    "NO_RELEVANT_CONTENT": "The retrieved search results held nothing relevant to answer from.",
    "JAIL_BREAKING_QUERY_IGNORED": "The query tried to make the assistant break its rules (a "
    "jail-break), so it was not answered.",
    "CUSTOMER_POLICY_VIOLATION": "The answer would have violated a policy the customer defined.",
    "NON_ANSWER_SEEKING_QUERY_IGNORED_V2": "The query had no clear intent, so it was not answered.",
    "LOW_GROUNDED_ANSWER": "No answer well grounded in the sources could be generated.",
    "UNHELPFUL_ANSWER": "The generated answer was judged unhelpful, so it was withheld.",
}

QUERY_TYPES = {
    "TYPE_UNSPECIFIED": "Unspecified classification.",
    "ADVERSARIAL_QUERY": "An adversarial query.",
    "NON_ANSWER_SEEKING_QUERY": "Chit-chat: not seeking an answer.",
    "JAIL_BREAKING_QUERY": "An attempt to make the assistant break its rules.",
    "NON_ANSWER_SEEKING_QUERY_V2": "A query with no clear intent.",
}

HARM_CATEGORIES = {
    "HARM_CATEGORY_UNSPECIFIED": "Unspecified harm category.",
    "HARM_CATEGORY_HATE_SPEECH": "Hate speech: negative or harmful comments targeting identity "
    "or protected attributes.",
    "HARM_CATEGORY_DANGEROUS_CONTENT": "Dangerous content: promotes or enables access to harmful "
    "goods, services or activities.",
    "HARM_CATEGORY_HARASSMENT": "Harassment: malicious, intimidating, bullying or abusive content "
    "aimed at someone.",
    "HARM_CATEGORY_SEXUALLY_EXPLICIT": "Sexually explicit content.",
    "HARM_CATEGORY_CIVIC_INTEGRITY": "Civic integrity: content that could undermine elections or "
    "civic processes.",
}
HARM_NAMES = {
    "HARM_CATEGORY_UNSPECIFIED": "Unspecified harm",
    "HARM_CATEGORY_HATE_SPEECH": "Hate speech",
    "HARM_CATEGORY_DANGEROUS_CONTENT": "Dangerous content",
    "HARM_CATEGORY_HARASSMENT": "Harassment",
    "HARM_CATEGORY_SEXUALLY_EXPLICIT": "Sexually explicit",
    "HARM_CATEGORY_CIVIC_INTEGRITY": "Civic integrity",
}
HARM_PROBABILITIES = {
    "HARM_PROBABILITY_UNSPECIFIED": "probability not given",
    "NEGLIGIBLE": "negligible chance it is harmful",
    "LOW": "low chance it is harmful",
    "MEDIUM": "medium chance it is harmful",
    "HIGH": "high chance it is harmful",
}
HARM_SEVERITIES = {
    "HARM_SEVERITY_UNSPECIFIED": "severity not given",
    "HARM_SEVERITY_NEGLIGIBLE": "negligible severity",
    "HARM_SEVERITY_LOW": "low severity",
    "HARM_SEVERITY_MEDIUM": "medium severity",
    "HARM_SEVERITY_HIGH": "high severity",
}
ANSWER_STATES = {
    "STATE_UNSPECIFIED": "Unknown state.",
    "IN_PROGRESS": "The answer was still being generated.",
    "FAILED": "Generating the answer failed.",
    "SUCCEEDED": "The answer was generated.",
    "STREAMING": "The answer was being streamed.",
}

# Colour bands by support score; the legend shows the same bands.
SCORE_BANDS = [
    (0.8, "hl-s4", "0.8 – 1: strongly supported"),
    (0.6, "hl-s3", "0.6 – 0.8: supported"),
    (0.4, "hl-s2", "0.4 – 0.6: weak"),
    (0.0, "hl-s1", "0 – 0.4: poorly supported"),
]


def explain(table: dict[str, str], value: str) -> str:
    return table.get(value) or f"{value}: no description known for this value."


@dataclass
class SafetyView:
    """A safety rating in plain words: "Harassment: low chance it is harmful (0.12), ..."."""

    rating: SafetyRating

    @property
    def name(self) -> str:
        category = self.rating.category
        return (
            HARM_NAMES.get(category)
            or category.removeprefix("HARM_CATEGORY_").replace("_", " ").capitalize()
        )

    @property
    def category_help(self) -> str:
        return explain(HARM_CATEGORIES, self.rating.category)

    @property
    def level(self) -> str:
        return (self.rating.probability or "unspecified").lower()

    @property
    def sentence(self) -> str:
        r = self.rating
        parts = []
        if r.probability:
            text = HARM_PROBABILITIES.get(r.probability, f"probability {r.probability}")
            if r.probability_score is not None:
                text += f" ({r.probability_score:.2f})"
            parts.append(text)
        if r.severity:
            text = HARM_SEVERITIES.get(r.severity, f"severity {r.severity}")
            if r.severity_score is not None:
                text += f" ({r.severity_score:.2f})"
            parts.append(text)
        if r.blocked:
            parts.append("the content was blocked")
        return ", ".join(parts) or "no rating given"


def score_band(score: float | None) -> str:
    if score is None:
        return "hl-unscored"
    for low, css, _ in SCORE_BANDS:
        if score >= low:
            return css
    return "hl-s1"


@dataclass
class Evidence:
    """One cited chunk of a claim, with the supporting sentence marked."""

    number: int | None  # reference number shown in markers (position + 1), None for step results
    title: str
    uri: str
    page: str
    marked: MarkedText
    citation_value: str = ""  # "ref" or "ref:chunk", for corrected citations


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
    verdict: str = ""
    corrected: list[str] = field(default_factory=list)
    note: str = ""
    # False for plain sentences nobody checked: no citation means nothing then.
    checked: bool = True
    # False when the span does not fit the text (a bad response): shown, never labelled.
    valid_span: bool = True

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


def load_answer(pk: int) -> Answer:
    """The answer with everything the page shows, prefetched (a fixed number of queries)."""
    return (
        Answer.objects.select_related("session", "latest_check")
        # The stored Vertex document is the record, but the page reads the typed tables.
        .defer("raw", "session__raw", "latest_check__timings")
        .prefetch_related(
            Prefetch(
                "references",
                queryset=Reference.objects.order_by("position").prefetch_related("chunks"),
            ),
            "citations__references",
            "grounding_supports__references",
            "related_questions",
            "skipped_reasons",
            "query_classifications",
            "safety_ratings",
            Prefetch(
                "steps",
                queryset=Step.objects.order_by("position").prefetch_related(
                    Prefetch(
                        "actions",
                        queryset=StepAction.objects.order_by("position").prefetch_related(
                            Prefetch(
                                "search_results",
                                queryset=SearchResult.objects.order_by("position").prefetch_related(
                                    "snippets", "chunks"
                                ),
                            )
                        ),
                    )
                ),
            ),
            Prefetch(
                "check_runs",
                queryset=CheckRun.objects.defer("request", "response", "fact_sources").order_by(
                    "-queued_at", "-id"
                ),
            ),
        )
        .get(pk=pk)
    )


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
        marked=mark_support(claim_text, text),
        citation_value=value,
    )


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
    return number_claims(claims)


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
    return number_claims(claims)


def cited_evidence(
    chunk: dict[str, Any],
    claim_text: str,
    facts: list[dict[str, Any]],
    sources: list[dict[str, Any]],
    references: dict[int, Reference],
) -> Evidence:
    chunk_text = chunk.get("chunkText", "")
    try:
        fact_index = int(chunk.get("source", ""))
    except (TypeError, ValueError):
        fact_index = -1
    fact = facts[fact_index] if 0 <= fact_index < len(facts) else {}
    source = sources[fact_index] if 0 <= fact_index < len(sources) else {}
    attributes = fact.get("attributes") or {}
    fact_text = fact.get("factText") or chunk_text
    reference = references.get(source.get("reference")) if source else None
    if reference is not None:
        chunk_pos = source.get("chunk")
        value = (
            f"{reference.position}:{chunk_pos}"
            if chunk_pos is not None
            else str(reference.position)
        )
        return Evidence(
            number=reference.position + 1,
            title=reference.title or reference.document or reference.uri,
            uri=reference.uri,
            page=attributes.get("pageIdentifier", reference.page_identifier),
            marked=mark_support(claim_text, fact_text, chunk_text),
            citation_value=value,
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

    return number_claims(
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


def number_claims(claims: list[ClaimView]) -> list[ClaimView]:
    claims.sort(key=lambda c: (c.start, c.end))
    for index, claim in enumerate(claims):
        claim.index = index
    return claims


def safe_slice(data: bytes, start: int, end: int) -> str:
    if highlight.span_error(data, start, end):
        return ""
    return data[start:end].decode("utf-8")


@dataclass
class AnswerPage:
    answer: Answer
    source: str
    run: CheckRun | None
    claims: list[ClaimView]
    html: str
    invalid_spans: int
    references: list[ReferenceView]
    label: AnswerLabel | None
    other_labels: list[AnswerLabel]
    pending_runs: list[CheckRun]
    sources_available: list[str]

    @property
    def never_cited(self) -> list[ReferenceView]:
        return [r for r in self.references if r.never_cited]


def build_page(answer: Answer, reviewer, source: str = "") -> AnswerPage:
    run = answer.latest_check
    if run is not None and run.status != CheckRun.Status.SUCCEEDED:
        run = None
    has_imported = bool(answer.grounding_supports.all() or answer.citations.all())
    available = ([CHECKER] if run else []) + ([IMPORTED] if has_imported else [])
    if answer.answer_text.strip():
        available.append(SENTENCES)
    if source not in available:
        source = available[0] if available else ""

    references = {r.position: r for r in answer.references.all()}
    if source == CHECKER and run is not None:
        claims = checker_claims(answer, run, references)
        extra_spans: list[highlight.Span] = []
    elif source == IMPORTED:
        claims = imported_claims(answer)
        extra_spans = citation_markers(answer)
    elif source == SENTENCES:
        claims, extra_spans = sentence_claims(answer), []
    else:
        claims, extra_spans = [], []

    labels = list(
        AnswerLabel.objects.filter(answer=answer)
        .select_related("reviewer")
        .prefetch_related("claims")
        .order_by("-updated_at")
    )
    mine = next((label for label in labels if label.reviewer_id == reviewer.pk), None)
    others = [label for label in labels if label is not mine]
    if mine is not None:
        by_span = {(c.start_index, c.end_index): c for c in mine.claims.all()}
        for claim in claims:
            saved = by_span.get((claim.start, claim.end))
            if saved is not None:
                claim.verdict = saved.verdict
                claim.corrected = list(saved.corrected_citations)
                claim.note = saved.note

    spans = [claim.span() for claim in claims] + extra_spans
    sliced = highlight.slice_text(answer.answer_text, spans)
    invalid = {span.key for span in sliced.invalid}
    for claim in claims:
        claim.valid_span = claim.key not in invalid

    cited_by_answer = {r.pk for c in answer.citations.all() for r in c.references.all()} | {
        r.pk for s in answer.grounding_supports.all() for r in s.references.all()
    }
    checker_cited: set[int] | None = None
    if run is not None:
        checker_cited = set()
        sources = run.fact_sources or []
        for chunk in (run.response or {}).get("citedChunks") or []:
            try:
                fact_source = sources[int(chunk.get("source", ""))]
            except (TypeError, ValueError, IndexError):
                continue
            if isinstance(fact_source, dict) and fact_source.get("reference") is not None:
                checker_cited.add(fact_source["reference"])
    reference_views = [
        ReferenceView(
            reference=r,
            cited_by_answer=r.pk in cited_by_answer,
            cited_by_checker=None if checker_cited is None else r.position in checker_cited,
        )
        for r in references.values()
    ]
    pending = [r for r in answer.check_runs.all() if not r.is_finished]
    return AnswerPage(
        answer=answer,
        source=source,
        run=run,
        claims=claims,
        html=highlight.render_sliced(sliced),
        invalid_spans=len(sliced.invalid),
        references=reference_views,
        label=mine,
        other_labels=others,
        pending_runs=pending,
        sources_available=available,
    )
