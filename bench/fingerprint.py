"""What the engine reads of every claim of the shared sets, model aside: a refactor's proof.

    .venv/bin/python bench/fingerprint.py [--data ../shared/data] [--save F] [--against F]

For each claim that `bench/rules.py` can read (WiCE-dev, SummEdits, BEGIN dev, FM2 dev and test,
and FEVER-NLI's and FEVER-Symmetric's test and dev files): its
lexical features (`support.claim_features` without an embedding, so no model is loaded), the review
page's gaps, the candidates `cover` cites, and what each cap rule finds. Prints a digest per set,
the same in every process and on every machine; `--save` writes each claim's reading to a file, and
`--against` compares with a saved one and prints the claims read otherwise. Run it before and after
a change that should change nothing. About a minute and a half on 2 cores.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rules import SETS  # noqa: E402

from groundview.grounding.check import Engine  # noqa: E402
from groundview.grounding.conflicts import CONFLICT_RULES  # noqa: E402
from groundview.grounding.contrary import CONTRARY_RULES  # noqa: E402
from groundview.grounding.fit_head import DEFAULT_DATA  # noqa: E402
from groundview.grounding.support import claim_features, cover, gaps  # noqa: E402


def plain(value: Any) -> Any:
    """`value` as JSON that reads the same in every process: a set sorted, a dataclass a dict."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, set | frozenset):
        return sorted(plain(v) for v in value)
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def readings(engine: Engine, data: Path) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    rules = [*CONFLICT_RULES, *CONTRARY_RULES]
    for name, read in SETS.items():
        rows = []
        for label, text, a, cands in read(engine, data):
            # `cover` asks which fact each chunk is of only to prefer one source; one fact will do.
            facts = [0] * (max((c.chunk for c in cands), default=0) + 1)
            found = {rule.__name__: plain(list(rule(a, cands))) for rule in rules}
            rows.append(
                {
                    "label": label,
                    "claim": text,
                    "features": claim_features(a, text, None, cands),
                    "gaps": plain(gaps(a, cands)),
                    "cited": cover(a, cands, facts),
                    "rules": {k: v for k, v in found.items() if v},
                }
            )
        out[name] = rows
    return out


def digest(rows: Sequence[dict[str, Any]]) -> str:
    text = "\n".join(json.dumps(r, sort_keys=True, ensure_ascii=False) for r in rows)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--save", type=Path, help="write every claim's reading to this file")
    parser.add_argument("--against", type=Path, help="a file --save wrote: print what differs")
    parser.add_argument("--show", type=int, default=5, help="differing claims printed per set")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    now = readings(Engine(), args.data)
    before = json.loads(args.against.read_text(encoding="utf-8")) if args.against else {}
    differ = 0
    for name, rows in now.items():
        line = f"{name:10s} {len(rows):5d} claims  {digest(rows)}"
        if name in before:
            changed = [(b, r) for b, r in zip(before[name], rows, strict=False) if b != r]
            changed += [({}, r) for r in rows[len(before[name]) :]]
            differ += len(changed)
            line += f"  {len(changed)} read otherwise" if changed else "  the same"
            print(line)
            for old, new in changed[: args.show]:
                parts = sorted(k for k in new if old.get(k) != new[k])
                print(f"    {new['claim'][:90]!r}: {', '.join(parts)}")
        else:
            print(line)
    if args.save:
        args.save.write_text(json.dumps(now, ensure_ascii=False), encoding="utf-8")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
