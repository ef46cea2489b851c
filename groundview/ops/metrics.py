"""Prometheus metrics.

Requests are counted in the process that served them. Check runs and the queue are read from the
database at scrape time: the runs table is the truth about checks (workers, retries and
redeliveries all end there), and any web process can report it without talking to the workers.

Under gunicorn with several workers set PROMETHEUS_MULTIPROC_DIR (an empty, writable folder) so a
scrape sums every worker's request counters instead of showing the one that happened to answer.
"""

from __future__ import annotations

import logging
import os
from datetime import timedelta

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily

logger = logging.getLogger(__name__)

# The window of the check-run duration gauges.
RECENT = timedelta(minutes=15)

REQUESTS = Counter(
    "groundview_http_requests",
    "HTTP requests answered, by method, URL route and status code.",
    ["method", "route", "status"],
)
REQUEST_SECONDS = Histogram(
    "groundview_http_request_duration_seconds",
    "Time to answer an HTTP request, by method and URL route.",
    ["method", "route"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    REQUESTS.labels(method, route, str(status)).inc()
    REQUEST_SECONDS.labels(method, route).observe(seconds)


class CheckRunCollector:
    """Check runs by status, the age of the oldest queued one, and how long recent runs took."""

    def collect(self):
        from django.db.models import Avg, Count, DurationField, ExpressionWrapper, F, Min
        from django.utils import timezone

        from groundview.answers.models import CheckRun

        up = GaugeMetricFamily(
            "groundview_metrics_database_up", "1 if the database answered this scrape."
        )
        try:
            counts = dict(
                CheckRun.objects.order_by()
                .values_list("status")
                .annotate(n=Count("id"))
                .values_list("status", "n")
            )
            oldest = CheckRun.objects.filter(status=CheckRun.Status.QUEUED).aggregate(
                t=Min("queued_at")
            )["t"]
            took = ExpressionWrapper(
                F("finished_at") - F("started_at"), output_field=DurationField()
            )
            # A window, as gauges: totals over the table would fall whenever answers (and their
            # runs) are deleted, which Prometheus reads as a counter reset.
            durations = CheckRun.objects.filter(
                status=CheckRun.Status.SUCCEEDED,
                started_at__isnull=False,
                finished_at__gte=timezone.now() - RECENT,
            ).aggregate(mean=Avg(took), n=Count("id"))
        except Exception as exc:
            logger.warning("metrics: cannot read check runs: %s", exc)
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up

        runs = GaugeMetricFamily(
            "groundview_check_runs", "Check runs in the database, by status.", labels=["status"]
        )
        for status in CheckRun.Status.values:
            runs.add_metric([status], counts.get(status, 0))
        yield runs

        depth = GaugeMetricFamily(
            "groundview_check_queue_depth", "Check runs queued and not yet started."
        )
        depth.add_metric([], counts.get(CheckRun.Status.QUEUED, 0))
        yield depth

        age = GaugeMetricFamily(
            "groundview_check_queue_oldest_seconds",
            "How long the oldest queued check run has waited (0 when none is queued).",
        )
        age.add_metric([], (timezone.now() - oldest).total_seconds() if oldest else 0.0)
        yield age

        window = f"in the last {RECENT.seconds // 60} minutes"
        done = GaugeMetricFamily(
            "groundview_check_runs_succeeded_recently", f"Check runs that succeeded {window}."
        )
        done.add_metric([], durations["n"])
        yield done
        mean = durations["mean"]
        duration = GaugeMetricFamily(
            "groundview_check_run_recent_duration_seconds",
            f"Mean start-to-finish time of the check runs that succeeded {window} (0 when none).",
        )
        duration.add_metric([], mean.total_seconds() if mean else 0.0)
        yield duration


def render() -> tuple[bytes, str]:
    """The exposition text for one scrape and its content type."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        process_registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(process_registry)
    else:
        process_registry = REGISTRY
    database_registry = CollectorRegistry(auto_describe=False)
    database_registry.register(CheckRunCollector())
    return generate_latest(process_registry) + generate_latest(
        database_registry
    ), CONTENT_TYPE_LATEST
