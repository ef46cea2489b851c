import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "groundview.settings")

app = Celery("groundview")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Loading the models in a new worker process (groundview/answers/worker.py) takes longer than
# Celery's default 4 s wait for the process to report in.
app.conf.worker_proc_alive_timeout = float(
    os.environ.get("CELERY_WORKER_PROC_ALIVE_TIMEOUT", "120")
)
app.autodiscover_tasks()
