from django.apps import AppConfig


class AnswersConfig(AppConfig):
    name = "groundview.answers"
    verbose_name = "Answers"

    def ready(self) -> None:
        # Bind shared tasks to the project's Celery app (groundview/__init__.py stays empty).
        import groundview.celery  # noqa: F401
