"""Server time of the disagreement list (issue 14 item 4), beside the agreement report.

    .venv/bin/python bench/disagreements.py [--answers 2000] [--runs 5] [--reseed]

Creates (once per size) a PostgreSQL database `gv_bench_disagreements_<answers>`: each answer
checked, with five claims, labelled by two reviewers who differ on a third of the claims (the
checker cites every other claim). Prints the median time of selecting the list (any kind,
reviewers only, checker only, with one page of rows completed), of GET /disagreements/?page=3
through Django's test client, and of the agreement report over the same labels.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdb import use_database  # noqa: E402

TEXT = "One claim here. Two claim here. Three claim here. Four claim here. Five claim here."
SPANS = [(0, 15), (16, 31), (32, 49), (50, 66), (67, 83)]


def seed(count: int) -> None:
    from django.contrib.auth.models import User

    from groundview.answers.models import Answer, CheckRun, Session
    from groundview.review.models import AnswerLabel, ClaimLabel

    if Answer.objects.exists():
        return
    first, second = (User.objects.create_user(username=name) for name in ("first", "second"))
    User.objects.create_user(username="staff", is_staff=True)
    session = Session.objects.create(
        name="projects/p/locations/global/collections/c/engines/e/sessions/b"
    )
    answers = Answer.objects.bulk_create(
        (
            Answer(
                session=session,
                name=f"{session.name}/answers/{i}",
                state="SUCCEEDED",
                answer_text=TEXT,
                raw={},
            )
            for i in range(count)
        ),
        batch_size=2000,
    )
    claims = [
        {
            "startPos": start,
            "endPos": end,
            "citationIndices": [0] if k % 2 else [],
            "score": 0.5,
            "groundingCheckRequired": True,
        }
        for k, (start, end) in enumerate(SPANS)
    ]
    response = {"citedChunks": [{"chunkText": "x" * 800, "source": "0"}] * 5, "claims": claims}
    runs = CheckRun.objects.bulk_create(
        (CheckRun(answer=a, status="succeeded", request={}, response=response) for a in answers),
        batch_size=2000,
    )
    for answer, run in zip(answers, runs, strict=True):
        answer.latest_check = run
    Answer.objects.bulk_update(answers, ["latest_check"], batch_size=2000)
    labels = AnswerLabel.objects.bulk_create(
        (
            AnswerLabel(answer=a, reviewer=r, verdict="supported")
            for a in answers
            for r in (first, second)
        ),
        batch_size=4000,
    )
    ClaimLabel.objects.bulk_create(
        (
            ClaimLabel(
                label=label,
                start_index=start,
                end_index=end,
                claim_text=TEXT[start:end],
                verdict="supported" if (k + n) % 3 else "unsupported",
            )
            for n, label in enumerate(labels)
            for k, (start, end) in enumerate(SPANS)
        ),
        batch_size=5000,
    )


def median_ms(work, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reseed", action="store_true")
    args = parser.parse_args()
    use_database(f"gv_bench_disagreements_{args.answers}", reseed=args.reseed)
    seed(args.answers)

    from django.contrib.auth.models import User
    from django.test import Client

    from groundview.review.adjudication import DisagreementFilters, complete, select_disagreements
    from groundview.review.agreement import agreement_report
    from groundview.review.models import ClaimLabel

    staff = User.objects.get(username="staff")
    print(f"{ClaimLabel.objects.count()} claim labels on {args.answers} answers")
    for kind in ("", "reviewers", "checker"):
        found = []

        def select(kind=kind, found=found):
            found[:] = select_disagreements(staff, DisagreementFilters(kind=kind))
            complete(found[:25])

        ms = median_ms(select, args.runs)
        print(f"select kind={kind or 'any':9} {len(found):7} claims  median {ms:7.0f} ms")
    client = Client(SERVER_NAME="localhost")
    client.force_login(staff)
    ms = median_ms(lambda: client.get("/disagreements/?page=3"), args.runs)
    print(f"GET /disagreements/?page=3                median {ms:7.0f} ms")
    print(
        f"agreement_report (comparison)             median {median_ms(agreement_report, args.runs):7.0f} ms"
    )


if __name__ == "__main__":
    main()
