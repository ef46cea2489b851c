"""Saving a label (POST /api/labels) over real HTTP on a live server, fuzzed with Hypothesis
(issue 13 item 7): hostile but well-typed labels are saved exactly as sent or refused with a 400
naming the field, ill-typed ones get a 400 naming the field they broke, raw bytes a 4xx; never a
500, and a refused label leaves what is stored untouched."""

import json
import re

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from groundview.answers.importing import import_text
from groundview.answers.models import Answer
from groundview.review.models import AnswerLabel, ClaimLabel, Verdict
from tests.live_http import CONTENT_TYPES, RAW_BODIES, post_bytes

pytestmark = pytest.mark.django_db(transaction=True)

FUZZ = settings(
    max_examples=25,
    deadline=None,
    # One live server, answer and token for every example; each example is a fresh request.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
NAME = "projects/p/locations/global/collections/c/engines/e/sessions/s/answers/fuzz"
# Flags, CJK and a combining accent: most byte offsets inside them are not character boundaries.
TEXT_OF_ANSWER = "Paris is the capital of France. 🇫🇷 巴黎是法国的首都。 Cafe\u0301 de Flore."
SIZE = len(TEXT_OF_ANSWER.encode())

PIECES = st.sampled_from(["👩‍👩‍👧", "巴黎", "e\u0301", "\u202e", "\u2028", "\x00", "<script>", "'"])
TEXT = st.lists(
    st.one_of(PIECES, st.text(st.characters(exclude_categories=["Cs"]), max_size=20)), max_size=4
).map("".join)
# Valid values drawn more often than not, so that a fair share of labels is saved.
VALID_VERDICT = st.sampled_from(Verdict.values)
VERDICT = st.one_of(VALID_VERDICT, VALID_VERDICT, TEXT)
BOUNDARIES = sorted({len(TEXT_OF_ANSWER[:i].encode()) for i in range(len(TEXT_OF_ANSWER) + 1)})
OFFSET = st.one_of(
    st.sampled_from(BOUNDARIES),
    st.sampled_from(BOUNDARIES),
    st.integers(0, SIZE + 2),
    st.integers(-3, 2**64),
)
CLAIM = st.fixed_dictionaries(
    {"start_index": OFFSET, "end_index": OFFSET, "verdict": VERDICT},
    optional={
        "corrected_citations": st.lists(
            st.one_of(st.sampled_from(["0", "0:0", "1", "0:7", "2:"]), TEXT), max_size=2
        ),
        "note": TEXT,
    },
)
INT = st.integers(-(10**12), 10**12)
NOT_A_NUMBER = st.one_of(
    st.booleans(), TEXT.filter(lambda t: not re.fullmatch(r"\s*-?\d+(\.0*)?\s*", t))
)
NOT_TEXT = st.one_of(
    st.booleans(), st.lists(INT, max_size=2), st.dictionaries(TEXT, INT, max_size=2)
)
NOT_A_LIST = st.one_of(INT, TEXT, st.dictionaries(TEXT, INT, max_size=2))

# (field path, what to put there) in valid_label(): each breaks exactly that field's type.
BREAKS = st.one_of(
    st.tuples(st.just("answer"), st.one_of(NOT_A_NUMBER, NOT_TEXT)),
    st.tuples(st.just("verdict"), st.one_of(NOT_TEXT, INT)),
    st.tuples(st.just("note"), NOT_TEXT),
    st.tuples(st.just("claims"), NOT_A_LIST),
    st.tuples(st.just("claims[0]"), st.one_of(INT, TEXT, st.lists(INT, max_size=2))),
    st.tuples(st.just("claims[0].start_index"), st.one_of(NOT_A_NUMBER, NOT_TEXT)),
    st.tuples(st.just("claims[0].end_index"), st.one_of(NOT_A_NUMBER, NOT_TEXT)),
    st.tuples(st.just("claims[0].verdict"), st.one_of(NOT_TEXT, INT)),
    st.tuples(st.just("claims[0].note"), NOT_TEXT),
    st.tuples(st.just("claims[0].corrected_citations"), NOT_A_LIST),
    st.tuples(st.just("claims[0].corrected_citations[0]"), NOT_TEXT),
)


@pytest.fixture
def answer_id():
    document = {
        "name": NAME,
        "state": "SUCCEEDED",
        "answerText": TEXT_OF_ANSWER,
        "references": [
            {
                "unstructuredDocumentInfo": {
                    "document": "projects/p/documents/d1",
                    "title": "Paris",
                    "chunkContents": [{"content": "Paris is the capital of France."}],
                }
            }
        ],
    }
    assert not import_text(json.dumps(document, ensure_ascii=False)).problems
    return Answer.objects.get(name=NAME).pk


@pytest.fixture
def post(live_server, reviewer, settings):
    from groundview.api.models import ApiToken

    settings.GROUNDVIEW_THROTTLE_RATES = {"anon": None, "user": None, "check_grounding": None}
    _, token = ApiToken.issue(reviewer, "fuzz")

    def send(data: bytes, content_type: str = "application/json"):
        return post_bytes(live_server.url + "/api/labels", token, data, content_type)

    return send


def valid_label(answer_id):
    return {
        "answer": answer_id,
        "verdict": "partially_supported",
        "note": "the 🇫🇷 part is fine",
        "claims": [
            {
                "start_index": 0,
                "end_index": 31,
                "verdict": "supported",
                "corrected_citations": ["0"],
                "note": "",
            }
        ],
    }


def broken(body: dict, path: str, value) -> dict:
    parts = re.sub(r"\[(\d+)\]", r".\1", path).split(".")
    parent = body
    for part in parts[:-1]:
        parent = parent[int(part)] if part.isdigit() else parent[part]
    last = parts[-1]
    parent[int(last) if last.isdigit() else last] = value
    return body


def error_paths(detail, prefix=""):
    """DRF's error body as field paths: {"claims": [{}, {"note": [...]}]} -> ["claims[1].note"]."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            key = str(key)
            if key == "non_field_errors":
                path = prefix  # about the object at prefix itself
            elif key.isdigit():
                path = f"{prefix}[{key}]"
            else:
                path = f"{prefix}.{key}" if prefix else key
            yield from error_paths(value, path)
    elif isinstance(detail, list) and detail and all(isinstance(item, str) for item in detail):
        yield prefix
    elif isinstance(detail, list):
        for index, item in enumerate(detail):
            if item:
                yield from error_paths(item, f"{prefix}[{index}]")


def stored():
    return (
        list(
            AnswerLabel.objects.order_by("pk").values_list(
                "pk", "answer_id", "reviewer_id", "verdict", "note", "updated_at"
            )
        ),
        list(
            ClaimLabel.objects.order_by("pk").values_list(
                "pk",
                "label_id",
                "start_index",
                "end_index",
                "verdict",
                "note",
                "corrected_citations",
            )
        ),
    )


@pytest.fixture
def labelled(answer_id, post):
    """The reviewer's label already saved: a refused request must leave it as it is."""
    status, body = post(json.dumps(valid_label(answer_id)).encode())
    assert status == 201, body
    return answer_id


@FUZZ
@given(
    data=st.data(),
    verdict=VERDICT,
    note=TEXT,
    claims=st.lists(CLAIM, max_size=3),
)
def test_well_typed_labels_are_saved_as_sent_or_refused_naming_the_field(
    post, labelled, reviewer, data, verdict, note, claims
):
    answer = data.draw(
        st.one_of(
            st.just(labelled),
            st.just(labelled),
            st.just(labelled),
            st.integers(1, 2**63 - 1),
            st.integers(2**63, 2**70),
        ),
        label="answer",
    )
    payload = {"answer": answer, "verdict": verdict, "note": note, "claims": claims}
    before = stored()

    status, body = post(json.dumps(payload, ensure_ascii=False).encode())

    assert status in (200, 400), (status, body, payload)
    event(f"HTTP {status}")
    if status == 400:
        paths = list(error_paths(body))
        assert paths and all(re.split(r"[.\[]", p)[0] in payload for p in paths), (body, payload)
        assert stored() == before
        return
    # Saved as sent, except that text fields lose surrounding whitespace (DRF's CharField trims,
    # as the review page's form does).
    label = AnswerLabel.objects.get(answer_id=labelled, reviewer=reviewer)
    assert (label.verdict, label.note) == (verdict, note.strip())
    saved = [
        (c.start_index, c.end_index, c.verdict, c.corrected_citations, c.note, c.claim_text)
        for c in label.claims.order_by("pk")
    ]
    text = TEXT_OF_ANSWER.encode()
    assert saved == [
        (
            c["start_index"],
            c["end_index"],
            c["verdict"],
            [citation.strip() for citation in c.get("corrected_citations", [])],
            c.get("note", "").strip(),
            text[c["start_index"] : c["end_index"]].decode(),
        )
        for c in claims
    ]


@FUZZ
@given(change=BREAKS)
def test_ill_typed_labels_are_400_naming_the_field_and_change_nothing(post, labelled, change):
    path, value = change
    before = stored()

    status, body = post(json.dumps(broken(valid_label(labelled), path, value)).encode())

    assert status == 400, (status, body, path, value)
    assert path in list(error_paths(body)), (body, path, value)
    assert stored() == before


@FUZZ
@given(data=RAW_BODIES, content_type=CONTENT_TYPES)
def test_raw_bytes_are_a_4xx_and_change_nothing(post, labelled, data, content_type):
    before = stored()

    status, body = post(data, content_type)

    assert 400 <= status < 500, (status, body, data)
    assert stored() == before
