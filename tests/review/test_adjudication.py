"""Issue 14 item 4: disagreements, blind labelling and adjudicated (final) verdicts.

Claims are (answer, UTF-8 byte span); the text mixes CJK, emoji and a combining accent so that
byte and character offsets differ everywhere."""

import csv
import io
import json

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from groundview.review import adjudication, services
from groundview.review import detail as detail_page
from groundview.review.adjudication import DisagreementFilters, complete, select_disagreements
from groundview.review.models import Adjudication
from groundview.review.verdicts import ClaimVerdict, LabelError
from tests.factories import create_answer, create_check_run, document_reference, span_of

pytestmark = pytest.mark.django_db

# Three sentences: the checker cites the first, not the second, and has no claim on the third
# (a reviewer labels it from the plain sentence split).
TEXT = "東京は日本の首都です 😀。 Café crème costs €4. Le résumé est prêt."
FIRST, SECOND, THIRD = "東京は日本の首都です 😀。", "Café crème costs €4.", "Le résumé est prêt."


@pytest.fixture
def users(django_user_model):
    make = django_user_model.objects.create_user
    return {
        "rita": make(username="rita", password="pw-rita-123"),
        "bob": make(username="bob", password="pw-bob-123"),
        "cleo": make(username="cleo", password="pw-cleo-123"),
        "ada": make(username="ada", password="pw-ada-123", is_staff=True),
    }


@pytest.fixture
def tokyo():
    answer = create_answer(
        TEXT, query="首都は？", references=[document_reference("Atlas", [FIRST])]
    )
    facts = [{"factText": FIRST}]
    create_check_run(
        answer, [(*span_of(TEXT, FIRST), 0.93, [0]), (*span_of(TEXT, SECOND), 0.2, [])], facts=facts
    )
    return answer


def label(answer, user, **claims):
    """Label the claims named FIRST/SECOND/THIRD with the given verdicts."""
    spans = {"first": FIRST, "second": SECOND, "third": THIRD}
    services.save_label(
        answer,
        user,
        verdict="partially_supported",
        claims=[ClaimVerdict(*span_of(TEXT, spans[k]), v) for k, v in claims.items()],
    )


def listed(user, **filters):
    """The disagreement list as its page shows it."""
    rows = select_disagreements(user, DisagreementFilters(**filters))
    complete(rows)
    return rows


def keyed(rows):
    return {TEXT.encode()[r.start : r.end].decode(): r for r in rows}


def test_disagreements_are_reviewers_against_each_other_or_the_checker(tokyo, users):
    # first: both agree with the checker (cited, supported) -> no disagreement.
    # second: rita agrees with the checker (not cited, unsupported), bob says supported.
    # third: no checker claim; rita and bob agree -> no disagreement.
    label(tokyo, users["rita"], first="supported", second="unsupported", third="supported")
    label(tokyo, users["bob"], first="supported", second="supported", third="supported")

    rows = keyed(listed(users["ada"]))

    assert set(rows) == {SECOND}
    second = rows[SECOND]
    assert (second.start, second.end) == span_of(TEXT, SECOND)
    assert second.checker == "unsupported" and second.score == 0.2
    assert second.verdicts == {"bob": "supported", "rita": "unsupported"}
    assert second.reviewers_disagree and second.checker_disagrees
    assert second.reviewer_rows == [("bob", "supported", True), ("rita", "unsupported", False)]


def test_partially_supported_always_differs_from_the_checker_and_kinds_filter(tokyo, users):
    label(tokyo, users["rita"], first="partially_supported", second="contradicted")

    everything = keyed(listed(users["ada"]))
    checker = keyed(listed(users["ada"], kind="checker"))
    reviewers = keyed(listed(users["ada"], kind="reviewers"))

    # contradicted agrees with "not cited"; partially supported agrees with no checker verdict.
    assert set(everything) == set(checker) == {FIRST}
    assert reviewers == {}


def test_filters_by_reviewer_session_and_settled_status(tokyo, users):
    other = create_answer(TEXT, session="s2")
    label(tokyo, users["rita"], third="supported")
    label(tokyo, users["bob"], third="unsupported")
    label(other, users["cleo"], third="supported")
    label(other, users["bob"], third="contradicted")

    def texts(**filters):
        rows = listed(users["ada"], **filters)
        return sorted((r.answer_id, r.verdicts.get("bob")) for r in rows)

    assert texts() == [(tokyo.pk, "unsupported"), (other.pk, "contradicted")]
    assert texts(reviewer="rita") == [(tokyo.pk, "unsupported")]
    assert texts(session_id=other.session_id) == [(other.pk, "contradicted")]

    adjudication.adjudicate_claim(
        tokyo,
        users["ada"],
        **span_kwargs(THIRD),
        verdict="supported",
    )
    assert texts() == [(other.pk, "contradicted")]
    assert texts(status="settled") == [(tokyo.pk, "unsupported")]
    assert len(texts(status="all")) == 2


def test_verdicts_stay_hidden_from_a_viewer_who_has_not_given_theirs(tokyo, users):
    label(tokyo, users["rita"], second="supported")
    label(tokyo, users["bob"], second="unsupported")

    def visible(user):
        return [r.visible for r in select_disagreements(user, DisagreementFilters())]

    assert visible(users["cleo"]) == [False]
    assert visible(users["rita"]) == [True]
    assert visible(users["ada"]) == [True]  # staff settle claims, so they see every verdict


def span_kwargs(part):
    start, end = span_of(TEXT, part)
    return {"start_index": start, "end_index": end}


def test_only_staff_or_holders_of_the_permission_adjudicate(tokyo, users):
    label(tokyo, users["bob"], second="unsupported")
    with pytest.raises(PermissionDenied):
        adjudication.adjudicate_claim(
            tokyo, users["rita"], verdict="supported", **span_kwargs(SECOND)
        )
    assert not Adjudication.objects.exists()

    users["rita"].user_permissions.add(Permission.objects.get(codename="adjudicate"))
    users["rita"] = type(users["rita"]).objects.get(pk=users["rita"].pk)  # fresh permission cache
    settled = adjudication.adjudicate_claim(
        tokyo, users["rita"], verdict="supported", note=" checked ", **span_kwargs(SECOND)
    )
    assert (settled.claim_text, settled.note, settled.adjudicator) == (
        SECOND,
        "checked",
        users["rita"],
    )

    again = adjudication.adjudicate_claim(
        tokyo, users["ada"], verdict="unsupported", **span_kwargs(SECOND)
    )
    assert Adjudication.objects.get() == again
    assert (again.verdict, again.adjudicator, again.note) == ("unsupported", users["ada"], "")

    assert adjudication.clear_adjudication(tokyo, users["ada"], **span_kwargs(SECOND)) is True
    assert adjudication.clear_adjudication(tokyo, users["ada"], **span_kwargs(SECOND)) is False


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"start_index": 1, "end_index": 3, "verdict": "supported"}, "claim.start_index"),
        ({"start_index": 0, "end_index": 3, "verdict": "true"}, "verdict"),
        ({"start_index": 0, "end_index": 9999, "verdict": "supported"}, "claim.end_index"),
        ({"start_index": 6, "end_index": 3, "verdict": "supported"}, "claim.start_index"),
        ({"start_index": 0, "end_index": 3, "verdict": "supported", "note": "a\x00"}, "note"),
    ],
)
def test_a_bad_adjudication_names_its_field_and_stores_nothing(tokyo, users, fields, field):
    # 東 is three bytes in UTF-8: byte 1 is inside it.
    with pytest.raises(LabelError) as caught:
        adjudication.adjudicate_claim(tokyo, users["ada"], **fields)
    assert caught.value.field == field
    assert not Adjudication.objects.exists()


def test_a_span_no_reviewer_labelled_cannot_be_settled(tokyo, users):
    label(tokyo, users["bob"], first="supported")
    start, end = span_of(TEXT, SECOND)

    with pytest.raises(LabelError) as caught:
        adjudication.adjudicate_claim(
            tokyo, users["ada"], verdict="supported", **span_kwargs(SECOND)
        )

    assert str(caught.value) == f"claim: no reviewer labelled the span [{start}, {end}) to settle"
    assert not Adjudication.objects.exists()


def test_final_verdict_is_the_adjudicated_one_then_an_agreed_one():
    assert adjudication.final_verdict(["supported", "unsupported"], "contradicted") == (
        "contradicted",
        "adjudicated",
    )
    assert adjudication.final_verdict(["supported", "supported"]) == ("supported", "agreed")
    assert adjudication.final_verdict(["supported", "unsupported"]) == ("", "")
    assert adjudication.final_verdict([]) == ("", "")


def test_agreement_counts_a_settled_claim_once_with_its_final_verdict(tokyo, users):
    label(tokyo, users["rita"], first="supported", second="supported")
    label(tokyo, users["bob"], first="supported", second="unsupported")
    before = services.agreement_report()
    assert before.confusion["supported"]["unsupported"] == 1
    assert before.confusion["unsupported"]["unsupported"] == 1
    assert before.binary_pairs == 4 and before.binary_agreement == 0.75

    adjudication.adjudicate_claim(tokyo, users["ada"], verdict="unsupported", **span_kwargs(SECOND))
    after = services.agreement_report()

    assert after.claim_labels == 4  # every reviewer's label is still there
    assert after.confusion["supported"]["unsupported"] == 0
    assert after.confusion["unsupported"]["unsupported"] == 1
    assert after.binary_pairs == 3 and after.binary_agreement == 1.0
    assert after.adjudicated_claims == 1
    # Reviewer-vs-reviewer figures keep the reviewers' own verdicts.
    assert after.claim_agreement == before.claim_agreement == 0.5
    assert [(r.reviewer, r.claims, r.agreement) for r in after.against_final] == [
        ("bob", 1, 1.0),
        ("rita", 1, 0.0),
    ]


def test_exports_say_which_verdict_is_final(client, tokyo, users):
    label(tokyo, users["rita"], first="supported", second="supported", third="supported")
    label(tokyo, users["bob"], first="supported", second="unsupported", third="contradicted")
    adjudication.adjudicate_claim(tokyo, users["ada"], verdict="unsupported", **span_kwargs(SECOND))
    client.force_login(users["cleo"])

    response = client.get("/api/export/labels.csv?reviewer=rita")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    finals = {
        r["claim_text"]: (r["final_verdict"], r["final_source"], r["adjudicated_by"]) for r in rows
    }
    assert finals == {
        FIRST: ("supported", "agreed", ""),
        SECOND: ("unsupported", "adjudicated", "ada"),
        # Only rita's row is exported, but bob disagreed: no final verdict.
        THIRD: ("", "", ""),
    }
    assert {r["claim_verdict"] for r in rows} == {"supported"}  # her own verdicts, unchanged

    response = client.get("/api/export/labels.jsonl?reviewer=bob")
    (document,) = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    second = next(c for c in document["claims"] if c["claim_text"] == SECOND)
    assert (second["verdict"], second["final_verdict"], second["final_source"]) == (
        "unsupported",
        "unsupported",
        "adjudicated",
    )


# --- pages ----------------------------------------------------------------------------------------


def test_the_answer_page_is_blind_until_the_reviewer_gives_their_own_verdict(client, tokyo, users):
    label(tokyo, users["rita"], first="contradicted", second="supported")
    url = reverse("review:answer_detail", args=[tokyo.pk])
    client.force_login(users["cleo"])

    blind = client.get(url).content.decode()
    assert "rita:" not in blind
    assert "1 other reviewer labelled this answer" in blind
    assert "1 other verdict on this claim, shown once you save yours." in blind

    start, end = span_of(TEXT, FIRST)
    response = client.post(
        reverse("review:save_label", args=[tokyo.pk]),
        {
            "source": "checker",
            "claim_count": "1",
            "claim-1-start": start,
            "claim-1-end": end,
            "claim-1-verdict": "supported",
        },
    )
    assert response.status_code == 302

    page = client.get(url).content.decode()
    claims = page.split('id="claims"')[1]
    first, second = claims.split('id="claim-2"')[0], claims.split('id="claim-2"')[1]
    assert "rita: Contradicted" in first  # her verdict on the claim cleo has now labelled
    assert "rita: Supported" not in second  # still hidden where cleo has given none
    assert "1 other verdict on this claim" in second
    assert "rita: Partially supported" in page  # the answer verdicts show once cleo saved hers


def test_an_adjudicator_may_reveal_every_verdict_and_sees_the_final_one(client, tokyo, users):
    label(tokyo, users["rita"], second="supported")
    adjudication.adjudicate_claim(tokyo, users["ada"], verdict="unsupported", **span_kwargs(SECOND))
    url = reverse("review:answer_detail", args=[tokyo.pk])

    client.force_login(users["cleo"])
    assert "rita: Supported" not in client.get(url + "?reveal=1").content.decode()

    client.force_login(users["ada"])
    assert "Show them now to settle claims" in client.get(url).content.decode()
    revealed = client.get(url + "?reveal=1").content.decode()
    assert "rita: Supported" in revealed
    assert "final: Unsupported" in revealed


def test_the_disagreement_page_links_each_claim_to_its_place_on_the_answer_page(
    client, tokyo, users
):
    label(tokyo, users["rita"], second="supported", third="supported")
    label(tokyo, users["bob"], second="unsupported", third="unsupported")
    client.force_login(users["ada"])

    response = client.get(reverse("review:disagreements"))

    assert response.status_code == 200
    rows = {r.text: r for r in response.context["rows"]}
    assert set(rows) == {SECOND, THIRD}
    for text, row in rows.items():
        page = detail_page.build_page(tokyo, users["ada"], row.source)
        shown = {c.number: c.text for c in page.claims}
        assert shown[row.number] == text, (row.source, row.number)
    assert rows[SECOND].source == "checker" and rows[THIRD].source == "sentences"
    html = response.content.decode()
    assert f"/answers/{tokyo.pk}/?source=checker&amp;reveal=1#claim-{rows[SECOND].number}" in html


def test_the_disagreement_page_says_how_verdicts_differ_only_to_those_who_may_see_them(
    client, tokyo, users
):
    label(tokyo, users["rita"], second="supported")
    label(tokyo, users["bob"], second="unsupported")

    def page(user):
        client.force_login(user)
        return client.get(reverse("review:disagreements")).content.decode()

    hidden = page(users["cleo"])
    assert "2 verdicts, hidden until you give yours" in hidden
    # Which way they differ would hint at the verdicts she has not seen.
    assert "reviewers differ" not in hidden and "checker differs" not in hidden
    shown = page(users["rita"])
    assert "reviewers differ" in shown and "checker differs" in shown


def test_the_disagreement_page_offers_the_reviewers_who_labelled(client, tokyo, users):
    label(tokyo, users["rita"], third="supported")
    label(tokyo, users["bob"], third="unsupported")
    client.force_login(users["ada"])

    html = client.get(reverse("review:disagreements"), {"reviewer": "rita"}).content.decode()

    assert '<option value="rita" selected>rita</option>' in html
    assert '<option value="bob" >bob</option>' in html
    assert '<option value="cleo"' not in html  # no label, no choice


def test_the_disagreement_page_pages_and_rejects_bad_filters(client, users):
    for n in range(27):
        answer = create_answer(f"Claim number {n} is here.")
        span = (0, len(answer.answer_text.encode()))
        for user, verdict in (("rita", "supported"), ("bob", "unsupported")):
            services.save_label(
                answer, users[user], verdict=verdict, claims=[ClaimVerdict(*span, verdict)]
            )
    client.force_login(users["rita"])
    url = reverse("review:disagreements")

    first = client.get(url)
    second = client.get(url + "?page=2")

    assert len(first.context["rows"]) == 25 and len(second.context["rows"]) == 2
    assert "Page 2 of 2" in second.content.decode()
    assert {r.answer_id for r in first.context["rows"]}.isdisjoint(
        r.answer_id for r in second.context["rows"]
    )
    assert client.get(url + "?kind=nonsense").status_code == 400
    bad_session = client.get(url + "?session=zero")
    assert bad_session.status_code == 400
    # The drop-down shows the value that was refused, not "All sessions".
    assert '<option value="zero" selected>zero</option>' in bad_session.content.decode()


def test_settling_from_the_list_needs_the_right_and_moves_the_claim_to_settled(
    client, tokyo, users
):
    label(tokyo, users["rita"], second="supported")
    label(tokyo, users["bob"], second="unsupported")
    start, end = span_of(TEXT, SECOND)
    post = {"answer": tokyo.pk, "start": start, "end": end, "verdict": "unsupported"}
    url = reverse("review:adjudicate")

    client.force_login(users["rita"])
    assert client.post(url, post).status_code == 403
    assert not Adjudication.objects.exists()
    assert 'class="settle-form"' not in client.get(reverse("review:disagreements")).content.decode()

    client.force_login(users["ada"])
    # "Caf" is three bytes and é two: byte 4 of the claim is inside é.
    bad = client.post(url, {**post, "start": start + 4, "back": "kind=reviewers"})
    assert bad.status_code == 400
    assert "inside a UTF-8 character" in bad.content.decode()

    response = client.post(url, {**post, "back": "kind=reviewers&evil=1"})
    assert response.status_code == 302
    assert response["Location"] == reverse("review:disagreements") + "?kind=reviewers"
    assert Adjudication.objects.get().verdict == "unsupported"
    assert client.get(reverse("review:disagreements")).context["rows"].paginator.count == 0
    settled = client.get(reverse("review:disagreements") + "?status=settled")
    assert settled.context["rows"].paginator.count == 1
    assert "settled by ada" in settled.content.decode()

    client.post(url, {**post, "action": "reopen"})
    assert not Adjudication.objects.exists()


def test_checker_differs_from_distinct_count_and_extremes_matches_every_verdict_set():
    from itertools import combinations

    from groundview.review.models import Verdict

    outcomes = [key for key, _ in adjudication.CHECKER_OUTCOMES]
    for size in range(1, len(Verdict.values) + 1):
        for verdicts in combinations(sorted(Verdict.values), size):
            for outcome in outcomes:
                direct = any(adjudication.disagrees_with_checker(v, outcome) for v in verdicts)
                grouped = adjudication.checker_differs(size, verdicts[0], verdicts[-1], outcome)
                assert grouped == direct, (verdicts, outcome)
