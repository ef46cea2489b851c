"""Server time of the REST API and the Vertex routes, against a trivial DRF view in the same run.

    .venv/bin/python bench/api.py [--answers 100000] [--runs 30] [--reseed] [--no-check]

Creates (once) a PostgreSQL database `gv_bench_api` with N answers (each a ~2 KB Vertex document,
80% checked, every 5th labelled with two claim verdicts), then, through Django's test client with
a Bearer token (full middleware and DRF stack, no network):

- times list, detail and Vertex reads (median, p95, ratio to a trivial DRF view that passes the
  same authentication and permission classes);
- streams /api/export/answers.jsonl and labels.csv whole and reports MB/s, the ratio to iterating
  the same export service without HTTP, and the growth of this process's RSS while streaming;
- times Check Grounding over HTTP against engine.check() in-process for the same typical request
  (5 sentences, 10 facts of ~1,000 characters), unless --no-check.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdb import use_database  # noqa: E402

DB_NAME = "gv_bench_api"

SESSION = "projects/p/locations/global/collections/c/engines/e/sessions"


def document(i: int) -> dict:
    text = f"Answer {i} says the library supports 中文 and emoji 😀 since version {i % 50}.0. " * 6
    return {
        "name": f"{SESSION}/s{i % 500}/answers/a{i}",
        "state": "SUCCEEDED",
        "answerText": text,
        "groundingScore": (i * 37 % 101) / 100,
        "references": [
            {
                "chunkInfo": {
                    "chunk": f"chunks/{i}-{r}",
                    "content": f"Version {i % 50}.0 added support for 中文 text. Reference {r}.",
                    "documentMetadata": {"title": f"Release notes {r}", "uri": f"https://x/{r}"},
                }
            }
            for r in range(4)
        ],
        "citations": [{"startIndex": "0", "endIndex": "40", "sources": [{"referenceId": "0"}]}],
    }


def seed(count: int) -> None:
    from django.contrib.auth.models import User
    from django.db import connection

    from groundview.answers.models import Answer, CheckRun, Session
    from groundview.review.models import AnswerLabel, ClaimLabel

    started = time.monotonic()
    reviewer = User.objects.create_user(username="bench", password="bench-pw-123", is_staff=True)
    sessions = Session.objects.bulk_create(Session(name=f"{SESSION}/s{i}") for i in range(500))
    batch = 5000
    for offset in range(0, count, batch):
        # Straight into the tables: the API reads the document and the indexed columns.
        answers = Answer.objects.bulk_create(
            Answer(
                session=sessions[i % 500],
                name=document(i)["name"],
                state="SUCCEEDED",
                answer_text=document(i)["answerText"],
                grounding_score=document(i)["groundingScore"],
                raw=document(i),
            )
            for i in range(offset, min(offset + batch, count))
        )
        checked = [a for a in answers if a.pk % 5]
        runs = CheckRun.objects.bulk_create(
            CheckRun(answer=a, status="succeeded", support_score=(a.pk * 53 % 101) / 100)
            for a in checked
        )
        for answer, run in zip(checked, runs, strict=True):
            answer.latest_check = run
        Answer.objects.bulk_update(checked, ["latest_check"], batch_size=batch)
        labels = AnswerLabel.objects.bulk_create(
            AnswerLabel(answer=a, reviewer=reviewer, verdict="supported") for a in answers[::5]
        )
        ClaimLabel.objects.bulk_create(
            ClaimLabel(label=label, start_index=s, end_index=s + 10, verdict="supported")
            for label in labels
            for s in (0, 20)
        )
        print(f"  seeded {offset + len(answers)} answers", file=sys.stderr)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(f"seeded in {time.monotonic() - started:.0f} s", file=sys.stderr)


def install_trivial_view() -> None:
    from django.conf import settings
    from django.urls import clear_url_caches, include, path
    from rest_framework.response import Response
    from rest_framework.views import APIView

    class Trivial(APIView):
        def get(self, request):
            return Response({"ok": True})

    module = types.ModuleType("bench_api_urls")
    module.urlpatterns = [
        path("bench/trivial", Trivial.as_view()),
        path("", include("groundview.urls")),
    ]
    sys.modules["bench_api_urls"] = module
    settings.ROOT_URLCONF = "bench_api_urls"
    clear_url_caches()


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def time_reads(client, urls: list[tuple[str, str]], runs: int) -> None:
    for _, url in urls:
        for _ in range(3):
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code, response.content[:200])
    samples: dict[str, list[float]] = {url: [] for _, url in urls}
    # Interleaved, so load from other processes on this shared machine hits every row alike.
    for _ in range(runs):
        for _, url in urls:
            started = time.perf_counter()
            client.get(url)
            samples[url].append((time.perf_counter() - started) * 1000)
    print(f"{'request':52} {'median ms':>9} {'p95 ms':>7} {'x trivial':>9}")
    baseline = None
    for title, url in urls:
        median = statistics.median(samples[url])
        baseline = baseline or median
        print(
            f"{title:52} {median:9.1f} {percentile(samples[url], 0.95):7.1f} "
            f"{median / baseline:9.1f}"
        )


def stream(client, url: str) -> tuple[float, int, float]:
    """Seconds, bytes and peak RSS growth (MB) of reading a streamed export whole."""
    before = peak = rss_mb()
    started = time.perf_counter()
    response = client.get(url)
    assert response.status_code == 200, response.content[:200]
    size = 0
    for number, chunk in enumerate(response.streaming_content):
        size += len(chunk)
        if number % 2000 == 0:
            peak = max(peak, rss_mb())
    return time.perf_counter() - started, size, max(peak, rss_mb()) - before


def time_exports(client) -> None:
    from groundview.answers.exporting import answer_jsonl
    from groundview.answers.models import Answer
    from groundview.api.exports import labels_csv
    from groundview.review.models import AnswerLabel

    print(f"\n{'export':28} {'MB':>6} {'s':>6} {'MB/s':>6} {'x direct':>8} {'RSS +MB':>7}")
    for title, url, direct in [
        ("answers.jsonl", "/api/export/answers.jsonl", lambda: answer_jsonl(Answer.objects.all())),
        ("labels.csv", "/api/export/labels.csv", lambda: labels_csv(AnswerLabel.objects.all())),
    ]:
        started = time.perf_counter()
        for _ in direct():
            pass
        baseline = time.perf_counter() - started
        seconds, size, growth = stream(client, url)
        print(
            f"{title:28} {size / 1e6:6.0f} {seconds:6.1f} {size / 1e6 / seconds:6.1f} "
            f"{seconds / baseline:8.2f} {growth:7.1f}"
        )


def time_check(client, runs: int) -> None:
    import json

    from groundview.answers import checks
    from groundview.grounding import get_engine

    sentences = [
        "The Eiffel Tower was completed in 1889.",
        "It is 330 metres tall.",
        "Gustave Eiffel's company designed and built it.",
        "It was the tallest structure in the world until 1930.",
        "About seven million people visit it every year.",
    ]
    facts = [
        {
            "factText": (
                f"Fact {n}. " + " ".join(sentences) + " Paris is the capital of France. " * 20
            )[:1000],
            "attributes": {"title": f"Source {n}"},
        }
        for n in range(10)
    ]
    payload = {"answerCandidate": " ".join(sentences), "facts": facts}
    body = json.dumps(payload)
    url = "/v1/projects/p/locations/global/groundingConfigs/default_grounding_config:check"
    engine = get_engine(checks.engine_config())
    try:
        engine.warm_up()
        engine.check(payload)
    except Exception as error:  # the engine is another team's; report rather than crash
        print(f"\nCheck Grounding: engine unavailable ({type(error).__name__}: {error})"[:300])
        return
    direct, http = [], []
    for _ in range(runs):
        started = time.perf_counter()
        engine.check(payload)
        direct.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        response = client.post(url, data=body, content_type="application/json")
        http.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.content[:300]
    print(f"\n{'Check Grounding, typical request':52} {'median ms':>9} {'p95 ms':>7} {'ratio':>9}")
    print(
        f"{'engine.check() in-process':52} {statistics.median(direct):9.1f} "
        f"{percentile(direct, 0.95):7.1f} {1.0:9.2f}"
    )
    print(
        f"{'POST .../groundingConfigs/x:check (HTTP stack)':52} {statistics.median(http):9.1f} "
        f"{percentile(http, 0.95):7.1f} {statistics.median(http) / statistics.median(direct):9.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--reseed", action="store_true")
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args()
    use_database(DB_NAME, reseed=args.reseed)
    from django.contrib.auth.models import User
    from django.test import Client

    from groundview.answers.models import Answer
    from groundview.api.models import ApiToken

    if not Answer.objects.exists():
        seed(args.answers)
    install_trivial_view()
    _, token = ApiToken.issue(User.objects.get(username="bench"), "bench")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    some = Answer.objects.order_by("pk")[Answer.objects.count() // 2]
    deep = client.get("/api/answers?page_size=50")
    for _ in range(20):
        deep = client.get(deep.json()["next"])
    total = Answer.objects.count()
    print(f"{total} answers in {DB_NAME}; {args.runs} timed requests each after 3 warm-up;")
    print(f"load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n")
    time_reads(
        client,
        [
            ("trivial DRF view (same auth + permissions)", "/bench/trivial"),
            ("GET /api/answers (50, newest first)", "/api/answers?page_size=50"),
            ("GET /api/answers, 21st page by cursor", deep.json()["next"]),
            (
                "GET /api/answers?sort=-score&label_status=unlabelled",
                "/api/answers?sort=-score&label_status=unlabelled",
            ),
            ("GET /api/answers?q=…&score_min=0.5", "/api/answers?q=version+7.0&score_min=0.5"),
            ("GET /api/answers/{id} (with document)", f"/api/answers/{some.pk}"),
            ("GET /v1/…/answers/{a} (answers.get)", f"/v1/{some.name}"),
            ("GET /api/labels (50)", "/api/labels?page_size=50"),
            ("GET /api/checks (50)", "/api/checks?page_size=50"),
            ("GET /api/sessions (50)", "/api/sessions?page_size=50"),
        ],
        args.runs,
    )
    time_exports(client)
    if not args.no_check:
        time_check(client, args.runs)
    print(f"\nload average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
