"""Support scoring of a claim against an evidence unit.

A bi-encoder's cosine says "similar", not "supported" (DESIGN §5), so the features here measure coverage
(are the claim's words, bigrams, numbers and names present in the evidence, exactly or as contextual token
matches) and consistency (a different number, a missing name, a flipped negation). A logistic model whose
coefficients live in `verifier.json` (written by `bench/train_verifier.py`) turns them into P(supported).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .lexical import Analysis, Number, numbers_match
from .models import Encoded, FloatArray

FEATURES: tuple[str, ...] = (
    "cos_max",  # best sentence-embedding cosine between claim and a sentence of the unit
    "lex_cov",  # share of the claim's distinct content stems found in the unit (or its fact's attributes)
    "lex_missing",  # how many distinct content stems are missing (capped at 6)
    "bigram_cov",  # share of the claim's content bigrams found in order in the unit
    "soft_mean",  # BERTScore-style: mean over claim content pieces of the best token cosine in the unit
    "soft_min",  # the worst-matched claim piece: a single wrong word shows up here
    "soft_low2",  # mean of the two worst-matched pieces
    "num_missing",  # share of the claim's numbers that no unit number supports
    "num_conflict",  # a claim number is unsupported while the unit has numbers (a different number)
    "name_missing",  # share of the claim's capitalised names absent from the unit
    "neg_mismatch",  # the claim is negated and the unit is not, or the other way round
    "claim_len",  # log(1 + distinct content stems): long claims are harder to cover wholly
    "is_pair",  # the unit is two adjacent sentences (a combined claim) rather than one
    "fact_lex_cov",  # share of content stems found anywhere in the unit's whole fact (context)
    "fact_num_missing",  # share of the claim's numbers found nowhere in the whole fact
)


@dataclass(frozen=True)
class EvidenceView:
    """The evidence side of a pair: one or two adjacent chunks and the fact's attributes."""

    analyses: Sequence[Analysis]
    encodings: Sequence[Encoded]
    attributes: Analysis
    attribute_encoding: Encoded | None
    fact_stems: frozenset[str] = frozenset()
    fact_numbers: Sequence[Number] = ()


def _bigrams(content: Sequence[str]) -> set[tuple[str, str]]:
    return {(a, b) for a, b in zip(content, content[1:], strict=False)}


def pair_features(claim: Analysis, claim_enc: Encoded, evidence: EvidenceView) -> list[float]:
    stems: set[str] = set(evidence.attributes.stems)
    unit_bigrams: set[tuple[str, str]] = set()
    numbers = list(evidence.attributes.numbers)
    negated = False
    for a in evidence.analyses:
        stems.update(a.stems)
        unit_bigrams |= _bigrams(a.content)
        numbers.extend(a.numbers)
        negated = negated or a.negated

    distinct = list(dict.fromkeys(claim.content))
    covered = sum(1 for s in distinct if s in stems)
    lex_cov = covered / len(distinct) if distinct else 1.0
    lex_missing = float(min(len(distinct) - covered, 6))
    claim_bigrams = _bigrams(claim.content)
    bigram_cov = (
        sum(1 for bg in claim_bigrams if bg in unit_bigrams) / len(claim_bigrams)
        if claim_bigrams
        else lex_cov
    )

    cos_max = max((float(claim_enc.vector @ e.vector) for e in evidence.encodings), default=0.0)
    soft_mean, soft_min, soft_low2 = _soft_coverage(claim_enc, evidence)

    missing_numbers = [n for n in claim.numbers if not any(numbers_match(n, m) for m in numbers)]
    num_missing = len(missing_numbers) / len(claim.numbers) if claim.numbers else 0.0
    num_conflict = 1.0 if missing_numbers and numbers else 0.0
    names = claim.names
    name_missing = sum(1 for n in names if n not in stems) / len(names) if names else 0.0
    neg_mismatch = 1.0 if claim.negated != negated else 0.0
    fact_stems = evidence.fact_stems | stems
    fact_lex = sum(1 for s in distinct if s in fact_stems) / len(distinct) if distinct else 1.0
    fact_numbers = [*numbers, *evidence.fact_numbers]
    fact_num_missing = (
        sum(1 for n in claim.numbers if not any(numbers_match(n, m) for m in fact_numbers))
        / len(claim.numbers)
        if claim.numbers
        else 0.0
    )
    return [
        cos_max,
        lex_cov,
        lex_missing,
        bigram_cov,
        soft_mean,
        soft_min,
        soft_low2,
        num_missing,
        num_conflict,
        name_missing,
        neg_mismatch,
        math.log1p(len(distinct)),
        1.0 if len(evidence.analyses) > 1 else 0.0,
        fact_lex,
        fact_num_missing,
    ]


def _soft_coverage(claim_enc: Encoded, evidence: EvidenceView) -> tuple[float, float, float]:
    claim_tokens = claim_enc.tokens[claim_enc.content]
    if claim_tokens.shape[0] == 0:
        return 1.0, 1.0, 1.0
    parts = [e.tokens for e in evidence.encodings]
    if evidence.attribute_encoding is not None:
        parts.append(evidence.attribute_encoding.tokens)
    parts = [p for p in parts if p.shape[0]]
    if not parts:
        return 0.0, 0.0, 0.0
    unit_tokens = np.concatenate(parts, axis=0)
    best = (claim_tokens @ unit_tokens.T).max(axis=1)
    ordered = np.sort(best)
    return float(best.mean()), float(ordered[0]), float(ordered[:2].mean())


DEFAULT_VERIFIER = Path(__file__).with_name("verifier.json")


class FeatureVerifier:
    """Logistic regression over FEATURES with standardisation, coefficients read from JSON."""

    def __init__(self, path: str | Path | None = None) -> None:
        file = Path(path) if path else DEFAULT_VERIFIER
        try:
            spec: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise FileNotFoundError(f"verifier coefficients not readable at {file}: {exc}") from exc
        names = tuple(spec["features"])
        if names != FEATURES:
            raise ValueError(
                f"{file} was trained on features {names}, this engine computes {FEATURES}; "
                "retrain with `make train-verifier`"
            )
        self.version: str = str(spec.get("version", "features"))
        self._mean = np.asarray(spec["mean"], dtype=np.float64)
        self._scale = np.asarray(spec["scale"], dtype=np.float64)
        self._coef = np.asarray(spec["coef"], dtype=np.float64)
        self._intercept = float(spec["intercept"])

    def score(self, features: npt.ArrayLike) -> FloatArray:
        x = np.asarray(features, dtype=np.float64).reshape(-1, len(FEATURES))
        z = ((x - self._mean) / self._scale) @ self._coef + self._intercept
        return (1.0 / (1.0 + np.exp(-z))).astype(np.float32)
