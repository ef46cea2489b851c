from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "groundview.review"
    verbose_name = "Review"
