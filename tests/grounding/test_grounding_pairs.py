"""The verifier's training pairs: FEVER's text cleaned, and the rule-based negatives."""

from __future__ import annotations

import json
import random
from pathlib import Path

from groundview.grounding.pairs import _fm2, clean_fever, is_validation, perturb, swap

WINDOW = (
    "Marie Curie was born in Warsaw in 1867. She moved to Paris in 1891. "
    "Pierre Curie taught at the Sorbonne."
)


def test_clean_fever_turns_ptb_tokens_back_into_prose() -> None:
    raw = "Soul Food -LRB- film -RRB- was released in 1997 . It was n't a flop ."
    assert clean_fever(raw) == "Soul Food (film) was released in 1997. It wasn't a flop."


def test_validation_split_is_by_claim_text_whatever_its_spacing() -> None:
    claim = "Nikolaj Coster-Waldau worked with the Fox Broadcasting Company."
    assert is_validation(claim) == is_validation(claim.upper().replace(" ", "  "))
    share = sum(is_validation(f"Claim number {i}.") for i in range(5000)) / 5000
    assert 0.015 < share < 0.05


def test_swap_keeps_every_word_in_the_window_but_changes_the_claim() -> None:
    claim = "Marie Curie was born in Warsaw in 1867."
    window_words = set(WINDOW.replace(".", "").split())
    seen = set()
    for seed in range(40):
        fake = swap(random.Random(seed), claim, WINDOW)
        assert fake is not None and fake != claim
        assert set(fake.rstrip(".").split()) <= window_words, fake
        seen.add(fake)
    # A name from the window, a number from the window, two names traded: more than one kind.
    assert any("Paris" in s or "Sorbonne" in s or "Pierre" in s for s in seen)
    assert any("1891" in s for s in seen)
    assert "Warsaw Curie was born in Marie Curie in 1867." not in seen


def test_swap_trades_two_names_of_the_claim() -> None:
    rng = random.Random(0)
    claims = {swap(rng, "Boston played Chicago.", "Boston played Chicago.") for _ in range(10)}
    assert claims == {"Chicago played Boston."}


def test_swap_gives_up_when_nothing_can_be_replaced() -> None:
    assert swap(random.Random(1), "it rained all day.", "it rained all day.") is None


def test_perturb_changes_a_number_a_year_or_adds_a_negation() -> None:
    claim = "The bridge was opened in 1932 and carries 6 lanes."
    out = {perturb(random.Random(seed), claim, ["Sydney"]) for seed in range(30)}
    assert None not in out and claim not in out
    assert any("1932" not in s for s in out if s)
    assert any(" was not " in s for s in out if s)


def test_fm2_test_claims_stay_out_of_the_training_pairs(tmp_path: Path) -> None:
    folder = tmp_path / "fm2" / "dataset"
    folder.mkdir(parents=True)
    for split in ("dev", "test"):
        row = {
            "text": f"A {split} claim about Warsaw.",
            "label": "SUPPORTS",
            "wikipedia_page": "Warsaw",
            "gold_evidence": [{"text": "Warsaw is a city."}],
            "retrieved_evidence": [
                {"text": "Warsaw is a city."},
                {"text": "It lies on the Vistula."},
                {"text": "It has a zoo."},
            ],
        }
        (folder / f"{split}.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    pairs = list(_fm2(tmp_path))
    assert {p.claim for p in pairs} == {"A dev claim about Warsaw."}
    # The supported claim twice: with its window, and with the gold sentence taken out of it.
    assert [(p.label, p.source) for p in pairs] == [(1, "fm2"), (0, "fm2-removed")]
    assert "Warsaw is a city." not in pairs[1].window
