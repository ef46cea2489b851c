"""Training pairs for the cross-encoder verifier, shaped like what it scores at run time.

At run time the verifier reads a claim against a *window*: a few retrieved sentences of one source in
document order, distractors included. A verifier trained on one-sentence premises learns "similar", and
passes claims that are only partly backed (see grounding/README.md, "What did not work"). So every pair
here is a claim against a window, and most negatives are *partial*: the window backs most of the claim.

Sources (all in ../shared/data; licences in each folder's README; none is WiCE, FaithBench or SummEdits,
which stay held out for evaluation):

* FM2 dev: the claim against its retrieved sentences (gold included), SUPPORTS = 1; for supported
  claims also the window with the gold sentences removed = 0 ("the key sentence is missing"). FM2's
  test claims stay out: `bench/evaluate.py` reports them as a held-out set.
* FEVER-NLI (DocNLI binary): retrieved, title-prefixed sentences with distractors, as released.
* FEVER (RTE dev): gold evidence with 2-4 distractor sentences from other claims mixed in, as labelled; for
  supported claims also the distractors alone = 0.
* Compound claims: two supported FEVER claims joined ("A, and B"); the window with both evidences = 1,
  with only one of them = 0 (the half that is not backed is what a partial claim looks like).
* Perturbed claims: a supported claim with a number, year or name swapped, or a negation inserted, against
  its own window = 0 (rule-based, no model).
* Swaps that keep every word of the claim in the window, so only how the words relate is wrong (what
  coverage features cannot see): a name or number of the claim replaced by another name or number the
  window states, or two names of the claim trading places = 0.
* FEVER-Symmetric, a sample of MultiNLI, and FactCheck-GPT's TRAIN answers (split rule in train.py).

FEVER-derived folders share claims, so the validation split is by normalised claim text (3% of claims,
by hash); `build_pairs` is deterministic for a given seed.
"""

from __future__ import annotations

import csv
import hashlib
import json
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .evaldata import (
    SUPPORT,
    clean_fever,
    is_test_answer,
    load_factcheck,
    load_fever_nli,
    load_fever_symmetric,
)


def claim_key(claim: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", claim.lower()).strip()


def is_validation(claim: str) -> bool:
    digest = hashlib.sha256(claim_key(claim).encode("utf-8")).hexdigest()
    return int(digest, 16) % 100 < 3


@dataclass(frozen=True)
class Pair:
    claim: str
    window: str
    label: int
    source: str


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9\"(])", text)
    return [p.strip() for p in parts if p.strip()]


def _fm2(data: Path) -> Iterator[Pair]:
    with (data / "fm2" / "dataset" / "dev.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            page = row["wikipedia_page"]
            retrieved = [e["text"] for e in row["retrieved_evidence"]]
            gold = {e["text"] for e in row["gold_evidence"]}
            label = int(row["label"] == "SUPPORTS")
            yield Pair(row["text"], f"{page}. " + " ".join(retrieved), label, "fm2")
            rest = [s for s in retrieved if s not in gold]
            if label and len(rest) >= 2:
                yield Pair(row["text"], f"{page}. " + " ".join(rest), 0, "fm2-removed")


def _fever_nli(data: Path) -> Iterator[Pair]:
    for row in load_fever_nli(data, ("dev", "test")):
        yield Pair(row.claim, row.evidence, row.label, "fever-nli")


def _fever_rte(data: Path) -> list[tuple[str, str, int]]:
    root = data / "fever-rte-dev" / "RTE-Fever" / "processed"
    evidence = (root / "dev.raw.input0").read_text(encoding="utf-8").splitlines()
    claims = (root / "dev.raw.input1").read_text(encoding="utf-8").splitlines()
    labels = (root / "dev.label").read_text(encoding="utf-8").splitlines()
    rows = {}
    for ev, cl, lab in zip(evidence, claims, labels, strict=True):
        rows[(cl, ev)] = (clean_fever(cl), clean_fever(ev), int(lab == "entailment"))
    return list(rows.values())


def _with_distractors(rng: random.Random, core: list[str], pool: Sequence[str], n: int) -> str:
    sentences = list(core)
    for _ in range(n):
        sentences.insert(rng.randint(0, len(sentences)), rng.choice(pool))
    return " ".join(sentences)


def _fever_windows(rng: random.Random, rows: list[tuple[str, str, int]]) -> Iterator[Pair]:
    pool = [s for _, ev, _ in rows for s in _sentences(ev)[:3]]
    for claim, ev, label in rows:
        core = _sentences(ev)
        yield Pair(claim, _with_distractors(rng, core, pool, rng.randint(2, 4)), label, "fever")
        if label and rng.random() < 0.35:
            yield Pair(
                claim, _with_distractors(rng, [], pool, rng.randint(3, 5)), 0, "fever-removed"
            )


def _join(a: str, b: str) -> str:
    return f"{a.rstrip(' .')}, and {b}"


def _compounds(rng: random.Random, rows: list[tuple[str, str, int]], n: int) -> Iterator[Pair]:
    supported = [(c, ev) for c, ev, lab in rows if lab and len(ev) < 600]
    pool = [s for _, ev, _ in rows for s in _sentences(ev)[:2]]
    for _ in range(n):
        (a, ev_a), (b, ev_b) = rng.sample(supported, 2)
        claim = _join(a, b)
        both = _sentences(ev_a) + _sentences(ev_b)
        yield Pair(claim, _with_distractors(rng, both, pool, rng.randint(1, 3)), 1, "compound")
        half = _sentences(ev_a) if rng.random() < 0.5 else _sentences(ev_b)
        yield Pair(claim, _with_distractors(rng, half, pool, rng.randint(1, 3)), 0, "compound-half")


_NUM_RE = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")
_NAME_RE = re.compile(r"(?<=[a-z,] )[A-Z][a-z]{2,}(?: [A-Z][a-z]{2,})?\b")
_AUX_RE = re.compile(r"\b(is|was|are|were|has|had|can|will|did|does)\b")


def perturb(rng: random.Random, text: str, names: Sequence[str]) -> str | None:
    """One rule-based edit that makes a supported claim unsupported, or None when none applies."""
    options: list[str] = []
    m = _NUM_RE.search(text)
    if m:
        raw = m.group(0).replace(",", "")
        try:
            value = float(raw)
        except ValueError:
            value = None
        if value is not None:
            if raw.isdigit() and len(raw) == 4 and 1000 <= value <= 2100:
                new = str(int(value) + rng.choice([-12, -5, -3, -2, -1, 1, 2, 3, 7, 11]))
            elif raw.isdigit():
                new = f"{int(value) * rng.choice([2, 3, 5]) + rng.randint(1, 9):,}"
            else:
                new = f"{value * rng.choice([0.5, 2.0, 3.0]):g}"
            options.append(text[: m.start()] + new + text[m.end() :])
    found = _NAME_RE.findall(text)
    if found:
        old = rng.choice(found)
        new_name = rng.choice(names)
        if new_name != old:
            options.append(text.replace(old, new_name, 1))
    a = _AUX_RE.search(text)
    if a and " not " not in text and "n't" not in text:
        options.append(text[: a.end()] + " not" + text[a.end() :])
    return rng.choice(options) if options else None


def _perturbed(rng: random.Random, pairs: Sequence[Pair], n: int) -> Iterator[Pair]:
    positives = [p for p in pairs if p.label == 1]
    names = sorted({x for p in positives for x in _NAME_RE.findall(p.claim)})
    rng.shuffle(positives)
    made = 0
    for p in positives:
        fake = perturb(rng, p.claim, names)
        if fake and fake != p.claim:
            yield Pair(fake, p.window, 0, "perturbed")
            made += 1
            if made >= n:
                return


_SPAN_NAME_RE = re.compile(r"\b[A-Z][a-z]+(?: (?:of |de |the )?[A-Z][a-z]+)*\b")


def swap(rng: random.Random, claim: str, window: str) -> str | None:
    """The claim with a name or number replaced by another one from the window, or two of its names
    traded, or None when none applies. Every content word stays backed; the relation does not."""
    options: list[str] = []
    names = [m for m in _SPAN_NAME_RE.findall(claim) if len(m) > 3]
    lowered = claim.lower()
    others = sorted(
        {m for m in _SPAN_NAME_RE.findall(window) if len(m) > 3 and m.lower() not in lowered}
    )
    if names and others:
        old = rng.choice(names)
        options.append(claim.replace(old, rng.choice(others), 1))
    distinct = sorted(set(names))
    if len(distinct) >= 2:
        a, b = rng.sample(distinct, 2)
        if a not in b and b not in a:
            options.append(claim.replace(a, "\0").replace(b, a).replace("\0", b))
    numbers = _NUM_RE.findall(claim)
    window_numbers = sorted(set(_NUM_RE.findall(window)) - set(numbers))
    if numbers and window_numbers:
        old = rng.choice(numbers)
        options.append(re.sub(rf"\b{re.escape(old)}\b", rng.choice(window_numbers), claim, count=1))
    options = [o for o in options if o != claim]
    return rng.choice(options) if options else None


def _swapped(rng: random.Random, pairs: Sequence[Pair], n: int) -> Iterator[Pair]:
    positives = [p for p in pairs if p.label == 1]
    rng.shuffle(positives)
    made = 0
    for p in positives:
        fake = swap(rng, p.claim, p.window)
        if fake:
            yield Pair(fake, p.window, 0, "swapped")
            made += 1
            if made >= n:
                return


def _symmetric(data: Path) -> Iterator[Pair]:
    for name in ("dev", "test"):
        for row in load_fever_symmetric(data, name):
            yield Pair(row.claim, row.evidence, row.label, "fever-symmetric")


def _mnli(rng: random.Random, data: Path, n: int) -> Iterator[Pair]:
    rows: list[Pair] = []
    for name in ("dev", "test"):
        path = data / "docnli-binary-nli" / "Data" / "binary-MNLI" / f"{name}.txt"
        with path.open(encoding="utf-8") as fh:
            for rec in csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                if len(rec) == 3:
                    rows.append(Pair(rec[2], rec[1], int(rec[0] == "entailment"), "mnli"))
    rng.shuffle(rows)
    yield from rows[:n]


def _factcheck(data: Path) -> Iterator[Pair]:
    for answer in load_factcheck(data):
        if is_test_answer(answer.prompt):
            continue
        for sentence in answer.sentences:
            for claim in sentence.claims:
                for passage, stance in zip(claim.passages, claim.stances, strict=True):
                    yield Pair(claim.text, passage[:1500], int(stance == SUPPORT), "factcheck")


def build_pairs(data: Path, seed: int = 13) -> tuple[list[Pair], list[Pair]]:
    """(train, validation) pairs, shuffled; the same for the same data and seed."""
    rng = random.Random(seed)
    fever = _fever_rte(data)
    pairs: list[Pair] = []
    pairs.extend(_fm2(data))
    pairs.extend(_fever_nli(data))
    pairs.extend(_fever_windows(rng, fever))
    pairs.extend(_compounds(rng, fever, 4000))
    pairs.extend(_perturbed(rng, [p for p in pairs if p.source in ("fever", "fm2")], 5000))
    pairs.extend(
        _swapped(rng, [p for p in pairs if p.source in ("fever", "fm2", "fever-nli")], 6000)
    )
    pairs.extend(_symmetric(data))
    pairs.extend(_mnli(rng, data, 5000))
    pairs.extend(_factcheck(data))
    rng.shuffle(pairs)
    train = [p for p in pairs if not is_validation(p.claim)]
    validation = [p for p in pairs if is_validation(p.claim)]
    return train, validation
