"""gunicorn's settings for `groundview serve` (compose's web service and the README's serve command
use it): `gunicorn -c python:groundview.gunicorn_conf groundview.wsgi`.

Why these values (numbers from README "Benchmarks", 2-core machine):

- Threads (gthread), not sync workers. A sync worker heartbeats only between requests, so any
  request longer than `timeout` gets the worker killed mid-response: the largest Check Grounding
  request (6.3 s alone, ~15 s on a busy CPU, plus up to GROUNDVIEW_CHECK_QUEUE_SECONDS waiting for
  a check slot), a streamed export of 100,000 answers, or a slow client's upload. A gthread
  worker's main loop keeps heartbeating while threads serve requests, and the threads share one
  loaded model per process. GROUNDVIEW_MAX_CONCURRENT_CHECKS bounds how many of a process's threads
  run the engine at once; the others keep serving pages and the API.
- `timeout` is therefore the limit for a worker that stops heartbeating altogether (hung or
  starved), not for a request. 120 s is far above any stall of the main loop (a 32 MB JSON body
  parses in well under a second) and above the longest request, so nothing healthy is killed.
- `graceful_timeout`: on SIGTERM (a deploy, `docker compose stop`) requests in flight get this
  long to finish before their worker is killed: 40 s covers the longest check (~15 s under load)
  plus its wait for a slot (10 s). compose's stop_grace_period for web is longer still.
- `max_requests` with jitter: each worker is replaced after 2,000-2,200 requests, so memory the
  allocator keeps after the largest requests (738 MB peak RSS for one) is handed back now and then,
  and not by all workers at once. Not lower: a new worker loads the model again (seconds of CPU)
  on its first Check Grounding request. (With PROMETHEUS_MULTIPROC_DIR each replaced worker leaves
  its counter file, still summed by /metrics; `groundview serve` empties the folder at start.)

Each value can be set from the environment (README "Operating"); `groundview serve
--workers/--timeout` (gunicorn command-line options) override both.
"""

import os


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


wsgi_app = "groundview.wsgi"
worker_class = "gthread"
# Processes: each may load the model (~750 MB at the peak of the largest request).
workers = _int("WEB_CONCURRENCY", 2)
# Requests served at once per process; GROUNDVIEW_MAX_CONCURRENT_CHECKS of them may run the engine.
threads = _int("GROUNDVIEW_WEB_THREADS", 4)
timeout = _int("GROUNDVIEW_WEB_TIMEOUT", 120)
graceful_timeout = _int("GROUNDVIEW_WEB_GRACEFUL_TIMEOUT", 40)
max_requests = _int("GROUNDVIEW_WEB_MAX_REQUESTS", 2000)
max_requests_jitter = _int("GROUNDVIEW_WEB_MAX_REQUESTS_JITTER", 200)
# Seconds an idle keep-alive connection (from a proxy in front) stays open; gthread parks it in
# its poller, so it holds no thread.
keepalive = 5
# gunicorn 24+ opens a control socket under $HOME by default: two servers on one host would share
# its path, the image's user cannot write its home, and nothing here uses gunicornc.
control_socket_disable = True
