"""Check Grounding over real HTTP on a live server, fuzzed with Hypothesis beyond what the schema
says (issue 13 item 7): well-typed but hostile bodies (any Unicode, out-of-range values, bad label
keys) get 200 or a 400 naming the field, ill-typed ones a 400 naming the field they broke, and raw
bytes a 4xx: never a 500. The real engine answers; the model loads on the first valid request."""

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.live_http import CONTENT_TYPES, RAW_BODIES, post_bytes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.model]

PATH = "/v1/projects/p/locations/global/groundingConfigs/default_grounding_config:check"
FUZZ = settings(
    max_examples=25,
    deadline=None,
    # One live server and one token for every example; each example is a fresh request.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Text the engine must survive: emoji (with ZWJ and flags), CJK, combining marks, RTL and
# zero-width controls, line and paragraph separators, NUL, and anything else but lone surrogates
# (which JSON can carry but test_check_grounding_hostile covers).
PIECES = st.sampled_from(
    [
        "👩‍👩‍👧",
        "🇫🇷",
        "巴黎是法国的首都。",
        "e\u0301\u0301",
        "\u202e",
        "\u200b",
        "\u2028",
        "\x00",
        ". ",
        "?!",
    ]
)
TEXT = st.lists(
    st.one_of(PIECES, st.text(st.characters(exclude_categories=["Cs"]), max_size=40)),
    max_size=6,
).map("".join)
LABEL_KEY = st.from_regex(r"[a-zé][a-z0-9_-]{0,10}", fullmatch=True)
THRESHOLD = st.one_of(
    st.floats(-1, 2, allow_nan=False), st.integers(-5, 5), st.sampled_from(["0.7", " 1 ", "abc"])
)
FACT = st.fixed_dictionaries(
    {"factText": TEXT},
    optional={"attributes": st.dictionaries(TEXT, TEXT, max_size=3)},
)
WELL_TYPED = st.fixed_dictionaries(
    {"answerCandidate": TEXT},
    optional={
        "facts": st.lists(FACT, max_size=4),
        "groundingSpec": st.fixed_dictionaries(
            {}, optional={"citationThreshold": THRESHOLD, "enableClaimLevelScore": st.booleans()}
        ),
        "userLabels": st.dictionaries(st.one_of(LABEL_KEY, TEXT), TEXT, max_size=3),
    },
)
WRONG = st.one_of(
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.booleans(),
    st.lists(st.integers(0, 9), max_size=2),
    st.dictionaries(st.sampled_from(["x", "y"]), st.integers(0, 9), max_size=2),
)
NOT_A_STRING = WRONG.filter(lambda v: not isinstance(v, str))
# Integers within 20 digits: longer ones are refused while parsing, before any field is known
# (test_check_grounding_hostile.py).
INT = st.integers(-(10**12), 10**12)
NOT_AN_OBJECT = st.one_of(INT, st.booleans(), st.lists(INT, max_size=2), TEXT)
NOT_AN_ARRAY = st.one_of(INT, st.booleans(), TEXT, st.dictionaries(TEXT, TEXT, max_size=2))

# (field path, what to put there): each breaks exactly that field's type.
BREAKS = st.one_of(
    st.tuples(st.just("answerCandidate"), NOT_A_STRING),
    st.tuples(st.just("facts"), NOT_AN_ARRAY),
    st.tuples(st.just("facts[0]"), NOT_AN_OBJECT),
    st.tuples(st.just("facts[0].factText"), NOT_A_STRING),
    st.tuples(st.just("facts[0].attributes"), NOT_AN_OBJECT.filter(lambda v: v != "")),
    st.tuples(st.just("facts[0].attributes.src"), NOT_A_STRING),
    st.tuples(st.just("groundingSpec"), NOT_AN_OBJECT),
    st.tuples(
        st.just("groundingSpec.citationThreshold"),
        st.one_of(st.booleans(), st.lists(INT, max_size=2), st.just({"v": 1})),
    ),
    st.tuples(
        st.just("groundingSpec.enableClaimLevelScore"),
        NOT_A_STRING.filter(lambda v: not isinstance(v, bool)),
    ),
    st.tuples(st.just("userLabels"), st.one_of(INT, st.booleans(), st.lists(TEXT, max_size=2))),
    st.tuples(st.just("userLabels.team"), NOT_A_STRING),
)


def valid_body():
    return {
        "answerCandidate": "Paris is the capital of France. 🇫🇷",
        "facts": [{"factText": "Paris is the capital of France.", "attributes": {"src": "wiki"}}],
        "groundingSpec": {"citationThreshold": 0.6, "enableClaimLevelScore": True},
        "userLabels": {"team": "search"},
    }


def broken(path: str, value):
    """valid_body() with the field at `path` ("facts[0].attributes.src") replaced by value."""
    body = valid_body()
    parts = path.replace("[0]", ".0").split(".")
    parent = body
    for part in parts[:-1]:
        parent = parent[int(part)] if part.isdigit() else parent[part]
    last = parts[-1]
    if last.isdigit():
        parent[int(last)] = value
    else:
        parent[last] = value
    return body


@pytest.fixture
def post(live_server, reviewer_token, settings):
    # Hundreds of requests from one user: the per-user rate is not what this is about.
    settings.GROUNDVIEW_THROTTLE_RATES = {"anon": None, "user": None, "check_grounding": None}

    def send(data: bytes, content_type: str = "application/json") -> tuple[int, dict | bytes]:
        return post_bytes(live_server.url + PATH, reviewer_token, data, content_type)

    return send


def google_error(status, body) -> str:
    assert isinstance(body, dict), (status, body)
    assert set(body) == {"error"} and body["error"]["code"] == status, body
    return body["error"]["message"]


def test_the_valid_body_is_checked(post):
    status, body = post(json.dumps(valid_body()).encode())

    assert status == 200, body
    assert body["claims"][0]["claimText"].startswith("Paris is the capital of France.")


@FUZZ
@given(payload=WELL_TYPED)
def test_well_typed_bodies_are_checked_or_refused_with_the_field_named(post, payload):
    status, body = post(json.dumps(payload, ensure_ascii=False).encode())

    assert status in (200, 400), (status, body, payload)
    event(f"HTTP {status}")
    if status == 400:
        message = google_error(status, body)
        assert body["error"]["status"] == "INVALID_ARGUMENT"
        field = message.split(":")[0]
        assert field.split(".")[0].split("[")[0] in payload, (message, payload)
        return
    answer = payload["answerCandidate"].encode()
    assert 0 <= body["supportScore"] <= 1
    for claim in body.get("claims", []):
        start, end = claim.get("startPos", 0), claim["endPos"]
        assert 0 <= start <= end <= len(answer)
        assert answer[start:end].decode() == claim["claimText"]


@FUZZ
@given(change=BREAKS)
def test_ill_typed_bodies_are_400_naming_the_field(post, change):
    path, value = change

    status, body = post(json.dumps(broken(path, value), ensure_ascii=False).encode())

    assert status == 400, (status, body, path, value)
    message = google_error(status, body)
    assert body["error"]["status"] == "INVALID_ARGUMENT"
    assert message.startswith(f"{path}:") or message.startswith(f"{path}."), (message, path)


@FUZZ
@given(data=RAW_BODIES, content_type=CONTENT_TYPES)
def test_raw_bytes_are_never_a_server_error(post, data, content_type):
    status, body = post(data, content_type)

    assert 400 <= status < 500, (status, body, data)
