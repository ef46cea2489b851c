"""Google's URL shapes at the root (see groundview.api.vertex). `:check` needs a regex path."""

from django.urls import re_path

from groundview.api import vertex

VERSION = r"(?P<version>v1|v1beta|v1alpha)"
SEGMENT = r"[^/]+"
COLLECTION = (
    rf"^{VERSION}/projects/(?P<project>{SEGMENT})/locations/(?P<location>{SEGMENT})"
    rf"/collections/(?P<collection>{SEGMENT})"
)
# Sessions live under an engine (apps) or a data store; the schema describes the engine shape.
SESSION = rf"{COLLECTION}/engines/(?P<engine>{SEGMENT})/sessions/(?P<session>{SEGMENT})"
DATA_STORE_SESSION = (
    rf"{COLLECTION}/dataStores/(?P<data_store>{SEGMENT})/sessions/(?P<session>{SEGMENT})"
)

urlpatterns = [
    re_path(
        rf"^{VERSION}/projects/(?P<project>{SEGMENT})/locations/(?P<location>{SEGMENT})"
        r"/groundingConfigs/(?P<config>[^/:]+):check$",
        vertex.CheckGroundingView.as_view(),
        name="vertex-check-grounding",
    ),
    re_path(
        rf"{SESSION}/answers/(?P<answer>{SEGMENT})$",
        vertex.AnswerGetView.as_view(),
        name="vertex-answer",
    ),
    re_path(rf"{SESSION}$", vertex.SessionGetView.as_view(), name="vertex-session"),
    re_path(
        rf"{DATA_STORE_SESSION}/answers/(?P<answer>{SEGMENT})$", vertex.AnswerGetView.as_view()
    ),
    re_path(rf"{DATA_STORE_SESSION}$", vertex.SessionGetView.as_view()),
    re_path(rf"^{VERSION}/", vertex.UnknownRouteView.as_view()),
]
