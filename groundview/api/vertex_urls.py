"""Google's URL shapes at the root (see groundview.api.vertex). `:check` needs a regex path."""

from django.urls import re_path

from groundview.api import vertex

VERSION = r"(?P<version>v1|v1beta|v1alpha)"
SEGMENT = r"[^/]+"
LOCATION = rf"^{VERSION}/projects/(?P<project>{SEGMENT})/locations/(?P<location>{SEGMENT})"
COLLECTION = rf"{LOCATION}/collections/(?P<collection>{SEGMENT})"
# Sessions live under an engine (apps) or a data store, and a data store may be named with or
# without its collection: the client library's GetAnswer and GetSession take all three.
SESSION = rf"{COLLECTION}/engines/(?P<engine>{SEGMENT})/sessions/(?P<session>{SEGMENT})"
DATA_STORE = rf"(?:/collections/(?P<collection>{SEGMENT}))?/dataStores/(?P<data_store>{SEGMENT})"
DATA_STORE_SESSION = rf"{LOCATION}{DATA_STORE}/sessions/(?P<session>{SEGMENT})"

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
