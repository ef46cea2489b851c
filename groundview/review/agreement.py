"""Agreement statistics: checker vs. human per claim, calibration, reviewer vs. reviewer kappa.

A human claim label is matched to a checker claim by identical byte span in the answer's latest
successful check run. The checker's verdict on a claim is read off its response the way Vertex
defines it: groundingCheckRequired=false means "no check needed"; a claim with at least one
citation is supported; any other claim is unsupported.

An adjudicated claim (`models.Adjudication`) counts once, with its settled verdict, wherever a
human verdict is compared with the checker; reviewer-vs-reviewer figures keep every reviewer's own
verdict (they measure the reviewers), and each reviewer is also compared with the settled verdicts.

`build_report` groups the labels by claim (`group_claims`) and hands the claims to one function
per section of the report; a new section is one more such function.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from groundview.answers.models import CheckRun
from groundview.review.models import Adjudication, AnswerLabel, ClaimLabel, Verdict

CHECKER_OUTCOMES = [
    ("supported", "Cited (supported)"),
    ("unsupported", "Not cited"),
    ("no_check_needed", "No check needed"),
    ("unmatched", "No checker claim"),
]
CALIBRATION_BINS = 10
# The checker outcome a human verdict agrees with (partially supported agrees with nothing: the
# checker cites only wholly supported claims, so it is a disagreement either way).
AGREEING = {
    "supported": "supported",
    "unsupported": "unsupported",
    "contradicted": "unsupported",
    "no_check_needed": "no_check_needed",
}


def checker_outcome(claim: dict[str, Any]) -> str:
    if claim.get("groundingCheckRequired") is False:
        return "no_check_needed"
    return "supported" if claim.get("citationIndices") else "unsupported"


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Cohen's kappa for two raters' categorical labels; None when it is undefined."""
    n = len(pairs)
    if n == 0:
        return None
    observed = sum(a == b for a, b in pairs) / n
    left = Counter(a for a, _ in pairs)
    right = Counter(b for _, b in pairs)
    expected = sum(left[k] * right[k] for k in left) / (n * n)
    if expected == 1:
        # Both raters used one and the same category throughout: agreement is total but
        # kappa's chance correction is 0/0.
        return None
    return (observed - expected) / (1 - expected)


@dataclass
class CalibrationBin:
    low: float
    high: float
    count: int = 0
    supported: int = 0
    score_sum: float = 0.0

    @property
    def share(self) -> float | None:
        return self.supported / self.count if self.count else None

    @property
    def mean_score(self) -> float | None:
        return self.score_sum / self.count if self.count else None


@dataclass
class PairKappa:
    first: str
    second: str
    claims: int
    kappa: float | None
    agreement: float


@dataclass
class ReviewerVsFinal:
    reviewer: str
    claims: int
    agreement: float


@dataclass
class HumanClaim:
    """One claim (answer, span) with every reviewer's verdict and the checker's claim, if any."""

    answer_id: int
    start: int
    end: int
    checker: dict[str, Any] | None
    verdicts: dict[str, str] = field(default_factory=dict)  # reviewer -> verdict
    adjudicated: str = ""

    @property
    def final_verdicts(self) -> list[str]:
        """The human verdicts that count: the settled one, else every reviewer's."""
        return [self.adjudicated] if self.adjudicated else list(self.verdicts.values())


@dataclass
class AgreementReport:
    claim_labels: int = 0
    # confusion[human verdict][checker outcome] = count
    confusion: dict[str, dict[str, int]] = field(default_factory=dict)
    binary_pairs: int = 0
    binary_agreement: float | None = None
    binary_kappa: float | None = None
    calibration: list[CalibrationBin] = field(default_factory=list)
    doubly_labelled_claims: int = 0
    claim_kappa: float | None = None
    claim_agreement: float | None = None
    answer_kappa: float | None = None
    doubly_labelled_answers: int = 0
    pairs: list[PairKappa] = field(default_factory=list)
    adjudicated_claims: int = 0
    against_final: list[ReviewerVsFinal] = field(default_factory=list)

    @property
    def human_verdicts(self) -> list[tuple[str, str]]:
        return list(Verdict.choices)

    @property
    def checker_outcomes(self) -> list[tuple[str, str]]:
        return CHECKER_OUTCOMES

    def confusion_rows(self) -> list[tuple[str, list[tuple[int, float, bool]], int]]:
        """Rows of (label, [(count, heat 0..1, is an agreeing cell)], total) for the table."""
        peak = max((n for row in self.confusion.values() for n in row.values()), default=0) or 1
        rows = []
        for value, label in Verdict.choices:
            cells = [
                (
                    self.confusion[value][key],
                    self.confusion[value][key] / peak,
                    AGREEING.get(value) == key,
                )
                for key, _ in CHECKER_OUTCOMES
            ]
            rows.append((label, cells, sum(n for n, _, _ in cells)))
        return rows


def agreement_report(
    *,
    session_id: int | None = None,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
) -> AgreementReport:
    answer_labels = AnswerLabel.objects.all()
    if session_id is not None:
        answer_labels = answer_labels.filter(answer__session_id=session_id)
    if date_from is not None:
        answer_labels = answer_labels.filter(updated_at__date__gte=date_from)
    if date_to is not None:
        answer_labels = answer_labels.filter(updated_at__date__lte=date_to)
    labels = ClaimLabel.objects.filter(label__in=answer_labels)
    rows = list(
        labels.values(
            "label_id",
            "label__answer_id",
            "label__answer__latest_check_id",
            "label__reviewer__username",
            "start_index",
            "end_index",
            "verdict",
        )
    )
    responses = dict(
        CheckRun.objects.filter(
            id__in={r["label__answer__latest_check_id"] for r in rows} - {None},
            status=CheckRun.Status.SUCCEEDED,
        ).values_list("id", "response")
    )
    answer_rows = list(answer_labels.values_list("answer_id", "reviewer__username", "verdict"))
    adjudicated = {
        (answer_id, start, end): verdict
        for answer_id, start, end, verdict in Adjudication.objects.filter(
            answer__in=answer_labels.values("answer")
        ).values_list("answer_id", "start_index", "end_index", "verdict")
    }
    return build_report(rows, responses, answer_rows, adjudicated)


def checker_claims_by_span(response: dict[str, Any] | None) -> dict[tuple[int, int], dict]:
    claims = (response or {}).get("claims") or []
    spans = {}
    for claim in claims:
        if isinstance(claim, dict):
            spans[(int(claim.get("startPos", 0)), int(claim.get("endPos", 0)))] = claim
    return spans


def build_report(
    rows: Iterable[dict[str, Any]],
    responses: dict[int, Any],
    answer_rows: Iterable[tuple[int, str, str]] = (),
    adjudicated: dict[tuple[int, int, int], str] | None = None,
) -> AgreementReport:
    """The report from claim label rows (as `agreement_report` reads them), the latest runs'
    responses by run id, answer labels (answer id, reviewer, verdict) and settled verdicts by
    (answer id, start, end)."""
    report = AgreementReport()
    claims = group_claims(report, rows, responses, adjudicated or {})
    add_checker_figures(report, claims)
    add_reviewer_figures(report, claims, answer_rows)
    add_adjudication_figures(report, claims)
    return report


def group_claims(
    report: AgreementReport,
    rows: Iterable[dict[str, Any]],
    responses: dict[int, Any],
    adjudicated: dict[tuple[int, int, int], str],
) -> list[HumanClaim]:
    spans_of_run: dict[int, dict[tuple[int, int], dict]] = {}
    claims: dict[tuple[int, int, int], HumanClaim] = {}
    for row in rows:
        report.claim_labels += 1
        key = (row["label__answer_id"], row["start_index"], row["end_index"])
        claim = claims.get(key)
        if claim is None:
            run_id = row["label__answer__latest_check_id"]
            if run_id not in spans_of_run:
                spans_of_run[run_id] = checker_claims_by_span(responses.get(run_id))
            claim = claims[key] = HumanClaim(
                *key,
                checker=spans_of_run[run_id].get(key[1:]),
                adjudicated=adjudicated.get(key, ""),
            )
        claim.verdicts[row["label__reviewer__username"]] = row["verdict"]
    return list(claims.values())


def add_checker_figures(report: AgreementReport, claims: Iterable[HumanClaim]) -> None:
    """Human verdict vs. checker: the confusion table, binary agreement and kappa, calibration."""
    report.confusion = {v: {k: 0 for k, _ in CHECKER_OUTCOMES} for v in Verdict.values}
    report.calibration = [
        CalibrationBin(i / CALIBRATION_BINS, (i + 1) / CALIBRATION_BINS)
        for i in range(CALIBRATION_BINS)
    ]
    binary = []
    for claim in claims:
        outcome = checker_outcome(claim.checker) if claim.checker is not None else "unmatched"
        for human in claim.final_verdicts:
            report.confusion[human][outcome] += 1
            if claim.checker is None or outcome == "no_check_needed":
                continue
            if human == Verdict.NO_CHECK_NEEDED:
                continue
            binary.append((human == Verdict.SUPPORTED, outcome == "supported"))
            score = claim.checker.get("score")
            if isinstance(score, int | float):
                index = min(int(float(score) * CALIBRATION_BINS), CALIBRATION_BINS - 1)
                bucket = report.calibration[max(index, 0)]
                bucket.count += 1
                bucket.score_sum += float(score)
                bucket.supported += human == Verdict.SUPPORTED
    report.binary_pairs = len(binary)
    if binary:
        report.binary_agreement = sum(a == b for a, b in binary) / len(binary)
        report.binary_kappa = cohen_kappa([(str(a), str(b)) for a, b in binary])


def add_reviewer_figures(
    report: AgreementReport,
    claims: Iterable[HumanClaim],
    answer_rows: Iterable[tuple[int, str, str]],
) -> None:
    """Reviewer vs reviewer: every pair of reviewers on every claim (and answer) both labelled."""
    claim_pairs: list[tuple[str, str]] = []
    per_pair: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for claim in claims:
        verdicts = claim.verdicts
        if len(verdicts) < 2:
            continue
        report.doubly_labelled_claims += 1
        for first, second in combinations(sorted(verdicts), 2):
            pair = (verdicts[first], verdicts[second])
            claim_pairs.append(pair)
            per_pair[(first, second)].append(pair)
    if claim_pairs:
        report.claim_kappa = cohen_kappa(claim_pairs)
        report.claim_agreement = sum(a == b for a, b in claim_pairs) / len(claim_pairs)
    by_answer: dict[int, dict[str, str]] = defaultdict(dict)
    for answer_id, reviewer, verdict in answer_rows:
        by_answer[answer_id][reviewer] = verdict
    answer_pairs = []
    for verdicts in by_answer.values():
        if len(verdicts) >= 2:
            report.doubly_labelled_answers += 1
            answer_pairs.extend(
                (verdicts[a], verdicts[b]) for a, b in combinations(sorted(verdicts), 2)
            )
    report.answer_kappa = cohen_kappa(answer_pairs)
    report.pairs = [
        PairKappa(
            first,
            second,
            len(pairs),
            cohen_kappa(pairs),
            sum(a == b for a, b in pairs) / len(pairs),
        )
        for (first, second), pairs in sorted(per_pair.items())
    ]


def add_adjudication_figures(report: AgreementReport, claims: Iterable[HumanClaim]) -> None:
    """How many claims are settled, and how often each reviewer's verdict was the settled one."""
    hits: dict[str, list[bool]] = defaultdict(list)
    for claim in claims:
        if not claim.adjudicated:
            continue
        report.adjudicated_claims += 1
        for reviewer, verdict in claim.verdicts.items():
            hits[reviewer].append(verdict == claim.adjudicated)
    report.against_final = [
        ReviewerVsFinal(reviewer, len(marks), sum(marks) / len(marks))
        for reviewer, marks in sorted(hits.items())
    ]
