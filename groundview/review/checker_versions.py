"""Checker versions: the checker's head recalibrated on human claim labels, compared, made default.

What is fitted. A stored check response keeps each claim's score, not the features behind it, and a
score depends on the head that produced it. So the claims people labelled are read again by the
engine (`Engine.analyse_claims` on the answer's own facts, as a check would build them; this is
what costs model time), which yields head-independent features. Then, by `method`:

- "platt" (the default): two numbers, a slope and an offset on the configured head's log-odds,
  pulled towards "no change" so that a few dozen labels cannot swing it far. It moves scores to
  match how often people say "supported", and therefore which claims reach the citation threshold;
  it does not reorder claims (AUC stays the same, save for the consistency cap).
- "features": every coefficient of the head refitted, pulled towards the configured head's. It can
  reorder claims, and needs many more labels to beat the head fitted on public data.

Either way the result is a whole head file (the shape of groundview/grounding/head.json), so the
engine uses it as it uses its own. Versions always start from the configured head, never from an
earlier version: a newer version supersedes, it does not stack.

The split is fixed by answer, so no answer's claims sit on both sides: an answer is held out when
crc32 of its name modulo 10 is below 3 (about 30%). Held-out claims are never fitted on; every head
is scored on them with the same threshold, the default citation threshold.

A claim's label: its settled verdict when an adjudicator gave one (review/adjudication.py), else
the verdicts of every reviewer who judged it ("no check needed" aside) as the share that said
"supported" (two reviewers who disagree make a claim half supported).
"""

from __future__ import annotations

import json
import logging
import zlib
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings
from django.db import transaction

from groundview.answers import checks
from groundview.answers.models import Answer, CheckerVersion
from groundview.errors import FieldError
from groundview.review.models import Adjudication, ClaimLabel, Verdict

logger = logging.getLogger(__name__)

HELDOUT_MODULUS = 10
HELDOUT_BELOW = 3
SPLIT_RULE = f"an answer is held out when crc32(name) % {HELDOUT_MODULUS} < {HELDOUT_BELOW}"
BINS = 10
# Strength of the pull towards the configured head (a Gaussian prior on the fitted numbers, in the
# units of the loss summed over claims): with 50 claims it keeps a fit from chasing noise, with
# thousands it hardly matters.
PRIOR_STRENGTH = {"platt": 2.0, "features": 5.0}
PACKAGED = "packaged head"


class CalibrationError(Exception):
    """The stored labels cannot support a calibration; the message says why and what to do."""


class VersionError(FieldError):
    """A version cannot be made the default."""


def is_heldout(answer_name: str) -> bool:
    return zlib.crc32(answer_name.encode()) % HELDOUT_MODULUS < HELDOUT_BELOW


def min_labels() -> int:
    return max(1, settings.GROUNDVIEW_CALIBRATION_MIN_LABELS)


# --- the labels ---------------------------------------------------------------------------------


@dataclass
class LabelledClaim:
    answer_id: int
    answer_name: str
    start: int
    end: int
    text: str
    # Share of its reviewers who said "supported".
    supported: float
    reviewers: int

    @property
    def heldout(self) -> bool:
        return is_heldout(self.answer_name)


def claim_labels() -> dict[tuple[int, int, int], tuple[float, int]]:
    """(answer id, start, end) -> (share labelled supported, verdicts behind it).

    A settled claim (an `Adjudication`) takes its final verdict; otherwise the reviewers' verdicts
    count as the share that said "supported" (the same as the final label when they agree; a
    disputed claim is half-way evidence, not none). "No check needed" says nothing about support,
    so those verdicts are left out, and a claim with no other verdict with them.
    """
    verdicts: dict[tuple[int, int, int], list[str]] = defaultdict(list)
    for answer_id, start, end, verdict in ClaimLabel.objects.values_list(
        "label__answer_id", "start_index", "end_index", "verdict"
    ).order_by("label__answer_id", "start_index", "end_index", "label_id"):
        verdicts[(answer_id, start, end)].append(verdict)
    settled = {
        (answer_id, start, end): verdict
        for answer_id, start, end, verdict in Adjudication.objects.values_list(
            "answer_id", "start_index", "end_index", "verdict"
        )
    }
    for key in settled:
        verdicts.setdefault(key, [])
    labels: dict[tuple[int, int, int], tuple[float, int]] = {}
    for key, given in sorted(verdicts.items()):
        if key in settled:
            if settled[key] != Verdict.NO_CHECK_NEEDED:
                labels[key] = (float(settled[key] == Verdict.SUPPORTED), max(len(given), 1))
            continue
        said = [v for v in given if v != Verdict.NO_CHECK_NEEDED]
        if said:
            labels[key] = (sum(v == Verdict.SUPPORTED for v in said) / len(said), len(said))
    return labels


def select_labelled_claims() -> list[LabelledClaim]:
    """Every claim with a human label the checker's score speaks to (see `claim_labels`)."""
    labels = claim_labels()
    answers = Answer.objects.only("pk", "name", "answer_text").in_bulk({k[0] for k in labels})
    claims = []
    for (answer_id, start, end), (supported, reviewers) in labels.items():
        answer = answers[answer_id]
        text = answer.answer_text.encode()[start:end].decode("utf-8", errors="replace").strip()
        claims.append(LabelledClaim(answer_id, answer.name, start, end, text, supported, reviewers))
    return claims


def count_labelled_claims() -> int:
    return len(claim_labels())


# --- features: the model-time part -------------------------------------------------------------


def scoring_texts(answer_text: str, claims: Sequence[LabelledClaim]) -> list[str]:
    """Each labelled claim as the engine reads it in a check: a leading "It" takes the subject of
    the answer's sentences before it (grounding/context.py)."""
    from groundview.grounding.claims import segment_claims
    from groundview.grounding.context import resolve

    sentences = segment_claims(answer_text)
    out = []
    for claim in claims:
        before = [s.text for s in sentences if s.end_byte <= claim.start]
        out.append(resolve([*before, claim.text])[-1])
    return out


def claim_features(
    claims: Sequence[LabelledClaim],
    engine,
    progress: Callable[[int], None] | None = None,
) -> list[list[float] | None]:
    """The engine's features of each claim against its answer's facts; None when the answer has
    no evidence to read (the engine scores such a claim 0 whatever its head)."""
    from groundview.grounding import Fact

    by_answer: dict[int, list[int]] = defaultdict(list)
    for index, claim in enumerate(claims):
        by_answer[claim.answer_id].append(index)
    answers = Answer.objects.in_bulk(list(by_answer))
    out: list[list[float] | None] = [None] * len(claims)
    for answer_id, indices in by_answer.items():
        answer = answers[answer_id]
        request, _ = checks.prepare_request(answer)
        facts = [Fact(f["factText"], dict(f.get("attributes") or {})) for f in request["facts"]]
        if facts:
            texts = scoring_texts(answer.answer_text, [claims[i] for i in indices])
            results = engine.analyse_claims(texts, facts, in_context=False)
            for index, result in zip(indices, results, strict=True):
                out[index] = list(result.features) if result.features else None
        if progress is not None:
            progress(len(indices))
    return out


# --- heads, fits and figures (numpy only: scikit-learn is a training-time dependency) ------------


def head_kind(verifier: str) -> str:
    if verifier == "cross-encoder":
        raise CalibrationError(
            "GROUNDING verifier 'cross-encoder' averages a local model with the head outside any "
            "head file; calibrate_checker fits heads, so it needs the 'features' or 'stacked' "
            "verifier"
        )
    return "stacked" if verifier == "stacked" else "features"


def configured_head(config) -> tuple[dict[str, Any], str]:
    """The head file the settings name (or the packaged one) and what to call it."""
    from groundview.grounding.head import DEFAULT_HEAD

    path = Path(config.head_path) if config.head_path else DEFAULT_HEAD
    spec = json.loads(path.read_text(encoding="utf-8"))
    name = f"configured head ({path.name})" if config.head_path else PACKAGED
    return spec, name


def base_head_name() -> str:
    """What checks use when no version is the default."""
    head_path = checks.base_config().head_path
    return f"configured head ({Path(head_path).name})" if head_path else PACKAGED


def decision(head: dict[str, Any], features: np.ndarray) -> np.ndarray:
    """The head's log-odds, exactly as groundview/grounding/head.py computes them."""
    mean = np.asarray(head["mean"], dtype=np.float64)
    scale = np.asarray(head["scale"], dtype=np.float64)
    coef = np.asarray(head["coef"], dtype=np.float64)
    return ((features - mean) / scale) @ coef + float(head["intercept"])


def claim_scores(head: dict[str, Any], features: np.ndarray) -> np.ndarray:
    """Claim probabilities as the engine gives them: the head, then the consistency cap."""
    from groundview.grounding.support import capped

    scores = 1.0 / (1.0 + np.exp(-decision(head, features)))
    return np.asarray([capped(s, row) for s, row in zip(scores, features.tolist(), strict=True)])


def fit_logistic(x: np.ndarray, y: np.ndarray, prior: np.ndarray, strength: float) -> np.ndarray:
    """Logistic regression (soft labels allowed) with a Gaussian prior centred on `prior`: the
    posterior mode, by Newton's method with step halving (a full Newton step overshoots when the
    labels nearly separate the scores)."""

    def loss(theta: np.ndarray) -> float:
        z = x @ theta
        prior_term = strength / 2 * float((theta - prior) @ (theta - prior))
        return float(np.sum(np.logaddexp(0.0, z) - y * z)) + prior_term

    theta = prior.astype(np.float64).copy()
    eye = np.eye(len(theta))
    current = loss(theta)
    for _ in range(200):
        p = 1.0 / (1.0 + np.exp(-(x @ theta)))
        gradient = x.T @ (p - y) + strength * (theta - prior)
        hessian = (x * (p * (1 - p))[:, None]).T @ x + strength * eye
        step = np.linalg.solve(hessian, gradient)
        size = 1.0
        while size > 1e-6 and loss(theta - size * step) > current:
            size /= 2
        theta = theta - size * step
        previous, current = current, loss(theta)
        if previous - current < 1e-10:
            break
    return theta


def platt(head: dict[str, Any], features: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Slope and offset on the head's log-odds that best match the labels."""
    z = decision(head, features)
    slope, offset = fit_logistic(
        np.column_stack([z, np.ones_like(z)]), y, np.array([1.0, 0.0]), PRIOR_STRENGTH["platt"]
    )
    if slope <= 0:
        raise CalibrationError(
            "on the labelled claims, higher checker scores go with fewer 'supported' verdicts; "
            "a calibration would invert the checker. Check the labels"
        )
    return float(slope), float(offset)


def scaled(head: dict[str, Any], slope: float, offset: float) -> dict[str, Any]:
    """The head whose log-odds are slope * the old ones + offset."""
    return {
        **head,
        "coef": [round(float(v) * slope, 6) for v in head["coef"]],
        "intercept": round(float(head["intercept"]) * slope + offset, 6),
    }


def refit(head: dict[str, Any], features: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    """Every coefficient refitted (same features, same standardisation), pulled towards the head."""
    standard = (features - np.asarray(head["mean"])) / np.asarray(head["scale"])
    x = np.column_stack([standard, np.ones(len(standard))])
    prior = np.append(np.asarray(head["coef"], dtype=np.float64), float(head["intercept"]))
    theta = fit_logistic(x, y, prior, PRIOR_STRENGTH["features"])
    return {
        **head,
        "coef": [round(float(v), 6) for v in theta[:-1]],
        "intercept": round(float(theta[-1]), 6),
    }


def fitted_heads(
    spec: dict[str, Any], kind: str, features: np.ndarray, y: np.ndarray, method: str
) -> dict[str, dict[str, Any]]:
    """Every head of the spec, recalibrated. Platt's slope and offset apply to them all (a stacked
    spec also holds the features-only head the engine falls back to past its cross-encoder
    budget); a refit changes only the head the engine's verifier uses."""
    heads = spec["heads"]
    if method == "platt":
        slope, offset = platt(heads[kind], features, y)
        return {name: scaled(head, slope, offset) for name, head in heads.items()}
    return {
        name: refit(head, features, y) if name == kind else head for name, head in heads.items()
    }


def weighted_auc(scores: np.ndarray, y: np.ndarray) -> float | None:
    """Probability that a supported claim outscores an unsupported one (ties count half), with a
    claim's share of "supported" verdicts as its weight on the supported side."""
    positive, negative = y, 1.0 - y
    total = float(positive.sum() * negative.sum())
    if total <= 0:
        return None
    values, inverse = np.unique(scores, return_inverse=True)
    neg_at = np.bincount(inverse, weights=negative, minlength=len(values))
    pos_at = np.bincount(inverse, weights=positive, minlength=len(values))
    below = np.cumsum(neg_at) - neg_at
    return float((pos_at * (below + neg_at / 2)).sum() / total)


def evaluate(scores: np.ndarray, y: np.ndarray, threshold: float) -> dict[str, Any]:
    """Held-out figures of one head: balanced accuracy at the threshold, AUC, Brier, bins."""
    positive, negative = float(y.sum()), float((1 - y).sum())
    passed = scores >= threshold
    balanced = None
    if positive > 0 and negative > 0:
        recall = float((y * passed).sum()) / positive
        specificity = float(((1 - y) * ~passed).sum()) / negative
        balanced = (recall + specificity) / 2
    bins = []
    index = np.minimum((scores * BINS).astype(int), BINS - 1)
    for b in range(BINS):
        inside = index == b
        count = int(inside.sum())
        bins.append(
            {
                "low": b / BINS,
                "high": (b + 1) / BINS,
                "count": count,
                "mean_score": round(float(scores[inside].mean()), 4) if count else None,
                "share_supported": round(float(y[inside].mean()), 4) if count else None,
            }
        )
    auc = weighted_auc(scores, y)
    return {
        "claims": len(y),
        "balanced_accuracy": round(balanced, 4) if balanced is not None else None,
        "auc": round(auc, 4) if auc is not None else None,
        "brier": round(float(np.mean((scores - y) ** 2)), 4) if len(y) else None,
        "bins": bins,
    }


# --- calibrating --------------------------------------------------------------------------------


@dataclass
class Prepared:
    """Labelled claims with features, split, ready to fit (what the command shows before fitting)."""

    train: list[tuple[LabelledClaim, list[float]]]
    heldout: list[tuple[LabelledClaim, list[float]]]
    without_evidence: int


def check_enough(claims: Sequence[LabelledClaim], needed: int) -> None:
    """Refuse, saying how many there are, unless the labels can support a fit."""
    labels = sum(c.reviewers for c in claims)
    if len(claims) < needed:
        raise CalibrationError(
            f"calibrate_checker needs at least {needed} labelled claims and {len(claims)} are "
            f"stored ({labels} claim verdicts by reviewers, 'no check needed' not counted). "
            "Label more claims, or set GROUNDVIEW_CALIBRATION_MIN_LABELS lower."
        )
    train = [c for c in claims if not c.heldout]
    heldout = [c for c in claims if c.heldout]
    if not heldout:
        raise CalibrationError(
            f"none of the {len(claims)} labelled claims is on a held-out answer ({SPLIT_RULE}); "
            "label claims of more answers"
        )
    supported = sum(c.supported for c in train)
    if supported == 0 or supported == len(train):
        side = "supported" if supported == len(train) else "not supported"
        raise CalibrationError(
            f"every one of the {len(train)} training claims is labelled {side}; a calibration "
            "needs claims of both kinds"
        )


def prepare(
    claims: Sequence[LabelledClaim],
    engine,
    progress: Callable[[int], None] | None = None,
) -> Prepared:
    features = claim_features(claims, engine, progress)
    prepared = Prepared([], [], 0)
    for claim, row in zip(claims, features, strict=True):
        if row is None:
            prepared.without_evidence += 1
        elif claim.heldout:
            prepared.heldout.append((claim, row))
        else:
            prepared.train.append((claim, row))
    return prepared


def comparable_heads(kind: str, names: Sequence[str], base: tuple[dict[str, Any], str]):
    """(name, version or None, head) for the configured head and every stored version of this kind
    and feature set (a version fitted on other features cannot score these claims)."""
    spec, label = base
    yield label, None, spec["heads"][kind]
    for version in CheckerVersion.objects.order_by("created_at", "id"):
        head = (version.head_spec.get("heads") or {}).get(kind)
        if head and list(head.get("features", [])) == list(names):
            yield version.name, version, head


def calibrate(
    *,
    method: str = "platt",
    engine=None,
    user=None,
    needed: int | None = None,
    progress_factory: Callable[[int], Callable[[int], None]] | None = None,
) -> CheckerVersion:
    """Fit a new checker version on the stored labels and save it (not as the default).

    `progress_factory(total_claims)` returns a callback told how many claims each answer added, so
    a command can draw a bar; the engine's reading of the claims is the slow part.
    """
    from groundview.grounding import get_engine as grounding_engine

    if method not in PRIOR_STRENGTH:
        raise CalibrationError(f"method must be one of {sorted(PRIOR_STRENGTH)}, not {method!r}")
    config = checks.base_config()
    kind = head_kind(config.verifier)
    claims = select_labelled_claims()
    check_enough(claims, min_labels() if needed is None else needed)
    base_spec, base_name = configured_head(config)
    names = check_base_features(base_spec, base_name, kind)

    engine = engine if engine is not None else grounding_engine(config)
    progress = progress_factory(len(claims)) if progress_factory else None
    prepared = prepare(claims, engine, progress)
    check_prepared(prepared)
    x_train, y_train = as_arrays(prepared.train)
    x_held, y_held = as_arrays(prepared.heldout)
    new_heads = fitted_heads(base_spec, kind, x_train, y_train, method)

    threshold = config.default_citation_threshold
    comparison = [
        {
            "name": name,
            "version_id": version.pk if version else None,
            **evaluate(claim_scores(head, x_held), y_held, threshold),
        }
        for name, version, head in comparable_heads(kind, names, (base_spec, base_name))
    ]
    mine = evaluate(claim_scores(new_heads[kind], x_held), y_held, threshold)
    fitted_on = {
        "train": side_counts(prepared.train),
        "heldout": side_counts(prepared.heldout),
        "without_evidence": prepared.without_evidence,
        "split": SPLIT_RULE,
        "threshold": threshold,
        "kind": kind,
        "prior_strength": PRIOR_STRENGTH[method],
    }
    version = save_version(
        base_spec, new_heads, method, config.verifier, kind, fitted_on, mine, comparison, user
    )
    logger.info(
        "checker version %s: %d training claims, held-out balanced accuracy %s, AUC %s",
        version.name,
        len(prepared.train),
        mine["balanced_accuracy"],
        mine["auc"],
    )
    return version


def check_base_features(base_spec: dict[str, Any], base_name: str, kind: str) -> tuple[str, ...]:
    """The engine's feature names, if the head calibrated from was fitted on them."""
    from groundview.grounding.head import feature_names

    names = feature_names(kind == "stacked")
    fitted = base_spec["heads"][kind]["features"]
    if tuple(fitted) != names:
        raise CalibrationError(
            f"{base_name} was fitted on features {fitted}, the engine computes "
            f"{list(names)}; refit it with `make train-checker` first"
        )
    return names


def check_prepared(prepared: Prepared) -> None:
    """Claims without evidence have no features: what is left must still have both sides."""
    if not prepared.train or not prepared.heldout:
        raise CalibrationError(
            f"after leaving out {prepared.without_evidence} claims of answers without evidence, "
            f"{len(prepared.train)} training and {len(prepared.heldout)} held-out claims remain; "
            "both sides need some"
        )
    supported = sum(claim.supported for claim, _ in prepared.train)
    if not 0 < supported < len(prepared.train):
        raise CalibrationError(
            "the training claims that have evidence are all labelled alike; a calibration needs "
            "claims of both kinds"
        )


def as_arrays(side: Sequence[tuple[LabelledClaim, list[float]]]) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray([row for _, row in side], dtype=np.float64)
    y = np.asarray([claim.supported for claim, _ in side], dtype=np.float64)
    return x, y


def side_counts(side: Sequence[tuple[LabelledClaim, list[float]]]) -> dict[str, Any]:
    return {
        "claims": len(side),
        "answers": len({c.answer_id for c, _ in side}),
        "claim_labels": sum(c.reviewers for c, _ in side),
        "supported": round(sum(c.supported for c, _ in side), 2),
    }


def save_version(
    base_spec: dict[str, Any],
    heads: dict[str, Any],
    method: str,
    verifier: str,
    kind: str,
    fitted_on: dict[str, Any],
    mine: dict[str, Any],
    comparison: list[dict[str, Any]],
    user,
) -> CheckerVersion:
    """Store the fitted heads as a new version, named after its id (cal-<id>)."""
    from groundview.grounding import ENGINE_VERSION

    calibrated_from = f"{base_spec.get('version', 'head')}-{kind}"
    with transaction.atomic():
        version = CheckerVersion.objects.create(
            name="pending",
            engine_version=ENGINE_VERSION,
            verifier=verifier,
            method=method,
            calibrated_from=calibrated_from,
            head_spec={},
            fitted_on=fitted_on,
            heldout_claims=mine["claims"],
            balanced_accuracy=mine["balanced_accuracy"],
            auc=mine["auc"],
            brier=mine["brier"],
            calibration_bins=mine["bins"],
            created_by=user,
        )
        version.name = f"cal-{version.pk}"
        version.head_spec = {
            # Head.version is "<version>-<kind>": run model ids then read "...+head-v3+cal-3-features".
            "version": f"{base_spec.get('version', 'head')}+{version.name}",
            "heads": heads,
            "calibrated_from": calibrated_from,
            "method": method,
            "fitted_on": fitted_on,
        }
        version.comparison = [*comparison, {"name": version.name, "version_id": version.pk, **mine}]
        version.save(update_fields=["name", "head_spec", "comparison"])
    return version


# --- the default --------------------------------------------------------------------------------


def make_default(version_id: int | None) -> CheckerVersion | None:
    """Make this version the one every engine scores with; None goes back to the configured head.

    Engines pick it up on their next check (answers/checks/versions.py). Runs already made keep
    the version they were made with.
    """
    from groundview.grounding.head import feature_names

    with transaction.atomic():
        version = None
        if version_id is not None:
            version = CheckerVersion.objects.select_for_update().filter(pk=version_id).first()
            if version is None:
                raise VersionError("version", "no such checker version", record=str(version_id))
            kind = head_kind(checks.base_config().verifier)
            head = (version.head_spec.get("heads") or {}).get(kind)
            names = list(feature_names(kind == "stacked"))
            if not head or list(head.get("features", [])) != names:
                raise VersionError(
                    "head_spec",
                    f"has no '{kind}' head over the features this engine computes",
                    record=version.name,
                )
        # Unset first: the database allows one default at a time.
        CheckerVersion.objects.filter(is_default=True).exclude(pk=version_id).update(
            is_default=False
        )
        if version is not None and not version.is_default:
            version.is_default = True
            version.save(update_fields=["is_default"])
    return version


# --- the page's reads ---------------------------------------------------------------------------


@dataclass
class HeadFigures:
    name: str
    version_id: int | None
    claims: int
    balanced_accuracy: float | None
    auc: float | None
    brier: float | None
    bins: list[dict[str, Any]]
    is_default: bool = False

    @property
    def points(self) -> list[tuple[float, float, int]]:
        return [
            (b["mean_score"], b["share_supported"], b["count"])
            for b in self.bins
            if b["count"] and b["mean_score"] is not None
        ]


@dataclass
class VersionsPage:
    versions: list[CheckerVersion]
    default: CheckerVersion | None
    # Every head on the newest version's held-out claims (the freshest labels).
    comparison: list[HeadFigures]
    compared_on: CheckerVersion | None
    labelled_claims: int
    needed: int
    # What checks use when no version is the default: the packaged head or the settings' file.
    base_name: str


def select_versions_page() -> VersionsPage:
    versions = list(CheckerVersion.objects.select_related("created_by"))
    default = next((v for v in versions if v.is_default), None)
    latest = versions[0] if versions else None
    comparison = []
    if latest is not None:
        default_id = default.pk if default else None
        for row in latest.comparison:
            comparison.append(
                HeadFigures(
                    name=row["name"],
                    version_id=row["version_id"],
                    claims=row["claims"],
                    balanced_accuracy=row["balanced_accuracy"],
                    auc=row["auc"],
                    brier=row["brier"],
                    bins=row["bins"],
                    is_default=row["version_id"] == default_id,
                )
            )
    return VersionsPage(
        versions=versions,
        default=default,
        comparison=comparison,
        compared_on=latest,
        labelled_claims=count_labelled_claims(),
        needed=min_labels(),
        base_name=base_head_name(),
    )
