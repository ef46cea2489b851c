"""The head's cross-validation: held-out folds only, and the noise of the fold choice reported."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from groundview.grounding.fit_head import (
    Row,
    best_threshold,
    cross_validate,
    repeated,
    shipped_threshold,
)
from groundview.grounding.support import FEATURES


def _rows(signal: float, n: int = 200, seed: int = 0) -> list[Row]:
    """Rows whose first feature is the label times `signal` plus unit noise; nothing capped."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        label = i % 2
        features = [0.0] * len(FEATURES)
        features[0] = label * signal + float(rng.normal())
        features[1] = float(rng.normal())
        rows.append(Row(features, label, "supported" if label else "not_supported", i % 5, set()))
    return rows


def test_a_clear_signal_scores_high_on_every_partition_and_noise_scores_chance() -> None:
    clear = repeated(_rows(signal=6.0), [0, 1], repeats=3)
    noise = repeated(_rows(signal=0.0), [0, 1], repeats=3)
    assert clear["balanced_accuracy"][0] > 0.95 and clear["auc"][0] > 0.98
    assert 0.35 < noise["balanced_accuracy"][0] < 0.65
    assert 0.3 < noise["auc"][0] < 0.7
    # The partitions differ, so a noisy signal moves between them
    assert noise["balanced_accuracy"][1] > 0


def test_every_row_is_scored_by_a_head_that_did_not_see_it() -> None:
    # Given rows whose label is written in a feature only within each fold's own rows
    rows = _rows(signal=0.0)
    for r in rows:
        r.features[1] = float(r.label if r.fold == 0 else 1 - r.label)
    # Then the held-out fold, fitted on the other four, is scored backwards
    z, pred = cross_validate(rows, [1])
    fold0 = np.asarray([r.fold == 0 for r in rows])
    labels = np.asarray([r.label for r in rows])
    assert (pred[fold0] != labels[fold0]).all()
    assert (pred[~fold0] == labels[~fold0]).all()


def test_the_shipped_threshold_is_the_mean_of_each_partitions_best_cut() -> None:
    rows = _rows(signal=1.0, seed=3)
    cuts = []
    for seed in range(4):
        rng = np.random.default_rng(seed)
        shuffled = [replace(r, fold=int(rng.integers(5))) for r in rows]
        z, _ = cross_validate(shuffled, [0, 1])
        cuts.append(best_threshold(np.asarray([r.label for r in rows]), z))
    # The partitions disagree on the best cut, and the shipped one is their mean
    assert max(cuts) - min(cuts) > 0
    assert shipped_threshold(rows, [0, 1], (), repeats=4) == np.mean(cuts)
