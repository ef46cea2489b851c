from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "groundview.api"
    verbose_name = "API"

    def ready(self) -> None:
        # Registers the Bearer token scheme with drf-spectacular.
        import groundview.api.openapi  # noqa: F401
