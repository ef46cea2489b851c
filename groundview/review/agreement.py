"""Agreement statistics: checker vs. human per claim, calibration, reviewer vs. reviewer kappa.

A human claim label is matched to a checker claim by identical byte span in the answer's latest
successful check run. The checker's verdict on a claim is read off its response the way Vertex
defines it: groundingCheckRequired=false means "no check needed"; a claim with at least one
citation is supported; any other claim is unsupported.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from groundview.answers.models import CheckRun
from groundview.review.models import AnswerLabel, ClaimLabel, Verdict

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
    return build_report(rows, responses, answer_rows)


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
) -> AgreementReport:
    report = AgreementReport()
    report.confusion = {v: {k: 0 for k, _ in CHECKER_OUTCOMES} for v in Verdict.values}
    report.calibration = [
        CalibrationBin(i / CALIBRATION_BINS, (i + 1) / CALIBRATION_BINS)
        for i in range(CALIBRATION_BINS)
    ]
    spans_of_run: dict[int, dict[tuple[int, int], dict]] = {}
    binary = []
    # (answer, span) -> {reviewer: verdict}; answer -> {reviewer: answer verdict}
    by_claim: dict[tuple[int, int, int], dict[str, str]] = defaultdict(dict)
    by_answer: dict[int, dict[str, str]] = defaultdict(dict)

    for row in rows:
        report.claim_labels += 1
        human = row["verdict"]
        span = (row["start_index"], row["end_index"])
        run_id = row["label__answer__latest_check_id"]
        if run_id not in spans_of_run:
            spans_of_run[run_id] = checker_claims_by_span(responses.get(run_id))
        claim = spans_of_run[run_id].get(span)
        outcome = checker_outcome(claim) if claim is not None else "unmatched"
        report.confusion[human][outcome] += 1
        if claim is not None and outcome != "no_check_needed" and human != Verdict.NO_CHECK_NEEDED:
            binary.append((human == Verdict.SUPPORTED, outcome == "supported"))
            score = claim.get("score")
            if isinstance(score, int | float):
                index = min(int(float(score) * CALIBRATION_BINS), CALIBRATION_BINS - 1)
                bucket = report.calibration[max(index, 0)]
                bucket.count += 1
                bucket.score_sum += float(score)
                bucket.supported += human == Verdict.SUPPORTED
        reviewer = row["label__reviewer__username"]
        by_claim[(row["label__answer_id"], *span)][reviewer] = human

    report.binary_pairs = len(binary)
    if binary:
        report.binary_agreement = sum(a == b for a, b in binary) / len(binary)
        report.binary_kappa = cohen_kappa([(str(a), str(b)) for a, b in binary])

    # Reviewer vs reviewer: every pair of reviewers on every claim both labelled.
    claim_pairs: list[tuple[str, str]] = []
    per_pair: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for verdicts in by_claim.values():
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
    return report
