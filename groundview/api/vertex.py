"""Routes with Google's URL shapes and JSON, so Vertex AI Search clients can point at groundview.

- `POST /{v1,v1beta,v1alpha}/projects/*/locations/*/groundingConfigs/*:check` (Check Grounding)
- `GET .../collections/*/engines/*/sessions/*/answers/*` (answers.get): the stored document in its REST form
  (also under `dataStores/*` instead of `engines/*`)
- `GET .../collections/*/engines/*/sessions/*` (sessions.get): the stored Session document; for a
  session only implied by its answers' names, `{name, turns: [{query: {text}, answer}]}` built from them.

Errors use Google's body: `{"error": {"code": 400, "message": "...", "status": "INVALID_ARGUMENT"}}`.
"""

from __future__ import annotations

import logging

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from groundview.answers import checks
from groundview.answers.formats import protojson
from groundview.answers.models import Answer, Session
from groundview.api.base import NulSafeMixin
from groundview.api.check_guards import BodyError, check_slot, parse_check_body
from groundview.api.errors import GOOGLE_STATUS, google_error
from groundview.api.serializers import (
    CheckGroundingResponseSerializer,
    CheckGroundingSerializer,
    GoogleErrorSerializer,
)
from groundview.errors import FieldError
from groundview.grounding import ModelLoadError, RequestError

logger = logging.getLogger(__name__)

# Bigger than the largest valid request: 200 facts of 10,000 characters, each up to 12 bytes when
# a client escapes non-ASCII as JSON surrogate pairs (Python's json.dumps does by default).
CHECK_MAX_BYTES = 32 * 1024 * 1024

ERRORS = {
    code: OpenApiResponse(GoogleErrorSerializer, description=GOOGLE_STATUS[code])
    for code in (400, 401, 403, 404)
}


class GoogleView(NulSafeMixin, APIView):
    """Errors in Google's shape (see groundview.api.errors.exception_handler)."""

    google_errors = True

    def perform_content_negotiation(self, request, force=False):
        # Google's API answers JSON whatever the Accept header says.
        return super().perform_content_negotiation(request, force=True)


def engine():
    # The engine check runs use (GROUNDVIEW_CHECK_ENGINE included), so the route and the stored
    # runs score alike; it is cached per process, so the model loads on the first request only.
    return checks.get_engine()


def check_request(payload):
    """The request in the REST form the engine reads, from any proto3 JSON form of it.

    A proto3 JSON parser, Google's included, takes the .proto's snake_case names as well as
    lowerCamelCase, `null` for "not set", and doubles as numeric strings; the field table comes
    from Google's client library (answers/formats/prototables.py). A value of the wrong type is a
    FieldError naming the field as the client wrote it. Unknown fields pass through, so the engine
    answers them as Google does ("Unknown name ... Cannot find field").
    """
    if not isinstance(payload, dict):
        return payload  # the engine says what the body should have been
    return protojson.to_rest(payload, "CheckGroundingRequest")


def resource_name(request) -> str:
    """The resource name is the path after the version: "/v1/projects/..." -> "projects/...".

    Stored names are matched exactly, whether their parent is an engine or a data store.
    """
    return request.path_info.split("/", 2)[2]


class CheckGroundingView(GoogleView):
    # Each request runs the model: a tighter per-user rate than the rest of the API (settings).
    throttle_scope = "check_grounding"

    @extend_schema(
        tags=["vertex"],
        operation_id="groundingConfigs_check",
        summary="Check Grounding (Vertex AI Search compatible)",
        description=(
            "Same request and response JSON as Google's `groundingConfigs.check`; also served under "
            "/v1beta/ and /v1alpha/. Any proto3 JSON form is read: lowerCamelCase or snake_case "
            "field names, `null` for a field not set, `citationThreshold` as a number or a "
            "numeric string. "
            "Limits: at most 200 facts of 10,000 characters (Vertex's; the server's "
            "GROUNDING_MAX_FACTS and GROUNDING_MAX_FACT_CHARS may change them, within 2,000,000 "
            "characters in all), an answer of at most 4096 tokens and 40,960 characters, at most "
            "64 user labels. "
            "Violations are 400 INVALID_ARGUMENT naming the field."
        ),
        request=CheckGroundingSerializer,
        responses={200: CheckGroundingResponseSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "request",
                request_only=True,
                value={
                    "answerCandidate": "Titanic was directed by James Cameron. It was released in 1997.",
                    "facts": [
                        {
                            "factText": "Titanic is a 1997 film directed by James Cameron.",
                            "attributes": {"author": "Wikipedia"},
                        }
                    ],
                    "groundingSpec": {"citationThreshold": "0.6", "enableClaimLevelScore": True},
                },
            )
        ],
    )
    def post(self, request, version, project, location, config):
        try:
            payload = check_request(parse_check_body(request, CHECK_MAX_BYTES))
            with check_slot():
                return Response(engine().check(payload))
        except BodyError as error:
            return Response(error.body(), status=error.status, headers=error.headers)
        except RequestError as error:
            return Response(error.to_json(), status=400)
        except FieldError as error:
            return Response(google_error(400, str(error)), status=400)
        except ModelLoadError as error:
            return Response(
                google_error(503, f"The grounding model is not available: {error}"), 503
            )
        except Exception:
            # An engine bug, not the client's fault: log it, and answer in Google's shape anyway.
            logger.exception("Check Grounding failed")
            return Response(google_error(500, "Internal error while checking grounding."), 500)


class AnswerGetView(GoogleView):
    @extend_schema(
        tags=["vertex"],
        operation_id="sessions_answers_get",
        summary="Get an answer (Vertex AI Search answers.get)",
        description="Returns the stored Answer in Vertex's REST form. Also under /v1beta/ and /v1alpha/.",
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def get(self, request, **kwargs):
        name = resource_name(request)
        document = Answer.objects.filter(name=name).values_list("raw", flat=True).first()
        if document is None:
            raise NotFound(f'Answer "{name}" not found.')
        return Response(document)


class SessionGetView(GoogleView):
    @extend_schema(
        tags=["vertex"],
        operation_id="sessions_get",
        summary="Get a session (Vertex AI Search sessions.get)",
        description=(
            "Returns the stored Session document. A session known only from its answers' names is "
            "returned as `{name, turns: [{query: {text}, answer}]}` built from those answers."
        ),
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def get(self, request, **kwargs):
        name = resource_name(request)
        row = Session.objects.filter(name=name).first()
        if row is None:
            raise NotFound(f'Session "{name}" not found.')
        if row.raw is not None:
            return Response(row.raw)
        turns = []
        for answer_name, query in row.answers.order_by("create_time", "id").values_list(
            "name", "query_text"
        ):
            turn: dict = {"answer": answer_name}
            if query:
                turn["query"] = {"text": query}
            turns.append(turn)
        return Response({"name": name, "turns": turns})


class UnknownRouteView(GoogleView):
    """Google-style 404 for any other path under /v1*/, after authentication like every route."""

    schema = None

    def http_method_not_allowed(self, request, *args, **kwargs):
        raise NotFound(f"The requested URL {request.path} was not found on this server.")
