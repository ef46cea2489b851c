"""Admin pages (issue 14 item 8): claim verdicts side by side on the answer, documents indented
and escaped, and list filters that narrow what they say."""

import html
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from groundview.answers.models import Answer, CheckRun, Session
from groundview.review.models import Adjudication, AnswerLabel, ClaimLabel
from tests.factories import create_answer, create_label, document_reference, span_of

pytestmark = pytest.mark.django_db

SESSION = "projects/p/locations/global/collections/c/engines/e/sessions/s1"
HOSTILE = '<img src=x onerror="alert(1)">'
# A claim with an emoji, a CJK sentence and a combining accent: byte spans, not characters.
TEXT = f"Paris is the capital 🇫🇷. 巴黎是首都。 Cafe\u0301 {HOSTILE} is nice."


SOURCE = document_reference(f"Title {HOSTILE}", ["Paris is the capital of France."], document="d1")


@pytest.fixture
def client(client, admin_user, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    client.force_login(admin_user)
    return client


@pytest.fixture
def labelled(reviewer, django_user_model, admin_user):
    """One answer two reviewers labelled, disagreeing on the CJK claim, which an admin settled."""
    answer = create_answer(TEXT, answer_id="labelled", references=[SOURCE], groundingScore=0.4)
    other = django_user_model.objects.create_user(username="otto", password="x")
    verdicts = {
        reviewer: {"Paris is the capital 🇫🇷.": "supported", "巴黎是首都。": "supported"},
        other: {"Paris is the capital 🇫🇷.": "supported", "巴黎是首都。": "contradicted"},
    }
    for who, claims in verdicts.items():
        create_label(answer, who, claims=claims, claim_note=f"note {HOSTILE}")
    start, end = span_of(TEXT, f"Cafe\u0301 {HOSTILE} is nice.")
    ClaimLabel.objects.create(
        label=AnswerLabel.objects.get(reviewer=other),
        start_index=start,
        end_index=end,
        claim_text=f"Cafe\u0301 {HOSTILE} is nice.",
        verdict="unsupported",
    )
    start, end = span_of(TEXT, "巴黎是首都。")
    Adjudication.objects.create(
        answer=answer,
        start_index=start,
        end_index=end,
        claim_text="巴黎是首都。",
        verdict="supported",
        adjudicator=admin_user,
    )
    return answer


def test_answer_page_shows_each_reviewers_claim_verdicts_side_by_side(client, labelled):
    response = client.get(reverse("admin:answers_answer_change", args=[labelled.pk]))

    assert response.status_code == 200
    page = response.content.decode()
    table = page[page.index('<table class="gv-claim-verdicts">') :]
    table = table[: table.index("</table>")]
    rows = table.split("<tr")[2:]  # after the header row
    assert len(rows) == 3
    # Rows follow the text, by byte offset: the flag's 8 bytes come before the CJK claim.
    first, cjk, cafe = rows
    assert "Paris is the capital 🇫🇷." in first and first.count("Supported") == 2
    assert "agree" in first and "gv-differ" not in first
    assert "巴黎是首都。" in cjk and "Contradicted" in cjk and "differ" in cjk
    start, end = span_of(TEXT, "巴黎是首都。")
    assert f"[{start}, {end})" in cjk
    assert "Supported <span" in cjk and "(ada)" in cjk  # settled by the admin
    # A reviewer who gave no verdict on a claim shows a dash, not someone else's verdict.
    assert "Unsupported" in cafe and "gv-v-none" in cafe
    # Reviewers head the columns and link to their label, where claims are edited.
    for label in AnswerLabel.objects.filter(answer=labelled):
        assert reverse("admin:review_answerlabel_change", args=[label.pk]) in table
    # The inline row of each label summarises its claims.
    assert "3 claims: 1 supported, 1 contradicted, 1 unsupported" in page
    assert "2 claims: 2 supported" in page
    # Claim text and notes from other systems are escaped.
    assert HOSTILE not in page
    assert "Cafe\u0301 &lt;img src=x onerror=&quot;alert(1)&quot;&gt; is nice." in table


def test_answer_page_without_claim_verdicts_points_to_the_review_page(client, reviewer):
    answer = create_answer(TEXT, answer_id="plain", references=[SOURCE])

    page = client.get(reverse("admin:answers_answer_change", args=[answer.pk])).content.decode()

    assert "No claim verdicts yet" in page
    assert reverse("review:answer_detail", args=[answer.pk]) in page


def test_raw_document_is_indented_read_only_and_escaped(client, labelled):
    page = client.get(reverse("admin:answers_answer_change", args=[labelled.pk])).content.decode()

    block = page[page.index('<pre class="gv-json">') + len('<pre class="gv-json">') :]
    block = block[: block.index("</pre>")]
    # Escaped: the answer text's markup is text, in the document and everywhere else ...
    assert HOSTILE not in page and "<" not in block
    assert "&lt;img src=x onerror=\\&quot;alert(1)\\&quot;&gt;" in block
    # ... and once unescaped it is the stored document, indented, with the text as written.
    text = html.unescape(block)
    assert json.loads(text) == labelled.raw
    assert '\n  "name": ' in text
    assert "\n    {\n" in text  # the references list is indented a level further
    assert "巴黎是首都。" in text and "🇫🇷" in text
    # Read-only: no form field carries the document.
    assert 'name="raw"' not in page


def test_check_run_page_indents_request_and_response_and_escapes_them(client, labelled):
    run = CheckRun.objects.create(
        answer=labelled,
        status="failed",
        request={"answerCandidate": TEXT, "facts": [{"factText": HOSTILE}]},
        response={"supportScore": 0.5, "claims": []},
        error=f"engine said {HOSTILE}",
        timings={"total": 12.5},
    )

    page = client.get(reverse("admin:answers_checkrun_change", args=[run.pk])).content.decode()

    blocks = page.split('<pre class="gv-json">')[1:]
    assert len(blocks) == 4  # request, response, fact sources, timings
    request_block = blocks[0][: blocks[0].index("</pre>")]
    assert HOSTILE not in page and "<" not in request_block
    assert "&lt;img src=x onerror=\\&quot;alert(1)\\&quot;&gt;" in request_block
    assert json.loads(html.unescape(request_block)) == run.request
    assert '\n  "facts": [' in html.unescape(request_block)
    assert '"supportScore": 0.5' in html.unescape(blocks[1])


def test_session_page_indents_its_document(client):
    session = Session.objects.create(
        name=SESSION, raw={"name": SESSION, "state": "IN_PROGRESS", "userPseudoId": HOSTILE}
    )

    page = client.get(reverse("admin:answers_session_change", args=[session.pk])).content.decode()

    assert '<pre class="gv-json">' in page
    assert '\n  "state": "IN_PROGRESS"' in html.unescape(page)
    assert HOSTILE not in page


@pytest.fixture
def runs(labelled):
    other = create_answer(TEXT, answer_id="other", references=[SOURCE])
    never = create_answer(TEXT, answer_id="never", references=[SOURCE])
    ok = CheckRun.objects.create(
        answer=labelled, status="succeeded", support_score=0.9, engine_version="0.2.0"
    )
    bad = CheckRun.objects.create(
        answer=other, status="failed", error="model missing", engine_version="0.1.0"
    )
    Answer.objects.filter(pk=labelled.pk).update(latest_check=ok)
    Answer.objects.filter(pk=other.pk).update(latest_check=bad)
    return {"ok": ok, "bad": bad, "never": never}


def listed(client, url, query=""):
    response = client.get(url + query)
    assert response.status_code == 200
    return response.context["cl"].result_list


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", {"labelled", "other", "never"}),
        ("?check=none", {"never"}),
        ("?check=failed", {"other"}),
        ("?check=succeeded", {"labelled"}),
        ("?claim_verdict=contradicted", {"labelled"}),
        ("?claim_verdict=partially_supported", set()),
    ],
)
def test_answer_list_filters(client, runs, query, expected):
    answers = listed(client, reverse("admin:answers_answer_changelist"), query)

    assert {answer.short_name for answer in answers} == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", {"ok", "bad"}),
        ("?has_error=yes", {"bad"}),
        ("?has_error=no", {"ok"}),
        ("?status__exact=succeeded", {"ok"}),
        ("?engine_version__exact=0.1.0", {"bad"}),
    ],
)
def test_check_run_list_filters(client, runs, query, expected):
    found = listed(client, reverse("admin:answers_checkrun_changelist"), query)

    names = {run.pk: name for name, run in runs.items() if name != "never"}
    assert {names[run.pk] for run in found} == expected


def test_check_run_list_leaves_the_json_documents_unread(client, runs):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("admin:answers_checkrun_changelist"))

    assert response.status_code == 200
    rows = [q["sql"] for q in queries if q["sql"].startswith('SELECT "answers_checkrun"."id"')]
    assert len(rows) == 1
    for column in ('"answers_checkrun"."response"', '"answers_answer"."raw"'):
        assert column not in rows[0]
    page = response.content.decode()
    assert "model missing" in page and "labelled" in page


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", {"rita", "otto"}),
        ("?claim_verdict=contradicted", {"otto"}),
        ("?claim_verdict=supported", {"rita", "otto"}),
        ("?claim_verdict=no_check_needed", set()),
    ],
)
def test_label_list_filters(client, labelled, query, expected):
    labels = listed(client, reverse("admin:review_answerlabel_changelist"), query)

    assert {label.reviewer.username for label in labels} == expected


def test_claim_label_list_and_page(client, labelled):
    url = reverse("admin:review_claimlabel_changelist")
    assert {c.verdict for c in listed(client, url, "?verdict__exact=contradicted")} == {
        "contradicted"
    }
    page = client.get(url).content.decode()
    assert HOSTILE not in page

    claim = ClaimLabel.objects.get(verdict="contradicted")
    change = reverse("admin:review_claimlabel_change", args=[claim.pk])
    assert client.get(change).status_code == 200
    # A span that cuts the CJK claim's first character in two is refused ...
    start, end = claim.start_index, claim.end_index
    data = {
        "start_index": start + 1,
        "end_index": end,
        "verdict": "unsupported",
        "corrected_citations": "[]",
        "note": "",
    }
    assert client.post(change, data).status_code == 200
    claim.refresh_from_db()
    assert claim.verdict == "contradicted"
    # ... a whole one is saved, with the claim text taken from the answer.
    data["start_index"] = start + 3
    assert client.post(change, data).status_code == 302
    claim.refresh_from_db()
    assert (claim.verdict, claim.claim_text) == ("unsupported", "黎是首都。")


def test_answer_list_words_states_and_skip_reasons(client):
    create_answer(
        TEXT,
        answer_id="skipped",
        references=[SOURCE],
        answerSkippedReasons=["OUT_OF_DOMAIN_QUERY_IGNORED"],
    )

    response = client.get(reverse("admin:answers_answer_changelist"))
    page = response.content.decode()

    assert ">Out of domain</a>" in page and ">OUT_OF_DOMAIN_QUERY_IGNORED<" not in page
    assert '<td class="field-state_name">Succeeded</td>' in page
    assert "?skip_reason=OUT_OF_DOMAIN_QUERY_IGNORED" in page  # the filter still works by value
    filtered = listed(client, reverse("admin:answers_answer_changelist"), "?state__exact=FAILED")
    assert list(filtered) == []


@pytest.mark.parametrize("model", ["checkrun", "checkbatch", "session", "answer"])
def test_what_imports_and_checks_make_is_never_added_by_hand(client, model):
    assert client.get(reverse(f"admin:answers_{model}_add")).status_code == 403


def test_admin_configuration_passes_djangos_checks():
    from django.core import checks

    assert checks.run_checks(tags=[checks.Tags.admin]) == []


def test_a_labels_answer_and_reviewer_cannot_be_changed_in_the_admin(client, labelled):
    label = AnswerLabel.objects.get(reviewer__username="otto")
    elsewhere = create_answer("Another text 文本.", answer_id="elsewhere")
    url = reverse("admin:review_answerlabel_change", args=[label.pk])
    page = client.get(url).content.decode()
    assert 'name="answer"' not in page and 'name="reviewer"' not in page

    form = {
        "answer": str(elsewhere.pk),
        "reviewer": str(AnswerLabel.objects.exclude(pk=label.pk).get().reviewer_id),
        "verdict": "unsupported",
        "note": "",
        "claims-TOTAL_FORMS": "0",
        "claims-INITIAL_FORMS": "0",
    }
    response = client.post(url, form)

    assert response.status_code == 302  # saved: the verdict changed, the answer did not
    label.refresh_from_db()
    assert (label.answer_id, label.reviewer.username, label.verdict) == (
        labelled.pk,
        "otto",
        "unsupported",
    )


def test_the_answer_pages_label_rows_keep_their_reviewer(client, labelled):
    page = client.get(reverse("admin:answers_answer_change", args=[labelled.pk])).content.decode()
    selects = dict(re.findall(r'<select name="labels-(\d)-reviewer"([^>]*)>', page))
    # Two saved labels: their reviewer selects are disabled; the empty row's is not.
    assert ["disabled" in selects[row] for row in "012"] == [True, True, False]


def test_settled_verdicts_are_listed_and_can_be_corrected_but_not_moved(client, labelled):
    settled = Adjudication.objects.get()
    listing = client.get(reverse("admin:review_adjudication_changelist")).content.decode()
    assert "巴黎是首都。" in listing

    url = reverse("admin:review_adjudication_change", args=[settled.pk])
    response = client.post(url, {"verdict": "contradicted", "note": "on second look"})

    assert response.status_code == 302
    settled.refresh_from_db()
    assert (settled.verdict, settled.note, settled.claim_text) == (
        "contradicted",
        "on second look",
        "巴黎是首都。",
    )
    assert client.get(reverse("admin:review_adjudication_add")).status_code == 403
