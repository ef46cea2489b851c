from django.apps import AppConfig


class AnswersConfig(AppConfig):
    name = "groundview.answers"
    verbose_name = "Answers"

    def ready(self) -> None:
        from celery.signals import worker_process_init, worker_ready, worker_shutdown

        # Bind shared tasks to the project's Celery app (groundview/__init__.py stays empty).
        import groundview.celery  # noqa: F401

        # Registers the tasks by name in every process: checks/queueing.py sends them by name.
        from groundview.answers import tasks, worker  # noqa: F401

        worker_process_init.connect(worker.warm_engine, dispatch_uid="answers.warm_engine")
        worker_ready.connect(worker.start_sweeper, dispatch_uid="answers.start_sweeper")
        worker_shutdown.connect(worker.stop_sweeper, dispatch_uid="answers.stop_sweeper")
