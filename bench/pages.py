"""Server time of the review pages, against a trivial Django view in the same run.

    .venv/bin/python bench/pages.py [--answers 100000] [--runs 30] [--reseed]

Creates (once) a PostgreSQL database `gv_bench_pages` with 100,000 answers (80% checked, some
skipped, some labelled) and one answer with 50 claims and 100 references, then times requests
through Django's test client (full middleware stack, logged in, no network) and prints the
median and p95 per page and the ratio to a trivial view that only passes the same middleware.
Targets (issue 5): list <= 200 ms, detail <= 100 ms on the 2-core machine.

Then the review queue's step to the next answer (issue 14: <= 150 ms median), each step a real
label of the answer the queue leased, as a user `queue-bench` whose labels are removed before and
after: the script's way (one POST answered with the next page), the way without script (the POST,
its 303 and the GET), and the old three requests (POST, /queue/, the answer) for comparison.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdb import use_database  # noqa: E402

DB_NAME = "gv_bench_pages"


class SqlTimer:
    """A connection.execute_wrapper that adds up the milliseconds spent in SQL since `ms` was reset."""

    def __init__(self) -> None:
        self.ms = 0.0

    def __call__(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.ms += (time.perf_counter() - started) * 1000


def seed(count: int) -> None:
    from django.contrib.auth.models import User
    from django.utils import timezone

    from groundview.answers.models import Answer, CheckRun, Session, SkippedReason
    from groundview.review.models import AnswerLabel

    started = time.monotonic()
    reviewers = [
        User.objects.create_user(username=f"reviewer{i}", password="bench-pw-123") for i in range(5)
    ]
    sessions = Session.objects.bulk_create(
        Session(name=f"projects/p/locations/global/collections/c/engines/e/sessions/s{i}")
        for i in range(500)
    )
    now = timezone.now()
    words = [
        "grounded",
        "answer",
        "about",
        "retrieval",
        "claims",
        "citations",
        "evidence",
        "chunk",
        "search",
    ]
    batch = 5000
    for offset in range(0, count, batch):
        answers = Answer.objects.bulk_create(
            Answer(
                session=sessions[i % len(sessions)],
                name=f"{sessions[i % len(sessions)].name}/answers/a{i}",
                state="SUCCEEDED" if i % 17 else "FAILED",
                answer_text=" ".join(words[(i + k) % len(words)] for k in range(40)) + f" #{i}.",
                query_text=f"Question number {i} about {words[i % len(words)]}?",
                grounding_score=(i * 37 % 101) / 100,
                create_time=now - timezone.timedelta(minutes=i),
                raw={"name": f"a{i}", "answerText": "…"},
            )
            for i in range(offset, min(offset + batch, count))
        )
        checked = [a for a in answers if a.pk % 5]
        runs = CheckRun.objects.bulk_create(
            CheckRun(
                answer=a,
                status=CheckRun.Status.SUCCEEDED,
                support_score=(a.pk * 53 % 101) / 100,
                response={"supportScore": 0.5, "claims": []},
            )
            for a in checked
        )
        for answer, run in zip(checked, runs, strict=True):
            answer.latest_check = run
        Answer.objects.bulk_update(checked, ["latest_check"], batch_size=batch)
        SkippedReason.objects.bulk_create(
            SkippedReason(answer=a, position=0, reason="NO_RELEVANT_CONTENT") for a in answers[::10]
        )
        AnswerLabel.objects.bulk_create(
            AnswerLabel(answer=a, reviewer=reviewers[a.pk % 5], verdict="supported")
            for a in answers[::20]
        )
        print(f"  seeded {offset + len(answers)} answers", file=sys.stderr)
    detail_answer()
    from django.db import connection

    # What autovacuum does soon after a bulk load: statistics, and the visibility map that lets
    # counts and score histograms read indexes only.
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(f"seeded in {time.monotonic() - started:.0f} s", file=sys.stderr)


def detail_answer():
    """One answer with 50 claims and 100 references, imported and checked like a real one."""
    import json

    from django.utils import timezone

    from groundview.answers.importing import import_text
    from groundview.answers.models import Answer, CheckRun

    sentences = [
        f"Claim {i}: the 🐍 library version {i}.0 supports 中文 text and feature {i}."
        for i in range(50)
    ]
    text = " ".join(sentences)
    data = text.encode()
    spans, at = [], 0
    for sentence in sentences:
        start = data.index(sentence.encode(), at)
        spans.append((start, start + len(sentence.encode())))
        at = spans[-1][1]
    name = "projects/p/locations/global/collections/c/engines/e/sessions/detail/answers/big"
    references = [
        {
            "unstructuredDocumentInfo": {
                "document": f"doc{r}",
                "uri": f"https://docs.example.com/{r}",
                "title": f"Documentation page {r}",
                "chunkContents": [
                    {"content": f"Version {r}.0 supports feature {r}. It also handles 中文 text."},
                    {"content": f"Unrelated paragraph {r} about installation and setup."},
                ],
            }
        }
        for r in range(100)
    ]
    raw = {
        "name": name,
        "state": "SUCCEEDED",
        "answerText": text,
        "groundingScore": 0.8,
        "references": references,
        "citations": [
            {
                "startIndex": s,
                "endIndex": e,
                "sources": [{"referenceId": str(i)}, {"referenceId": str(i + 50)}],
            }
            for i, (s, e) in enumerate(spans)
        ],
        "groundingSupports": [
            {
                "startIndex": s,
                "endIndex": e,
                "groundingScore": 0.7,
                "sources": [{"referenceId": str(i)}],
            }
            for i, (s, e) in enumerate(spans)
        ],
        "relatedQuestions": ["What else?", "Which version?"],
        "steps": [
            {
                "state": "SUCCEEDED",
                "description": "search",
                "thought": "look it up",
                "actions": [
                    {
                        "searchAction": {"query": "library versions"},
                        "observation": {
                            "searchResults": [
                                {
                                    "document": f"doc{r}",
                                    "title": f"Result {r}",
                                    "snippetInfo": [{"snippet": "a <b>snippet</b>"}],
                                }
                                for r in range(10)
                            ]
                        },
                    }
                ],
            }
        ],
    }
    result = import_text(json.dumps(raw))
    assert not result.problems, result.problems
    answer = Answer.objects.get(name=name)
    facts = []
    sources = []
    for r in range(100):
        for c in range(2):
            facts.append(
                {
                    "factText": references[r]["unstructuredDocumentInfo"]["chunkContents"][c][
                        "content"
                    ],
                    "attributes": {"title": f"Documentation page {r}"},
                }
            )
            sources.append({"reference": r, "chunk": c})
    claims, cited = [], []
    for i, (s, e) in enumerate(spans):
        claims.append(
            {
                "startPos": s,
                "endPos": e,
                "claimText": sentences[i],
                "citationIndices": [len(cited)],
                "groundingCheckRequired": True,
                "score": 0.9,
            }
        )
        cited.append({"chunkText": facts[2 * i]["factText"], "source": str(2 * i)})
    run = CheckRun.objects.create(
        answer=answer,
        status=CheckRun.Status.SUCCEEDED,
        request={"answerCandidate": text, "facts": facts},
        response={"supportScore": 0.9, "citedChunks": cited, "claims": claims},
        fact_sources=sources,
        support_score=0.9,
        finished_at=timezone.now(),
    )
    Answer.objects.filter(pk=answer.pk).update(latest_check=run)


def trivial(request):
    from django.http import HttpResponse

    return HttpResponse("ok")


def install_trivial_view() -> None:
    from django.conf import settings
    from django.contrib.auth.decorators import login_required
    from django.urls import clear_url_caches, include, path

    module = types.ModuleType("bench_pages_urls")
    module.urlpatterns = [
        path("bench/trivial/", login_required(trivial)),
        path("", include("groundview.urls")),
    ]
    sys.modules["bench_pages_urls"] = module
    settings.ROOT_URLCONF = "bench_pages_urls"
    clear_url_caches()


def measure(
    client, urls: list[str], runs: int
) -> dict[str, tuple[list[float], list[float], list[float]]]:
    """Wall and in-process CPU milliseconds per request, pages interleaved round-robin.

    Interleaving spreads any load from other processes on this shared machine evenly over all
    pages (and the baseline), so the ratios stay meaningful when the absolute times are not.
    """
    for url in urls:
        for _ in range(3):
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
    from django.db import connection

    timed_sql = SqlTimer()

    samples: dict[str, tuple[list[float], list[float], list[float]]] = {
        url: ([], [], []) for url in urls
    }
    with connection.execute_wrapper(timed_sql):
        for _ in range(runs):
            for url in urls:
                timed_sql.ms = 0.0
                wall, cpu = time.perf_counter(), time.process_time()
                response = client.get(url)
                samples[url][0].append((time.perf_counter() - wall) * 1000)
                samples[url][1].append((time.process_time() - cpu) * 1000)
                samples[url][2].append(timed_sql.ms)
                assert response.status_code == 200
    return samples


# The queue the step benchmark works through: a filter carried through every step.
STEP_QUEUE = "score_max=0.6"
NEXT_PAGE = re.compile(r'<link rel="canonical" href="/answers/(\d+)/')


def step_label(answer_id: int, **fields) -> dict[str, str]:
    """The label form a reviewer posts: one claim (the bench answers are one sentence) and the
    answer verdict, in queue mode."""
    from groundview.answers.models import Answer

    size = len(Answer.objects.values_list("answer_text", flat=True).get(pk=answer_id).encode())
    return {
        "claim_count": "1",
        "claim-1-start": "0",
        "claim-1-end": str(size),
        "claim-1-verdict": "supported",
        "verdict": "supported",
        "note": "",
        "source": "",
        "in_queue": "1",
        "queue_query": STEP_QUEUE,
        "action": "next",
        **fields,
    }


def measure_queue_step(runs: int) -> dict[str, tuple[list[float], list[float], list[float]]]:
    """Wall, CPU and SQL milliseconds per step to the next answer, the three ways, the progress
    counts and the trivial view interleaved round-robin (the order rotating), after 3 warm-up
    rounds."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client

    from groundview.review.models import AnswerLabel, Assignment

    user, _ = User.objects.get_or_create(username="queue-bench")

    def forget() -> None:
        AnswerLabel.objects.filter(reviewer=user).delete()
        Assignment.objects.filter(reviewer=user).delete()

    client = Client()
    client.force_login(user)
    forget()
    entered = client.get("/queue/?" + STEP_QUEUE)
    assert entered.status_code == 302, entered.status_code
    current = [int(entered["Location"].split("/")[2])]

    def one_request() -> int:
        response = client.post(
            f"/answers/{current[0]}/label/", step_label(current[0], respond="page")
        )
        assert response.status_code == 200, response.status_code
        return int(NEXT_PAGE.search(response.content.decode()).group(1))

    def redirect_then_get() -> int:
        response = client.post(f"/answers/{current[0]}/label/", step_label(current[0]))
        assert response.status_code == 303, response.status_code
        page = client.get(response["Location"])
        assert page.status_code == 200
        return int(response["Location"].split("/")[2])

    def old_three() -> int:
        response = client.post(
            f"/answers/{current[0]}/label/", step_label(current[0], action="save")
        )
        assert response.status_code == 302, response.status_code
        queue = client.get("/queue/?" + STEP_QUEUE)
        assert queue.status_code == 302
        page = client.get(queue["Location"])
        assert page.status_code == 200
        return int(queue["Location"].split("/")[2])

    def trivial_view() -> int:
        assert client.get("/bench/trivial/").status_code == 200
        return current[0]

    def progress_counts() -> int:
        assert client.get("/queue/progress.json?" + STEP_QUEUE).status_code == 200
        return current[0]

    ways = {
        "trivial view (same middleware, logged in)": trivial_view,
        "queue step, script: 1 POST answered with the page": one_request,
        "queue step, no script: POST + 303 + GET": redirect_then_get,
        "queue step before: POST + /queue/ + answer (3)": old_three,
        "progress counts the script fetches after the page": progress_counts,
    }
    timed_sql = SqlTimer()

    samples: dict[str, tuple[list[float], list[float], list[float]]] = {
        title: ([], [], []) for title in ways
    }
    order = list(ways)
    try:
        for round_ in range(runs + 3):
            for title in order[round_ % len(order) :] + order[: round_ % len(order)]:
                with connection.execute_wrapper(timed_sql):
                    timed_sql.ms = 0.0
                    wall, cpu = time.perf_counter(), time.process_time()
                    following = ways[title]()
                    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                assert following != current[0] or ways[title] in (trivial_view, progress_counts)
                current[0] = following
                if round_ >= 3:
                    for values, value in zip(
                        samples[title], (wall * 1000, cpu * 1000, timed_sql.ms), strict=True
                    ):
                        values.append(value)
    finally:
        forget()
    return samples


def report_pages(runs: int) -> None:
    from django.contrib.auth.models import User
    from django.test import Client

    from groundview.answers.models import Answer

    client = Client()
    client.force_login(User.objects.get(username="reviewer0"))
    detail_pk = Answer.objects.get(name__endswith="/sessions/detail/answers/big").pk
    total = Answer.objects.count()
    pages = [
        ("trivial view (same middleware, logged in)", "/bench/trivial/", None),
        ("answer list, default (recently imported)", "/", 200),
        ("answer list, newest first (createTime)", "/?sort=-created", 200),
        ("answer list, page 500", "/?page=500", 200),
        ("answer list, sorted by our score", "/?sort=-score", 200),
        (
            "answer list, score 0.2-0.6 + unlabelled",
            "/?score_min=0.2&score_max=0.6&label_status=unlabelled",
            200,
        ),
        ("answer list, text search", "/?q=number+4242", 200),
        ("answer detail, 50 claims / 100 refs (checker)", f"/answers/{detail_pk}/", 100),
        (
            "answer detail, 50 claims / 100 refs (imported)",
            f"/answers/{detail_pk}/?source=imported",
            100,
        ),
    ]
    print(f"{total} answers in {DB_NAME}; {runs} timed requests per page after 3 warm-up,")
    print(
        f"pages interleaved; load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n"
    )
    samples = measure(client, [url for _, url, _ in pages], runs)
    header = (
        f"{'page':50} {'median ms':>9} {'p95 ms':>7} {'x trivial':>9} {'cpu ms':>7} "
        f"{'sql ms':>7} {'target':>11}"
    )
    print(header)
    baseline = None
    for title, url, target in pages:
        wall, cpu, sql = (sorted(values) for values in samples[url])
        median = statistics.median(wall)
        p95 = wall[min(len(wall) - 1, int(0.95 * len(wall)))]
        baseline = baseline or median
        target_text = (
            "" if target is None else f"<={target} " + ("ok" if median <= target else "MISS")
        )
        print(
            f"{title:50} {median:9.1f} {p95:7.1f} {median / baseline:9.1f} "
            f"{statistics.median(cpu):7.1f} {statistics.median(sql):7.1f} {target_text:>11}"
        )
    print(
        f"\nload average at end {os.getloadavg()[0]:.1f}; cpu ms: this process's CPU time;"
        " sql ms: wall time waiting on PostgreSQL (medians)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--reseed", action="store_true")
    parser.add_argument("--steps-only", action="store_true", help="only the queue step")
    args = parser.parse_args()
    use_database(DB_NAME, reseed=args.reseed)

    from groundview.answers.models import Answer

    if not Answer.objects.exists():
        seed(args.answers)
    install_trivial_view()

    if not args.steps_only:
        report_pages(args.runs)
    print(
        f"\nQueue step to the next answer ({STEP_QUEUE!r} carried through; {args.runs} steps each"
        " way after 3 warm-up rounds, ways interleaved)\n"
    )
    steps = measure_queue_step(args.runs)
    print(
        f"{'step':50} {'median ms':>9} {'p95 ms':>7} {'x trivial':>9} {'cpu ms':>7} "
        f"{'sql ms':>7} {'target':>11}"
    )
    baseline = None
    for title, (wall, cpu, sql) in steps.items():
        wall = sorted(wall)
        median = statistics.median(wall)
        p95 = wall[min(len(wall) - 1, int(0.95 * len(wall)))]
        baseline = baseline or median
        target = "<=150 " + ("ok" if median <= 150 else "MISS") if "step" in title else ""
        print(
            f"{title:50} {median:9.1f} {p95:7.1f} {median / baseline:9.1f} "
            f"{statistics.median(cpu):7.1f} {statistics.median(sql):7.1f} {target:>11}"
        )
    print(f"load average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
