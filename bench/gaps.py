"""How well the review page's "Not backed" chips point at what people found unsupported.

    .venv/bin/python bench/gaps.py [--data ../shared/data]

WiCE-dev's 124 partially supported sub-claims come with token-level labels: the annotators marked each
token the cited page does not support (25% of tokens). For each sub-claim, the page's sentences are
packed into facts by `evaldata.pack_evidence`, as for `bench/evaluate.py`, and
`review.evidence.claim_gaps` (what the detail page shows, from the same 20 BM25 candidates the
checker reads) gives its chips: names, numbers, negated
and opposed words and other content words that no candidate states. A word token counts as flagged when
a chip contains it. Two baselines in the same run: every word token flagged, and a token flagged when
the page does not contain it anywhere (lower-cased, as written). Nothing here was fitted on these labels.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from groundview.grounding.evaldata import pack_evidence  # noqa: E402
from groundview.grounding.fit_head import DEFAULT_DATA  # noqa: E402
from groundview.grounding.schema import Fact  # noqa: E402
from groundview.review.evidence import claim_gaps  # noqa: E402

WORD = re.compile(r"\w", re.UNICODE)


def _chips(claim: str, facts: list[Fact]) -> set[str]:
    found = claim_gaps([claim], [0], facts).get(0)
    if found is None:
        return set()
    texts = [*found.names, *found.words, *found.elsewhere, *found.negated, *found.speakers]
    texts += [n for n, _ in found.numbers] + [w for w, _ in found.opposed]
    return {w.lower() for t in texts for w in re.findall(r"\w+", t)}


class Tally:
    def __init__(self) -> None:
        self.tp = self.fp = self.fn = 0
        self.hit = 0  # sub-claims with a flag on at least one unsupported token

    def add(self, flags: Sequence[bool], gold: Sequence[bool]) -> None:
        self.tp += sum(f and g for f, g in zip(flags, gold, strict=True))
        self.fp += sum(f and not g for f, g in zip(flags, gold, strict=True))
        self.fn += sum(g and not f for f, g in zip(flags, gold, strict=True))
        self.hit += any(f and g for f, g in zip(flags, gold, strict=True))

    def line(self, name: str, n: int) -> str:
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return f"| {name} | {precision:.3f} | {recall:.3f} | {f1:.3f} | {self.hit} of {n} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    path = args.data / "wice-dev" / "data" / "non_supported_tokens" / "dev.jsonl"
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    started = time.monotonic()
    rules: dict[str, Callable[[str, str, set[str]], bool]] = {
        "chips (`claim_gaps`)": lambda token, page, chips: token.lower() in chips,
        "every word token": lambda token, page, chips: True,
        "not on the page as written": lambda token, page, chips: token.lower() not in page,
    }
    tallies = {name: Tally() for name in rules}
    for n, row in enumerate(rows):
        facts, _ = pack_evidence(row["evidence"])
        page = "\n".join(f.text for f in facts).lower()
        chips = _chips(row["claim"], facts)
        pairs = [
            (t, g)
            for t, g in zip(row["claim_tokens"], row["non_supported_spans"], strict=True)
            if WORD.search(t)
        ]
        gold = [g for _, g in pairs]
        for name, rule in rules.items():
            tallies[name].add([rule(t, page, chips) for t, _ in pairs], gold)
        if n % 25 == 0:
            print(f"  {n}/{len(rows)}", file=sys.stderr, flush=True)
    share = sum(sum(r["non_supported_spans"]) for r in rows) / sum(
        len(r["non_supported_spans"]) for r in rows
    )
    print(f"WiCE-dev partially supported sub-claims: {len(rows)}; unsupported tokens {share:.3f}")
    print("| flags | token precision | token recall | F1 | sub-claims with a right flag |")
    print("|---|---|---|---|---|")
    for name, tally in tallies.items():
        print(tally.line(name, len(rows)))
    print(f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
