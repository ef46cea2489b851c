"""The head's cross-validation: held-out folds only, and the noise of the fold choice reported."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from groundview.grounding import Engine
from groundview.grounding.fit_head import (
    Row,
    Summary,
    begin_rows,
    best_threshold,
    claim_labels,
    cross_validate,
    repeated,
    shipped_threshold,
    summedits_fold_heads,
)
from groundview.grounding.head import Head
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


def test_an_edited_summary_is_unsupported_only_where_the_edit_is() -> None:
    # Non-ASCII claims compare as written
    seed = "The plan costs $20 a month. 支持 24 languages 🌍. Setup is free."
    edited = ["The plan costs $20 a month.", "支持 24 languages 🌍.", "Setup costs $50."]
    # The seed's sentences stay supported; the changed one carries the summary's label
    assert claim_labels(edited, seed, 0) == [1, 1, 0]
    assert claim_labels(edited, " ".join(edited), 0) == [1, 1, 1]
    assert claim_labels(["Setup is included."], seed, 1) == [1]
    # A pronoun reads as the subject before it, so an edited subject reaches the next sentence too
    seed = "John is the sales rep at Acme. He offered a 10% discount."
    edited = ["Mark is the sales rep at Acme.", "He offered a 10% discount."]
    assert claim_labels(edited, seed, 0) == [0, 0]


def test_each_summedits_document_fold_is_judged_by_a_head_that_did_not_see_it() -> None:
    # Given summaries whose claims state their label in a feature, backwards in fold 0 only
    summaries = []
    rng = np.random.default_rng(5)
    for i in range(200):
        fold, label = i % 5, (i // 5) % 2
        features = [0.0] * len(FEATURES)
        features[2] = (1.0 if label == (fold != 0) else -1.0) + 0.1 * float(rng.normal())
        summaries.append(Summary(label, fold, [Row(features, label, "summedits", -1, set())]))
    heads = [
        Head(p, stacked=False) for p in summedits_fold_heads(_rows(0.0), [], summaries, repeats=2)
    ]

    def gap(k: int) -> float:
        """How much higher fold k's head scores fold k's consistent claims than the rest."""
        mine = [s for s in summaries if s.fold == k]
        scores = {
            y: [heads[k].score(s.rows[0].features)[0] for s in mine if s.label == y] for y in (0, 1)
        }
        return float(np.mean(scores[1]) - np.mean(scores[0]))

    # Then fold 0's head, fitted on the other folds, scores fold 0 backwards, and the others right
    assert gap(0) < -0.2
    assert all(gap(k) > 0.2 for k in range(1, 5))


def test_begin_responses_are_read_for_the_head_as_check_reads_them(
    tmp_path: Path, engine: Engine
) -> None:
    """A reply's "Yes," is not scored at run time (context.strip_frame), so the head must not
    learn from it either: read raw, it was a content word the page never says."""
    knowledge = "Crayola began with chalk, then crayons, followed later by colored pencils."
    header = "model_name\tdata_source\tknowledge\tmessage\tresponse\tbegin_label\n"
    for folder, name in (("cmu-dog", "cmu"), ("topicalchat", "tc"), ("wow", "wow")):
        (tmp_path / "begin" / folder).mkdir(parents=True)
        (tmp_path / "begin" / folder / f"begin_dev_{name}.tsv").write_text(header)
    responses = ["yes, crayola began with chalk.", "crayola began with chalk."]
    (tmp_path / "begin" / "wow" / "begin_dev_wow.tsv").write_text(
        header + "".join(f"t5\twow\t{knowledge}\tok\t{r}\tFully attributable\n" for r in responses)
    )
    with_yes, without = begin_rows(engine, tmp_path)
    assert with_yes.features == without.features
    assert with_yes.features[FEATURES.index("missing")] == 0
