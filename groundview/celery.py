import logging
import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "groundview.settings")

app = Celery("groundview")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Loading the models in a new worker process (below) takes longer than Celery's default 4 s wait
# for the process to report in.
app.conf.worker_proc_alive_timeout = float(
    os.environ.get("CELERY_WORKER_PROC_ALIVE_TIMEOUT", "120")
)
app.autodiscover_tasks()


@worker_process_init.connect
def warm_engine(**kwargs):
    # Once per worker process, before its first task (prefork pool; other pools load lazily).
    from groundview.answers import checks

    try:
        checks.warm_engine()
    except Exception:
        # Keep the process: its tasks then fail their runs with this error, visibly, instead of
        # Celery restarting a process that can never start.
        logging.getLogger(__name__).exception("cannot load the grounding engine")
