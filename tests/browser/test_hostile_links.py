"""In Chromium: hostile reference uris are no links, and the pages run under the CSP without a
single violation (so nothing the pages need was inline)."""

import pytest

from tests.factories import create_answer, document_reference

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOSTILE = "javascript:window.pwned=true;alert(1)"


def watch_csp(page):
    violations = []
    page.on(
        "console",
        lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    return violations


def test_hostile_reference_is_no_link_and_pages_keep_the_policy(live_server, page, reviewer):
    answer = create_answer(
        "Paris is the capital of France.",
        references=[document_reference("Paris", ["Paris is the capital of France."])],
    )
    answer.references.update(uri=HOSTILE)
    violations = watch_csp(page)

    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "rita")
    page.fill("#id_password", "pw-rita-123")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")

    response = page.goto(f"{live_server.url}/answers/{answer.pk}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    not_web = page.evaluate(
        "[...document.querySelectorAll('a[href]')]"
        ".filter(a => !['http:', 'https:'].includes(a.protocol)).map(a => a.href)"
    )
    assert not_web == []
    page.click("#references .ref-title")
    page.wait_for_timeout(200)
    assert page.evaluate("window.pwned === undefined")
    # The page's own script still works under the policy: j selects the first claim.
    page.keyboard.press("j")
    page.wait_for_timeout(200)

    page.goto(f"{live_server.url}/agreement/")
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .info", timeout=15000)
    assert not page.errors
    assert violations == []
