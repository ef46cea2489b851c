"""How often each rule that caps a claim fires, by human label, on the shared sets.

    .venv/bin/python bench/rules.py [--data ../shared/data] [--rules hedged,opposed] [--show 5]
        [--show-labels supported,entailed,supports,consistent,attributable] [--evidence]
        [--sets wice,fever-nli-dev] [--save fires.jsonl]

A rule in `conflicts.CONFLICT_RULES` or `contrary.CONTRARY_RULES` caps a claim below the threshold
whatever the head says, so each one is judged by where it fires: on claims people labelled right
(a misfire) or wrong. The candidates are the engine's own 20 BM25 candidates per claim
(`Engine.rule_inputs`; no model is loaded, so the rules that need embeddings see none, as no rule
does). Sets: WiCE-dev claims by grade, SummEdits summaries' claims (a sentence of the verified seed
summary is consistent whatever its edit did elsewhere, as `fit_head` labels them), BEGIN dev
responses with one claim to check, FM2 dev and test claims, and (with `--sets`) FEVER-NLI's and
FEVER-Symmetric's claims, each against its evidence as one fact. The default sets take about three
minutes on 2 cores; FEVER-NLI's test and dev, 20,000 claims, about ten more.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from groundview.grounding.analysis import Analysis  # noqa: E402
from groundview.grounding.candidates import Candidate, Rule  # noqa: E402
from groundview.grounding.check import Engine  # noqa: E402
from groundview.grounding.claims import segment_claims  # noqa: E402
from groundview.grounding.conflicts import CONFLICT_RULES  # noqa: E402
from groundview.grounding.contrary import CONTRARY_RULES  # noqa: E402
from groundview.grounding.evaldata import (  # noqa: E402
    FeverPair,
    load_begin,
    load_fever_nli,
    load_fever_symmetric,
    load_fm2,
    load_summedits,
    load_wice,
)
from groundview.grounding.fit_head import DEFAULT_DATA, claim_labels  # noqa: E402
from groundview.grounding.schema import Fact  # noqa: E402

Row = tuple[str, str, Analysis, list[Candidate]]  # label, claim as read, its analysis, candidates
Reader = Callable[[Engine, Path], Iterator[Row]]


def wice(engine: Engine, data: Path) -> Iterator[Row]:
    for wc in load_wice(data):
        for _, text, a, cands in engine.rule_inputs(wc.facts, claims=[wc.claim]):
            yield wc.grade, text, a, cands


def summedits(engine: Engine, data: Path) -> Iterator[Row]:
    for edit in load_summedits(data):
        texts = [c.text for c in segment_claims(edit.summary)]
        labels = claim_labels(texts, edit.original, edit.label)
        for i, text, a, cands in engine.rule_inputs([Fact(edit.doc)], answer=edit.summary):
            yield ("consistent" if labels[i] else "inconsistent"), text, a, cands


def begin(engine: Engine, data: Path) -> Iterator[Row]:
    for r in load_begin(data, test=False):
        required = [c for c in segment_claims(r.response) if c.check_required]
        if r.label == "Generic" or len(required) != 1:
            continue
        for _, text, a, cands in engine.rule_inputs([Fact(r.knowledge)], claims=[required[0].text]):
            yield ("attributable" if r.label == "Fully attributable" else "not"), text, a, cands


def fm2(split: str) -> Reader:
    def rows(engine: Engine, data: Path) -> Iterator[Row]:
        for c in load_fm2(data, split):
            for _, text, a, cands in engine.rule_inputs(c.facts, claims=[c.claim]):
                yield ("supports" if c.label else "refutes"), text, a, cands

    return rows


def fever(load: Callable[[Path], list[FeverPair]], good: str, bad: str) -> Reader:
    """A FEVER file's claims, each against its evidence as one fact."""

    def rows(engine: Engine, data: Path) -> Iterator[Row]:
        for p in load(data):
            for _, text, a, cands in engine.rule_inputs([Fact(p.evidence)], claims=[p.claim]):
                yield (good if p.label else bad), text, a, cands

    return rows


SETS: dict[str, Reader] = {
    "wice": wice,
    "summedits": summedits,
    "begin": begin,
    "fm2-dev": fm2("dev"),
    "fm2-test": fm2("test"),
    "fever-nli-test": fever(lambda d: load_fever_nli(d, ("test",)), "entailed", "not"),
    "fever-nli-dev": fever(lambda d: load_fever_nli(d, ("dev",)), "entailed", "not"),
    "fever-sym-test": fever(lambda d: load_fever_symmetric(d, "test"), "supports", "refutes"),
    "fever-sym-dev": fever(lambda d: load_fever_symmetric(d, "dev"), "supports", "refutes"),
}
DEFAULT_SETS = ("wice", "summedits", "begin", "fm2-dev", "fm2-test")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--rules", help="comma-separated rule names (default: every cap rule)")
    parser.add_argument(
        "--sets",
        default=",".join(DEFAULT_SETS),
        help=f"comma-separated, of {', '.join(SETS)} (default: {', '.join(DEFAULT_SETS)})",
    )
    parser.add_argument(
        "--show", type=int, default=0, help="print this many fires per rule and set"
    )
    parser.add_argument(
        "--show-labels",
        help="comma-separated labels: print only fires on claims so labelled (the misfires:"
        " supported,entailed,supports,consistent,attributable)",
    )
    parser.add_argument(
        "--evidence", action="store_true", help="with --show, print each fire's top 3 candidates"
    )
    parser.add_argument(
        "--save",
        type=Path,
        help="write every fire to this file, a JSON line each (set, rule, label, claim), so two"
        " engines' fires can be compared with diff",
    )
    args = parser.parse_args(argv)
    rules: list[Rule] = [*CONFLICT_RULES, *CONTRARY_RULES]
    if args.rules:
        wanted = set(args.rules.split(","))
        rules = [r for r in rules if r.__name__ in wanted]
        if not rules:
            parser.error(f"no cap rule is named {args.rules!r}")
    unknown = set(args.sets.split(",")) - set(SETS)
    if unknown:
        parser.error(f"no set is named {', '.join(sorted(unknown))}")
    shown_labels = set(args.show_labels.split(",")) if args.show_labels else None
    engine = Engine()
    started = time.perf_counter()
    saved = args.save.open("w", encoding="utf-8") if args.save else None
    for name in args.sets.split(","):
        rows = list(SETS[name](engine, args.data))
        totals = Counter(label for label, *_ in rows)
        print(f"## {name}: " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items())))
        for rule in rules:
            fired: Counter[str] = Counter()
            shown = 0
            for label, text, a, cands in rows:
                found = rule(a, cands)
                if not found:
                    continue
                fired[label] += 1
                if saved:
                    fire = {"set": name, "rule": rule.__name__, "label": label, "claim": text}
                    saved.write(json.dumps(fire, ensure_ascii=False) + "\n")
                if shown < args.show and (shown_labels is None or label in shown_labels):
                    shown += 1
                    print(f"    [{label}] {text}\n        -> {list(found)}")
                    if args.evidence:
                        for c in cands[:3]:
                            print("        | " + " ".join(c.analysis.tokens)[:300])
            if fired:
                counts = ", ".join(f"{k} {fired[k]}" for k in sorted(totals))
                print(f"  {rule.__name__:32} {counts}", flush=True)
    if saved:
        saved.close()
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
