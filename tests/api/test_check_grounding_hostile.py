"""Check Grounding under pressure (issue 13, item 3): every hostile body is a 4xx in Google's error
shape, never a 500, and only GROUNDVIEW_MAX_CONCURRENT_CHECKS checks run the engine at once."""

import io
import json
import socket
import threading
import time
from urllib.parse import urlsplit

import pytest

from groundview.api.check_guards import MAX_DEPTH, check_slot

from .test_vertex import CHECK, check

pytestmark = pytest.mark.django_db

OK = {"supportScore": 0.0, "citedChunks": [], "citedFacts": [], "claims": []}


class RecordingEngine:
    def __init__(self):
        self.payloads = []

    def check(self, payload):
        self.payloads.append(payload)
        return OK


@pytest.fixture
def fake_engine(monkeypatch):
    engine = RecordingEngine()
    monkeypatch.setattr("groundview.api.vertex.engine", lambda: engine)
    return engine


def nested(depth: int) -> str:
    # Under an unknown field: the only place a proto3 JSON reader lets any JSON through.
    return '{"answerCandidate": "x", "extra": ' + "[" * depth + "]" * depth + "}"


HOSTILE = {
    "10,000-deep array": "[" * 10_000 + "]" * 10_000,
    "10,000-deep object": '{"a": ' * 10_000 + "1" + "}" * 10_000,
    f"{MAX_DEPTH + 1} levels": nested(MAX_DEPTH),
    "5,000-digit integer": '{"answerCandidate": "x", "groundingSpec": {"citationThreshold": '
    + "9" * 5_000
    + "}}",
    "30-digit integer in a fact": '{"answerCandidate": "x", "facts": [{"factText": "y", '
    '"attributes": {"n": ' + "1" * 30 + "}}]}",
    "NaN": '{"answerCandidate": "x", "groundingSpec": {"citationThreshold": NaN}}',
    "NaN in attributes": '{"answerCandidate": "x", "facts": [{"factText": "y", '
    '"attributes": {"a": NaN}}]}',
    "Infinity": '{"answerCandidate": "x", "groundingSpec": {"citationThreshold": Infinity}}',
    "-Infinity": '{"answerCandidate": "x", "groundingSpec": {"citationThreshold": -Infinity}}',
    "1e400": '{"answerCandidate": "x", "groundingSpec": {"citationThreshold": 1e400}}',
    "lone surrogate in the answer": '{"answerCandidate": "a\\ud800b"}',
    "lone low surrogate in a fact": '{"answerCandidate": "x", "facts": [{"factText": "\\udfff"}]}',
    "lone surrogate in a key": '{"answerCandidate": "x", "facts": [{"factText": "y", '
    '"attributes": {"\\ud800": "v"}}]}',
    "lone surrogate in a label": '{"answerCandidate": "x", "userLabels": {"k": "\\ud800"}}',
    "empty body": "",
    "whitespace only": "  \n ",
}


def assert_google_400(response):
    assert response.status_code == 400, response.content
    assert response.json() == {
        "error": {
            "code": 400,
            "message": response.json()["error"]["message"],
            "status": "INVALID_ARGUMENT",
        }
    }
    return response.json()["error"]["message"]


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_bodies_are_400_in_googles_shape(reviewer_client, fake_engine, name):
    reviewer_client.raise_request_exception = False

    message = assert_google_400(check(reviewer_client, HOSTILE[name]))

    assert message.startswith("Invalid JSON payload received.")
    assert fake_engine.payloads == []


def test_a_number_no_field_can_hold_is_named_by_its_field(reviewer_client, fake_engine):
    body = '{"answerCandidate": "x", "groundingSpec": {"citationThreshold": 1e400}}'
    big = '{"answerCandidate": "x", "facts": [{"factText": "y", "n": ' + "9" * 30 + "}]}"

    assert assert_google_400(check(reviewer_client, body)) == (
        "Invalid JSON payload received. 'groundingSpec.citationThreshold': 1e400 is out of range."
    )
    assert "'facts[0].n': 999999999999…(30 chars) has more than 20 digits" in assert_google_400(
        check(reviewer_client, big)
    )


def test_the_messages_say_what_is_wrong(reviewer_client, fake_engine):
    assert f"nested deeper than {MAX_DEPTH}" in assert_google_400(
        check(reviewer_client, HOSTILE["10,000-deep array"])
    )
    assert "more than 20 digits" in assert_google_400(
        check(reviewer_client, HOSTILE["5,000-digit integer"])
    )
    assert "NaN" in assert_google_400(check(reviewer_client, HOSTILE["NaN"]))
    assert "out of range" in assert_google_400(check(reviewer_client, HOSTILE["1e400"]))
    assert "facts[0].factText" in assert_google_400(
        check(reviewer_client, HOSTILE["lone low surrogate in a fact"])
    )


def test_what_is_allowed_still_reaches_the_engine(reviewer_client, fake_engine):
    body = (
        '{"answerCandidate": "Fran\\u00e7e \\ud83c\\uddeb\\ud83c\\uddf7", '
        '"facts": [{"factText": "y", "attributes": {"a": "b"}}], '
        '"userLabels": {"k": "v"}, "groundingSpec": {"citationThreshold": 1}, '
        # Attribute values must be strings (proto3 map<string, string>); an unknown field is
        # where any JSON still passes, for the engine to refuse by name.
        '"extra": {"n": 12345678901234567890, "f": -1.5e300}}'
    )

    response = check(reviewer_client, body)
    deep = check(reviewer_client, nested(MAX_DEPTH - 1))

    assert response.status_code == 200, response.content
    assert deep.status_code == 200, deep.content  # MAX_DEPTH levels: the fake engine takes anything
    assert fake_engine.payloads[0]["answerCandidate"] == "Françe 🇫🇷"
    assert fake_engine.payloads[0]["extra"]["n"] == 12345678901234567890


@pytest.mark.parametrize(
    "content_type", ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]
)
def test_form_content_types_are_400(reviewer_client, fake_engine, content_type):
    response = reviewer_client.post(
        CHECK.format(version="v1"), data='{"answerCandidate": "x"}', content_type=content_type
    )

    assert "Content-Type" in assert_google_400(response)
    assert fake_engine.payloads == []


def test_a_chunked_body_decoded_by_the_server_is_read(reviewer_client, fake_engine):
    # gunicorn decodes chunked bodies and says so with wsgi.input_terminated; no Content-Length.
    body = json.dumps({"answerCandidate": "chunked"}).encode()

    response = reviewer_client.post(
        CHECK.format(version="v1"),
        data=body,
        content_type="application/json",
        CONTENT_LENGTH="",
        HTTP_TRANSFER_ENCODING="chunked",
        **{"wsgi.input": io.BytesIO(body), "wsgi.input_terminated": True},
    )

    assert response.status_code == 200, response.content
    assert fake_engine.payloads == [{"answerCandidate": "chunked"}]


def raw_post(live_server, token: str, head: str, body: bytes) -> tuple[int, bytes]:
    url = urlsplit(live_server.url)
    path = CHECK.format(version="v1")
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(
            (
                f"POST {path} HTTP/1.1\r\nHost: {url.netloc}\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Type: application/json\r\nConnection: close\r\n{head}\r\n"
            ).encode()
            + body
        )
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head_bytes, _, payload = data.partition(b"\r\n\r\n")
    return int(head_bytes.split()[1]), payload


@pytest.mark.django_db(transaction=True)
def test_a_chunked_body_the_server_passes_raw_is_411_in_googles_shape(
    live_server, reviewer_token, fake_engine
):
    # Django's development / live server hands the chunk framing through undecoded.
    body = b'{"answerCandidate": "x"}'
    chunked = f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"

    status, payload = raw_post(
        live_server, reviewer_token, "Transfer-Encoding: chunked\r\n", chunked
    )

    assert status == 411
    error = json.loads(payload)["error"]
    assert error["code"] == 411 and error["status"] == "FAILED_PRECONDITION"
    assert fake_engine.payloads == []


@pytest.mark.django_db(transaction=True)
def test_hostile_bodies_over_http_are_never_500(live_server, reviewer_token, fake_engine):
    for name in ("10,000-deep array", "5,000-digit integer", "NaN", "lone surrogate in the answer"):
        body = HOSTILE[name].encode()

        status, payload = raw_post(
            live_server, reviewer_token, f"Content-Length: {len(body)}\r\n", body
        )

        assert status == 400, (name, payload)
        assert json.loads(payload)["error"]["status"] == "INVALID_ARGUMENT"


def test_past_the_concurrent_checks_is_429_with_retry_after(reviewer_client, fake_engine, settings):
    settings.GROUNDVIEW_MAX_CONCURRENT_CHECKS = 1
    settings.GROUNDVIEW_CHECK_QUEUE_SECONDS = 0.05

    with check_slot():  # another request is running a check
        busy = check(reviewer_client, {"answerCandidate": "x"})
    free = check(reviewer_client, {"answerCandidate": "x"})

    assert busy.status_code == 429
    assert busy.json()["error"] == {
        "code": 429,
        "message": busy.json()["error"]["message"],
        "status": "RESOURCE_EXHAUSTED",
    }
    assert busy["Retry-After"] == "1"
    assert free.status_code == 200
    assert fake_engine.payloads == [{"answerCandidate": "x"}]


def test_the_slots_bound_the_checks_running_at_once(settings):
    settings.GROUNDVIEW_MAX_CONCURRENT_CHECKS = 2
    settings.GROUNDVIEW_CHECK_QUEUE_SECONDS = 5
    running, most, done, lock = [0], [0], [0], threading.Lock()

    def work():
        with check_slot():
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            time.sleep(0.05)
            with lock:
                running[0] -= 1
                done[0] += 1

    threads = [threading.Thread(target=work) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert most[0] <= 2 and done[0] == 6
