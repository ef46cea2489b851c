"""Warm latency of the grounding engine on this machine (2 torch threads).

    .venv/bin/python bench/latency.py [--typical 40] [--max 2]

(a) typical request: a 5-sentence answer and 10 facts of about 1,000 characters; every request has new
    text (nothing is served from the embedding cache), like a chatbot calling on every turn.
(b) maximum request: 200 facts of 10,000 characters and a 4,096-token answer.
Reports p50/p95 and requests/s, the process's peak RSS, and the embedding floor: the time to embed the
same sentences (answer + all fact sentences) once with the same model in the same run, and (a)'s ratio to it.
`--baseline float32` also times every typical request with the model in float32 (the engine's default
`auto` precision uses bfloat16 where the CPU has it natively and it measures faster), interleaved,
and prints the ratio.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from groundview.grounding import Engine, EngineConfig  # noqa: E402
from groundview.grounding.claims import split_sentences  # noqa: E402
from groundview.grounding.config import PRECISIONS  # noqa: E402
from groundview.grounding.schema import count_tokens  # noqa: E402

SUBJECTS = [
    "The museum",
    "The river",
    "The company",
    "The bridge",
    "The festival",
    "The university",
    "The orchestra",
    "The railway",
    "The hospital",
    "The stadium",
    "The library",
    "The treaty",
]
VERBS = [
    "was founded in",
    "was renovated in",
    "expanded its operations in",
    "hosted a summit in",
    "opened a new branch in",
    "received an award in",
    "doubled its budget in",
    "was closed in",
]
PLACES = ["Lisbon", "Osaka", "Nairobi", "Quebec", "Tallinn", "Cusco", "Adelaide", "Bergen", "Porto"]
EXTRAS = [
    "according to the annual report",
    "after a long public debate",
    "with support from local donors",
    "despite heavy rain that season",
    "under the direction of Maria Alvarez",
    "as part of a national plan",
]


def sentence(rng: random.Random) -> str:
    return (
        f"{rng.choice(SUBJECTS)} in {rng.choice(PLACES)} {rng.choice(VERBS)} {rng.randint(1850, 2023)} "
        f"{rng.choice(EXTRAS)}, employing {rng.randint(2, 90) * 10:,} people."
    )


def fact_text(rng: random.Random, chars: int) -> str:
    parts: list[str] = []
    while sum(len(p) + 1 for p in parts) < chars:
        parts.append(sentence(rng))
    return " ".join(parts)[:chars]


def typical_request(rng: random.Random) -> dict[str, Any]:
    facts = [fact_text(rng, 1000) for _ in range(10)]
    # Three answer sentences are taken from the facts (supported), two are fresh.
    answer = [rng.choice(split_sentences(rng.choice(facts))).text for _ in range(3)]
    answer += [sentence(rng), sentence(rng)]
    rng.shuffle(answer)
    return {"answerCandidate": " ".join(answer), "facts": [{"factText": f} for f in facts]}


def max_request(rng: random.Random) -> dict[str, Any]:
    facts = [fact_text(rng, 10_000) for _ in range(200)]
    words: list[str] = []
    answer = ""
    while True:
        candidate = answer + (" " if answer else "") + sentence(rng)
        if count_tokens(candidate) > 4096:
            break
        answer = candidate
    del words
    return {"answerCandidate": answer, "facts": [{"factText": f} for f in facts]}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def request_sentences(req: dict[str, Any]) -> list[str]:
    texts = [s.text for s in split_sentences(req["answerCandidate"])]
    for fact in req["facts"]:
        texts += [s.text for s in split_sentences(fact["factText"])]
    return texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--typical", type=int, default=40, help="typical requests to time")
    parser.add_argument("--max", type=int, default=2, help="maximum requests to time")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--precision", default="float32", choices=PRECISIONS)
    parser.add_argument("--baseline", choices=PRECISIONS, help="also time this precision")
    args = parser.parse_args()

    engine = Engine(EngineConfig(num_threads=args.threads, embed_precision=args.precision))
    engine.warm_up()
    embedder: Any = engine._load()  # the same model object, for the floor
    baseline = None
    if args.baseline:
        baseline = Engine(EngineConfig(num_threads=args.threads, embed_precision=args.baseline))
        baseline.warm_up()
    rng = random.Random(20240601)
    for _ in range(3):  # warm the code paths with throw-away requests
        engine.check(typical_request(rng))
        if baseline:
            baseline.check(typical_request(rng))

    latencies: list[float] = []
    floors: list[float] = []
    base_latencies: list[float] = []
    for _ in range(args.typical):
        req = typical_request(rng)
        started = time.perf_counter()
        response = engine.check(req)
        latencies.append(time.perf_counter() - started)
        assert response["claims"]
        if baseline:
            started = time.perf_counter()
            same = baseline.check(req)
            base_latencies.append(time.perf_counter() - started)
            # The two precisions must cite the same chunks: only the speed may differ.
            assert [c.get("citationIndices") for c in same["claims"]] == [
                c.get("citationIndices") for c in response["claims"]
            ]
        texts = request_sentences(req)
        started = time.perf_counter()
        embedder.encode(texts)
        floors.append(time.perf_counter() - started)

    ratios = [lat / fl for lat, fl in zip(latencies, floors, strict=True)]
    print(
        f"engine {engine.model_id}, torch threads {args.threads}, "
        f"embedder precision {embedder.precision} ({args.precision})"
    )
    print()
    print("| request | p50 | p95 | req/s | embedding floor p50 | ratio to floor (median) |")
    print("|---|---|---|---|---|---|")
    print(
        f"| typical: 5 sentences, 10 facts x 1,000 chars ({args.typical} runs) "
        f"| {statistics.median(latencies) * 1000:.0f} ms | {percentile(latencies, 0.95) * 1000:.0f} ms "
        f"| {len(latencies) / sum(latencies):.1f} | {statistics.median(floors) * 1000:.0f} ms "
        f"| {statistics.median(ratios):.2f} |"
    )
    if base_latencies:
        print(
            f"| the same requests, {args.baseline} "
            f"| {statistics.median(base_latencies) * 1000:.0f} ms "
            f"| {percentile(base_latencies, 0.95) * 1000:.0f} ms "
            f"| {len(base_latencies) / sum(base_latencies):.1f} | | |"
        )
        print(
            f"| ratio {embedder.precision} / {args.baseline} (p50, p95) "
            f"| {statistics.median(latencies) / statistics.median(base_latencies):.2f} "
            f"| {percentile(latencies, 0.95) / percentile(base_latencies, 0.95):.2f} | | | |"
        )

    max_lat: list[float] = []
    for _ in range(args.max):
        req = max_request(rng)
        started = time.perf_counter()
        response = engine.check(req)
        max_lat.append(time.perf_counter() - started)
        n_claims = len(response["claims"])
    print(
        f"| maximum: 200 facts x 10,000 chars, 4,096-token answer ({n_claims} claims, {args.max} runs) "
        f"| {statistics.median(max_lat):.2f} s | {max(max_lat):.2f} s | {len(max_lat) / sum(max_lat):.2f} "
        "| | |"
    )
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print()
    print(f"peak RSS of this process: {peak_mb:.0f} MB")
    print(
        "floor = embedding the answer's and all facts' sentences once with the same model; the engine "
        "embeds only the 8 best BM25 candidates per claim, so the ratio can be below 1."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
