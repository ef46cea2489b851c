"""Hostile output: reference uris from other systems never become live non-web links, and every
page carries a Content-Security-Policy that allows no inline script."""

import re

import pytest
from django.urls import reverse

from groundview.review.templatetags.safe_links import is_web_uri
from tests.factories import create_answer, create_check_run, document_reference, span_of

TEXT = "Paris is the capital of France. It is old."
HOSTILE = [
    "javascript:alert(document.cookie)",
    "JaVaScRiPt:alert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)",
    "java\tscript:alert(2)",
    " javascript:alert(3)",
]


@pytest.fixture
def hostile(db):
    answer = create_answer(
        TEXT,
        references=[document_reference("Paris - Wikipedia", ["Paris is the capital of France."])],
        steps=[
            {
                "description": "search",
                "actions": [
                    {
                        "searchAction": {"query": "paris"},
                        "observation": {
                            "searchResults": [
                                {"title": f"Result {i}", "uri": uri}
                                for i, uri in enumerate(HOSTILE)
                            ]
                            + [{"title": "Safe result", "uri": "https://example.org/ok"}]
                        },
                    }
                ],
            }
        ],
    )
    # The importer stores any uri string as given; make the reference itself hostile too.
    answer.references.update(uri="javascript:alert('ref')")
    start, end = span_of(TEXT, "Paris is the capital of France.")
    create_check_run(
        answer,
        [(start, end, 0.9, [0, 1])],
        facts=[
            {
                "factText": "Paris is the capital of France.",
                "attributes": {
                    "title": "Evil fact",
                    "uri": "data:text/html,<script>alert(4)</script>",
                },
            },
            {
                "factText": "France's capital is Paris.",
                "attributes": {"title": "Good fact", "uri": "https://example.org/fact"},
            },
        ],
    )
    return answer


def hrefs(html: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', html)


def test_only_web_uris_become_links(reviewer_client, hostile):
    response = reviewer_client.get(reverse("review:answer_detail", args=[hostile.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    links = hrefs(html)
    # On the old template every hostile uri above was a live href.
    for link in links:
        assert re.match(r"^(https?://|/|\?|#)", link), link
    assert "https://example.org/ok" in links
    assert "https://example.org/fact" in links
    # Shown as text with a note, and still escaped.
    assert html.count("(not a web link)") >= len(HOSTILE) + 2
    assert "<script>alert(4)" not in html
    assert "javascript:alert(&#x27;ref&#x27;)" in html


@pytest.mark.parametrize("uri", HOSTILE + ["", "/relative", "//evil.example/x", "https:///nohost"])
def test_is_web_uri_refuses_non_web(uri):
    assert not is_web_uri(uri)


@pytest.mark.parametrize("uri", ["https://example.org/a?b=c#d", "HTTP://EXAMPLE.ORG"])
def test_is_web_uri_accepts_http_and_https(uri):
    assert is_web_uri(uri)


def test_pages_carry_security_headers_and_no_inline_script(reviewer_client, hostile):
    pages = [
        reverse("review:answer_list"),
        reverse("review:answer_detail", args=[hostile.pk]),
        reverse("review:agreement"),
        "/api/docs/",
    ]
    for url in pages:
        response = reviewer_client.get(url)
        assert response.status_code == 200, url
        policy = response["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["script-src"] == "'self'", url
        assert directives["style-src"] == "'self'", url
        assert directives["frame-ancestors"] == "'none'", url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"
        assert response["X-Frame-Options"] == "DENY"
        html = response.content.decode()
        scripts = re.findall(r"<script\b[^>]*>", html, flags=re.IGNORECASE)
        assert scripts, url
        for tag in scripts:
            assert " src=" in tag, (url, tag)
        assert not re.search(r"<style\b", html, flags=re.IGNORECASE), url
        assert not re.search(r"\sstyle=", html, flags=re.IGNORECASE), url
        assert not re.search(r"\son[a-z]+=", html, flags=re.IGNORECASE), url


def test_login_page_has_the_policy_too(client):
    response = client.get(reverse("login"))
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_swagger_start_up_script_is_served_as_a_file(reviewer_client):
    response = reviewer_client.get("/api/docs/?script=")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in response.content.decode()
