"""The CI gate over evaluation rows: Ragas or DeepEval rows checked without being stored, one line per
claim on stdout, exit 1 when a row is invalid or scores under --min-support (`python -m
groundview.grounding --rows`, `groundview check`)."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import Any

from .check import Engine
from .rows import Row, RowError, read_rows, rows_format

CLAIM_COLUMNS = (
    "row",
    "claim",
    "startPos",
    "endPos",
    "claimText",
    "groundingCheckRequired",
    "score",
    "supported",
    "sources",
    "supportScore",
)


def _sources(row: Row, resp: dict[str, Any], claim: dict[str, Any]) -> list[str]:
    """The contexts (their indices, as strings) a claim cites; a long context was sent as several
    facts, so its facts map back to it."""
    facts = [int(resp["citedChunks"][k]["source"]) for k in claim.get("citationIndices", [])]
    return list(dict.fromkeys(str(row.contexts[f]) for f in facts))


def check_rows(engine: Engine, args: argparse.Namespace, text: str) -> int:
    """Rows checked without storing them (also `groundview check`); exit 1 if any row fails, or,
    as a gate (--min-support), if there is no row at all: an eval step that wrote nothing has
    not passed."""
    fmt = args.input_format or rows_format(text, str(args.rows)) or "jsonl"
    rows = list(read_rows(text, fmt))
    valid = [r for r in rows if not isinstance(r, RowError)]
    threshold = engine.config.default_citation_threshold
    responses = engine.check_many([r.request for r in valid], return_errors=True)
    writer = csv.writer(sys.stdout) if args.format == "csv" else None
    if writer:
        writer.writerow(CLAIM_COLUMNS)
    failed = 0
    for problem in (r for r in rows if isinstance(r, RowError)):
        print(f"error: {problem}", file=sys.stderr)
        failed += 1
    for row, resp in zip(valid, responses, strict=True):
        if "error" in resp:
            print(f"error: row {row.number}: {resp['error']['message']}", file=sys.stderr)
            failed += 1
            continue
        support = resp["supportScore"]
        if args.min_support is not None and support < args.min_support:
            failed += 1
        for i, claim in enumerate(resp["claims"]):
            score = claim.get("score")
            values = [
                row.number,
                i,
                claim["startPos"],
                claim["endPos"],
                claim["claimText"],
                claim["groundingCheckRequired"],
                score,
                None if score is None else score >= threshold,
                _sources(row, resp, claim),
                support,
            ]
            if writer:
                writer.writerow([json.dumps(v) if isinstance(v, list) else v for v in values])
            else:
                record = dict(zip(CLAIM_COLUMNS, values, strict=True))
                sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(
        f"{len(rows)} rows, {failed} failed"
        + (f" (supportScore under {args.min_support} or invalid)" if args.min_support else ""),
        file=sys.stderr,
    )
    if not rows and args.min_support is not None:
        print("error: no rows to check", file=sys.stderr)
        return 1
    return 1 if failed else 0


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value
