"""The answer page: the claims of the chosen source, the highlighted text, references, and labels.

Loading is in selectors.py, claim rows in claims.py, Vertex vocabulary in vertex_terms.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundview.answers.checks.requests import cited_source
from groundview.answers.models import Answer, CheckRun, Reference
from groundview.review import highlight
from groundview.review.claims import (
    CHECKER,
    IMPORTED,
    SENTENCES,
    ClaimView,
    ReferenceView,
    checker_claims,
    citation_markers,
    imported_claims,
    sentence_claims,
)
from groundview.review.models import AnswerLabel
from groundview.review.verdicts import page_citation


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
    available = claim_sources(answer, run)
    if source not in available:
        source = available[0] if available else ""
    references = {r.position: r for r in answer.references.all()}
    claims, extra_spans = claims_from(source, answer, run, references)

    labels = list(
        AnswerLabel.objects.filter(answer=answer)
        .select_related("reviewer")
        .prefetch_related("claims")
        .order_by("-updated_at")
    )
    mine = next((label for label in labels if label.reviewer_id == reviewer.pk), None)
    if mine is not None:
        show_saved_verdicts(claims, mine)

    spans = [claim.span() for claim in claims] + extra_spans
    sliced = highlight.slice_text(answer.answer_text, spans)
    invalid = {span.key for span in sliced.invalid}
    for claim in claims:
        claim.valid_span = claim.key not in invalid

    return AnswerPage(
        answer=answer,
        source=source,
        run=run,
        claims=claims,
        html=highlight.render_sliced(sliced),
        invalid_spans=len(sliced.invalid),
        references=reference_views(answer, references, run),
        label=mine,
        other_labels=[label for label in labels if label is not mine],
        pending_runs=[r for r in answer.check_runs.all() if not r.is_finished],
        sources_available=available,
    )


def claim_sources(answer: Answer, run: CheckRun | None) -> list[str]:
    """The claim sources this answer has, the page's default first."""
    has_imported = bool(answer.grounding_supports.all() or answer.citations.all())
    available = ([CHECKER] if run else []) + ([IMPORTED] if has_imported else [])
    if answer.answer_text.strip():
        available.append(SENTENCES)
    return available


def claims_from(
    source: str, answer: Answer, run: CheckRun | None, references: dict[int, Reference]
) -> tuple[list[ClaimView], list[highlight.Span]]:
    """The claims of one source, and the other spans the text shows with them (citation marks)."""
    if source == CHECKER and run is not None:
        return checker_claims(answer, run, references), []
    if source == IMPORTED:
        return imported_claims(answer), citation_markers(answer)
    if source == SENTENCES:
        return sentence_claims(answer), []
    return [], []


def show_saved_verdicts(claims: list[ClaimView], label: AnswerLabel) -> None:
    """Fill in what the reviewer saved for each claim of the same span."""
    by_span = {(c.start_index, c.end_index): c for c in label.claims.all()}
    for claim in claims:
        saved = by_span.get((claim.start, claim.end))
        if saved is not None:
            claim.verdict = saved.verdict
            claim.corrected = [page_citation(v) for v in saved.corrected_citations]
            claim.note = saved.note


def show_posted_verdicts(
    claims: list[ClaimView], posted: dict[tuple[int, int], tuple[str, str, str]]
) -> None:
    for claim in claims:
        if (claim.start, claim.end) in posted:
            claim.verdict, citations, claim.note = posted[(claim.start, claim.end)]
            claim.corrected = [citations] if citations else []


def reference_views(
    answer: Answer, references: dict[int, Reference], run: CheckRun | None
) -> list[ReferenceView]:
    """Each reference, with whether the answer cites it and whether the check shown does."""
    cited_by_answer = {r.pk for c in answer.citations.all() for r in c.references.all()} | {
        r.pk for s in answer.grounding_supports.all() for r in s.references.all()
    }
    checker_cited: set[int] | None = None
    if run is not None:
        checker_cited = set()
        sources = run.fact_sources or []
        for chunk in (run.response or {}).get("citedChunks") or []:
            fact_source = cited_source(chunk, sources)
            if fact_source is not None:
                checker_cited.add(fact_source["reference"])
    return [
        ReferenceView(
            reference=r,
            cited_by_answer=r.pk in cited_by_answer,
            cited_by_checker=None if checker_cited is None else r.position in checker_cited,
        )
        for r in references.values()
    ]
