from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "groundview.api"
    verbose_name = "API"
