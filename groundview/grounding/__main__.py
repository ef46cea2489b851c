"""CLI: Check Grounding requests as JSONL on stdin, responses as JSONL on stdout (README.md, "The CLI").

    python -m groundview.grounding [--model PATH] < requests.jsonl > responses.jsonl
    python -m groundview.grounding --rows rows.jsonl [--format csv] [--min-support 0.7]

With --rows, Ragas or DeepEval rows (JSONL or CSV) are checked without being stored: one line per claim
(JSONL or CSV) on stdout, and the exit status is 1 when a row is invalid or its supportScore is under
--min-support, so a build can fail on ungrounded answers. With --min-support, requests on stdin fail
the same way (exit 1 when one errs or scores under it), and so does an input with nothing in it.

Every input line yields exactly one output line, in order; an invalid line yields {"error": {...}} and
the rest go on. Progress goes to stderr. --model selects the verifier: a CrossEncoder folder, or a
coefficients JSON file for the features verifier.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from .check import ENGINE_VERSION, Engine
from .config import PRECISIONS, EngineConfig
from .gate import check_rows, positive_int
from .rows import InputError, read_input
from .schema import MAX_TOTAL_FACT_CHARS, RequestError, score_argument

# A long page sent one sentence per fact (as evaluations often do) runs past Vertex's 200 facts.
CLI_MAX_FACTS = 5000


def _config(args: argparse.Namespace) -> EngineConfig:
    kwargs: dict[str, Any] = {
        "num_threads": args.threads,
        "embed_precision": args.precision,
        "max_facts": args.max_facts,
        "max_fact_chars": args.max_fact_chars,
    }
    if args.embedder:
        kwargs["embedder_path"] = args.embedder
    if args.model:
        model = Path(args.model)
        if model.is_dir():
            kwargs.update(verifier="cross-encoder", cross_encoder_path=str(model))
            if args.label_map:
                kwargs["cross_encoder_label_map"] = json.loads(args.label_map)
        elif model.is_file():
            kwargs["head_path"] = str(model)
        else:
            raise SystemExit(f"--model {model}: no such file or folder")
    return EngineConfig(**kwargs)


def _batches(stream: BinaryIO, size: int) -> Iterator[list[bytes]]:
    batch: list[bytes] = []
    for line in stream:
        batch.append(line)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _parse_line(raw: bytes, number: int) -> Any:
    """One request line. Bytes are decoded here, line by line, so a line that is not UTF-8 is
    that line's error; decoding the whole stream would stop it at the first such byte."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestError(
            "", f"line {number}: not UTF-8: byte 0x{raw[exc.start]:02x} at offset {exc.start}"
        ) from None
    if number == 1:
        line = line.removeprefix("\ufeff")  # a byte-order mark
    if not line.strip():
        raise RequestError("", f"line {number}: empty line")
    try:
        return json.loads(line)
    except RecursionError:
        raise RequestError("", f"line {number}: invalid JSON: nested too deeply to read") from None
    except ValueError as exc:
        raise RequestError("", f"line {number}: invalid JSON: {exc}") from None


def _on_line(out: dict[str, Any], number: int) -> dict[str, Any]:
    """An error as the line's: the engine's messages name a field, not where it came from."""
    error = out.get("error")
    if isinstance(error, dict) and not str(error.get("message", "")).startswith("line "):
        error["message"] = f"line {number}: {error.get('message', '')}"
    return out


def _dumps(out: dict[str, Any]) -> str:
    text = json.dumps(out, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate the request carried, echoed in a message: JSON escapes write it.
        text = json.dumps(out)
    return text


def _check_batch(engine: Engine, payloads: list[Any]) -> list[dict[str, Any]]:
    """Check a batch; if the engine itself fails, retry line by line so one bad request cannot take
    the others down (its line gets a 500-style error object)."""
    try:
        return engine.check_many(payloads, return_errors=True)
    except Exception:  # noqa: BLE001
        results: list[dict[str, Any]] = []
        for payload in payloads:
            try:
                results.extend(engine.check_many([payload], return_errors=True))
            except Exception as exc:  # noqa: BLE001
                message = f"internal error: {type(exc).__name__}: {exc}"
                results.append({"error": {"code": 500, "message": message, "status": "INTERNAL"}})
        return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m groundview.grounding", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--model", help="CrossEncoder folder, or a head JSON (head.json)")
    parser.add_argument(
        "--label-map", help='CrossEncoder label map as JSON, e.g. {"0": "contradiction"}'
    )
    parser.add_argument(
        "--embedder", help="sentence-transformers folder (default: packaged MiniLM)"
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--max-facts",
        type=positive_int,
        default=CLI_MAX_FACTS,
        help=f"facts a request may hold (default {CLI_MAX_FACTS}; the API keeps Vertex's 200), "
        "within the characters 200 full facts hold",
    )
    parser.add_argument(
        "--max-fact-chars",
        type=positive_int,
        default=MAX_TOTAL_FACT_CHARS,
        help="characters a request's fact may hold (default: all the request may hold, so a "
        "whole article can be one fact; the API keeps Vertex's 10,000; --rows contexts are cut "
        "at 10,000 either way)",
    )
    parser.add_argument(
        "--precision",
        choices=PRECISIONS,
        default="float32",
        help="the embedder's matrix products (default float32: the same scores from every run; "
        "auto: bfloat16 where native and faster here)",
    )
    parser.add_argument("--batch", type=positive_int, default=16, help="lines checked together")
    parser.add_argument("--rows", help="check Ragas/DeepEval rows from this file ('-': stdin)")
    parser.add_argument(
        "--input-format", choices=["jsonl", "csv"], help="rows format (default: by name)"
    )
    parser.add_argument("--format", choices=["jsonl", "csv"], default="jsonl", help="--rows output")
    parser.add_argument(
        "--min-support",
        type=score_argument,
        help="fail (exit 1) when a row's or a request's supportScore is under this (0 to 1)",
    )
    args = parser.parse_args(argv)
    text = ""
    if args.rows:
        if args.rows != "-" and not Path(args.rows).is_file():
            parser.error(f"--rows {args.rows}: no such file")
        try:  # before the model loads, so a bad file is reported at once
            text = read_input(args.rows)
        except InputError as exc:
            parser.error(f"--rows {args.rows}: {exc}")
    try:
        engine = Engine(_config(args))
        engine.warm_up()
    except Exception as exc:  # noqa: BLE001 - a clear one-line message, not a traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"groundview grounding {ENGINE_VERSION} ({engine.model_id}) ready", file=sys.stderr)
    if args.rows:
        return check_rows(engine, args, text)
    done = errors = under = 0
    started = time.monotonic()
    for lines in _batches(sys.stdin.buffer, args.batch):
        payloads: list[Any] = []
        results: list[dict[str, Any] | None] = []
        first = done + 1
        for line in lines:
            done += 1
            try:
                payloads.append(_parse_line(line, done))
                results.append(None)
            except RequestError as exc:
                results.append(exc.to_json())
        checked = iter(_check_batch(engine, payloads))
        for number, res in enumerate(results, start=first):
            out = _on_line(res if res is not None else next(checked), number)
            if "error" in out:
                errors += 1
            elif args.min_support is not None and out["supportScore"] < args.min_support:
                under += 1
            sys.stdout.write(_dumps(out) + "\n")
        sys.stdout.flush()
        rate = done / max(time.monotonic() - started, 1e-9)
        print(f"{done} lines, {errors} errors, {rate:.1f} lines/s", file=sys.stderr)
    # As a gate, an error, a score under the bar or nothing checked at all fails.
    if args.min_support is not None and (under or errors or not done):
        print(
            f"{under} under supportScore {args.min_support}, {errors} errors, {done} lines",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
