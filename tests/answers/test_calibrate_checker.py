"""Issue 14 item 9: human claim labels calibrate new checker versions; an admin picks the default
after comparing them on held-out answers; check runs record the version they used.

The engine here is the real one (claims, retrieval, coverage, head) with the fake embedder from
tests/grounding, so features come out of the real pipeline in milliseconds; the last test reads the
claims with the real MiniLM.
"""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from groundview.answers import checks
from groundview.answers.models import CheckerVersion, CheckRun
from groundview.grounding.head import DEFAULT_HEAD
from groundview.review import checker_versions
from groundview.review.adjudication import adjudicate_claim
from groundview.review.checker_versions import CalibrationError, VersionError, is_heldout
from groundview.review.models import Adjudication, ClaimLabel, Verdict
from tests.factories import (
    chunk_reference,
    create_answer,
    create_label,
    document_reference,
    span_of,
)

from ..grounding.conftest import FakeEmbedder

pytestmark = pytest.mark.django_db

PLACES = [
    "Avalon", "Brindle", "Corvath", "Dunmere", "Elsby", "Farrow", "Glenmoor", "Harwick",
    "Istra", "Jorvik", "Kestrel", "Lunden", "Marrow", "Norcross", "Oakhollow", "Pellam",
    "Quarry", "Rushden", "Stavely", "Thornbury", "Ulverton", "Vantry", "Wexley", "Yarrow",
    "Zennor", "Ashby", "Bramley", "Cobham", "Dalby", "Eskdale", "Fenwick", "Grantham",
    "Hexham", "Ilkley", "Jarrow", "Kirkby",
]  # fmt: skip
UNSUPPORTED = [
    "The harbour festival draws painters from 🎨 every region each spring.",
    "Its mayor once rode a camel across the old stone bridge.",
    "東京の市長がこの町を訪れた。",
    "A famous café there serves crème brûlée with saffron.",
]


@pytest.fixture
def fake_embedder(settings):
    """The real engine, reading with the fake embedder (and the packaged head)."""
    embedder = FakeEmbedder()
    settings.GROUNDING = {**settings.GROUNDING, "EMBEDDER": embedder, "HEAD_PATH": None}
    settings.GROUNDVIEW_CHECK_ENGINE = ""
    return embedder


@pytest.fixture
def fake_engine(settings):
    settings.GROUNDVIEW_CHECK_ENGINE = "tests.checks.fake_engines.fake_engine"


@pytest.fixture(autouse=True)
def head_files_in_tmp(settings, tmp_path):
    # Where versions' head files are written (answers/checks/versions.py).
    settings.DATA_DIR = tmp_path


def paris():
    text = "Paris is the capital of France."
    return create_answer(text, references=[chunk_reference(text, title="Paris")])


@pytest.fixture
def second_reviewer(django_user_model):
    return django_user_model.objects.create_user(username="sam", password="pw-sam-123")


def labelled_set(reviewer, places=PLACES):
    """Per place an answer of three claims: two copied from its source, one the source never says.

    Reviewers call one copied claim supported and judge the other only partially supported (say
    the source is out of date), so the packaged head, which scores every copied claim near 1, is
    too sure of itself on these labels: a calibration must pull those scores towards one half. Every
    answer looks alike, so this holds on either side of the split, whichever answers land there.
    """
    answers = []
    for n, place in enumerate(places):
        founded = f"{place} was founded in {1200 + 7 * n} by river traders."
        river = f"{place} lies on a wide river."
        other = UNSUPPORTED[n % len(UNSUPPORTED)]
        answer = create_answer(
            f"{founded} {river} {other}",
            # Named after the place, so the held-out split (by name) is the same whichever tests
            # ran before: a counter-numbered name had put all ten of a small set on one side.
            answer_id=f"cal-{place.lower()}",
            session=f"cal{n % 3}",
            references=[document_reference(f"History of {place}", [founded, river])],
        )
        create_label(
            answer,
            reviewer,
            Verdict.PARTIALLY_SUPPORTED,
            claims={
                founded: Verdict.SUPPORTED,
                river: Verdict.PARTIALLY_SUPPORTED,
                other: Verdict.UNSUPPORTED,
            },
        )
        answers.append(answer)
    return answers


def packaged_spec():
    return json.loads(DEFAULT_HEAD.read_text(encoding="utf-8"))


def version_with(spec, name="hand-made", **fields):
    return CheckerVersion.objects.create(
        name=name,
        engine_version="0.2.0",
        verifier="features",
        method=CheckerVersion.Method.PLATT,
        head_spec=spec,
        **fields,
    )


def shifted_spec(shift, version="head-v2+shifted"):
    spec = packaged_spec()
    spec["version"] = version
    spec["heads"]["features"]["intercept"] += shift
    return spec


# --- refusing ----------------------------------------------------------------------------------


def test_refuses_below_the_minimum_and_names_how_many_labels_exist(reviewer, fake_embedder):
    labelled_set(reviewer, PLACES[:4])  # 12 labelled claims
    answer = create_answer(
        "Nothing to check here.", references=[document_reference("x", ["Nothing."])]
    )
    create_label(
        answer,
        reviewer,
        Verdict.PARTIALLY_SUPPORTED,
        claims={"Nothing to check here.": Verdict.NO_CHECK_NEEDED},
    )

    with pytest.raises(CommandError) as raised:
        call_command("calibrate_checker", stdout=StringIO(), stderr=StringIO())

    message = str(raised.value)
    assert "at least 50 labelled claims" in message
    # "No check needed" says nothing about a score: it is not counted.
    assert "12 are stored" in message
    assert "GROUNDVIEW_CALIBRATION_MIN_LABELS" in message
    assert not CheckerVersion.objects.exists()


def test_the_minimum_is_a_setting(reviewer, fake_embedder, settings):
    labelled_set(reviewer, PLACES[:4])
    settings.GROUNDVIEW_CALIBRATION_MIN_LABELS = 13

    with pytest.raises(CalibrationError, match="at least 13 labelled claims and 12 are stored"):
        checker_versions.calibrate()


def test_refuses_when_the_training_answers_are_all_labelled_alike(reviewer, fake_embedder):
    answers = labelled_set(reviewer, PLACES[:10])
    ClaimLabel.objects.filter(label__answer__in=answers).update(verdict=Verdict.SUPPORTED)

    with pytest.raises(CalibrationError, match="labelled supported; a calibration needs"):
        checker_versions.calibrate(needed=5)
    assert not CheckerVersion.objects.exists()


# --- labels and the split ----------------------------------------------------------------------


def test_reviewers_who_disagree_make_a_claim_half_supported(reviewer, second_reviewer):
    text = "Ærøskøbing has 900 people 👍. It is on Ærø."
    answer = create_answer(
        text, references=[document_reference("Ærø", ["Ærøskøbing has 900 people."])]
    )
    first = "Ærøskøbing has 900 people 👍."
    create_label(
        answer,
        reviewer,
        Verdict.PARTIALLY_SUPPORTED,
        claims={first: Verdict.SUPPORTED, "It is on Ærø.": Verdict.UNSUPPORTED},
    )
    create_label(
        answer, second_reviewer, Verdict.PARTIALLY_SUPPORTED, claims={first: Verdict.CONTRADICTED}
    )

    claims = {c.text: c for c in checker_versions.select_labelled_claims()}

    assert claims[first].supported == 0.5 and claims[first].reviewers == 2
    assert claims["It is on Ærø."].supported == 0.0
    assert (claims[first].start, claims[first].end) == span_of(text, first)


def test_a_settled_verdict_is_the_claims_label(reviewer, second_reviewer, admin_user):
    text = "Ærøskøbing has 900 people 👍. It is on Ærø. 东京是首都。"
    answer = create_answer(
        text, references=[document_reference("Ærø", ["Ærøskøbing has 900 people."])]
    )
    first, second, third = "Ærøskøbing has 900 people 👍.", "It is on Ærø.", "东京是首都。"
    create_label(
        answer,
        reviewer,
        Verdict.PARTIALLY_SUPPORTED,
        claims={first: Verdict.SUPPORTED, second: Verdict.SUPPORTED},
    )
    create_label(
        answer, second_reviewer, Verdict.PARTIALLY_SUPPORTED, claims={first: Verdict.CONTRADICTED}
    )
    for part, verdict in ((first, Verdict.SUPPORTED), (second, Verdict.NO_CHECK_NEEDED)):
        start, end = span_of(text, part)
        adjudicate_claim(answer, admin_user, start_index=start, end_index=end, verdict=verdict)
    # The third claim settled without any reviewer's verdict on it: data from before settling
    # required one (adjudicate_claim refuses it now).
    start, end = span_of(text, third)
    Adjudication.objects.create(
        answer=answer,
        start_index=start,
        end_index=end,
        claim_text=third,
        verdict=Verdict.UNSUPPORTED,
        adjudicator=admin_user,
    )

    claims = {c.text: c for c in checker_versions.select_labelled_claims()}

    assert claims[first].supported == 1.0 and claims[first].reviewers == 2
    assert second not in claims  # settled as "no check needed"
    assert claims[third].supported == 0.0


def test_a_claim_is_read_in_context_as_a_check_reads_it():
    text = "Ærøskøbing has 900 people. It lies on Ærø."
    claim = checker_versions.LabelledClaim(
        1, "a", *span_of(text, "It lies on Ærø."), "It lies on Ærø.", 1, 1
    )

    assert checker_versions.scoring_texts(text, [claim]) == ["Ærøskøbing lies on Ærø."]


# --- fitting -----------------------------------------------------------------------------------


def test_calibrate_fits_a_version_on_the_labels_and_keeps_held_out_answers_out(
    reviewer, fake_embedder
):
    answers = labelled_set(reviewer)
    heldout = [a for a in answers if is_heldout(a.name)]
    assert 0 < len(heldout) < len(answers)  # the fixed split puts answers on both sides
    out, err = StringIO(), StringIO()

    call_command("calibrate_checker", stdout=out, stderr=err)

    version = CheckerVersion.objects.get()
    assert not version.is_default  # an admin decides, after comparing
    assert version.name == f"cal-{version.pk}"
    train = len(answers) - len(heldout)
    assert version.fitted_on["train"] == {
        "claims": 3 * train,
        "answers": train,
        "claim_labels": 3 * train,
        "supported": train,
    }
    assert version.fitted_on["heldout"]["answers"] == len(heldout)
    assert version.heldout_claims == 3 * len(heldout)
    head = version.head_spec["heads"]["features"]
    assert head["features"] == packaged_spec()["heads"]["features"]["features"]
    assert version.head_spec["version"] == f"head-v3+{version.name}"
    # Scores the packaged head puts near 1 are "supported" only half the time: the fitted head is
    # less sure, and closer to the humans on answers it never saw.
    names = [row["name"] for row in version.comparison]
    assert names == ["packaged head", version.name]
    packaged, mine = version.comparison
    assert mine["brier"] < packaged["brier"]
    assert mine["claims"] == packaged["claims"] == version.heldout_claims
    assert sum(b["count"] for b in mine["bins"]) == version.heldout_claims
    assert version.brier == mine["brier"] and version.auc == mine["auc"]
    assert f"Saved checker version {version.name}" in out.getvalue()
    assert "reading claims" in err.getvalue()  # the progress bar


def test_a_second_calibration_is_compared_with_the_first(reviewer, fake_embedder):
    labelled_set(reviewer)
    first = checker_versions.calibrate()
    second = checker_versions.calibrate(method="features")

    assert [row["name"] for row in second.comparison] == [
        "packaged head",
        first.name,
        second.name,
    ]
    # Both start from the packaged head, not one from the other.
    assert first.calibrated_from == second.calibrated_from == "head-v3-features"
    assert second.method == "features"


# --- the default and the engine ----------------------------------------------------------------


def test_check_runs_record_the_version_they_used(fake_engine):
    version = version_with(shifted_spec(0.0))
    answer = paris()

    before = checks.run_check(checks.queue_check(answer).pk)
    checker_versions.make_default(version.pk)
    after = checks.run_check(checks.queue_check(answer).pk)

    assert before.status == after.status == CheckRun.Status.SUCCEEDED
    assert before.checker_version is None
    assert after.checker_version == version
    # The engine was built with the version's head file.
    config = checks.engine_config()
    assert json.loads(Path(config.head_path).read_text(encoding="utf-8")) == version.head_spec


def test_the_default_switch_changes_the_head_the_engine_scores_with(fake_embedder):
    lower = version_with(shifted_spec(-4.0), name="lower")
    answer = paris()

    packaged = checks.run_check(checks.queue_check(answer).pk)
    checker_versions.make_default(lower.pk)
    shifted = checks.run_check(checks.queue_check(answer).pk)
    checker_versions.make_default(None)
    back = checks.run_check(checks.queue_check(answer).pk)

    def score(run):
        return run.response["claims"][0]["score"]

    assert score(shifted) < score(packaged) - 0.3
    assert score(back) == score(packaged)
    assert "+head-v2+shifted-features" in shifted.model_id
    assert "shifted" not in back.model_id
    assert (packaged.checker_version, shifted.checker_version, back.checker_version) == (
        None,
        lower,
        None,
    )


def test_one_default_at_a_time(fake_embedder):
    first = version_with(shifted_spec(0.0), name="first")
    second = version_with(shifted_spec(0.5), name="second")

    checker_versions.make_default(first.pk)
    checker_versions.make_default(second.pk)

    assert list(CheckerVersion.objects.filter(is_default=True)) == [second]
    assert checks.get_default_version() == second


def test_a_version_over_other_features_cannot_become_the_default(fake_embedder):
    spec = packaged_spec()
    spec["heads"]["features"]["features"] = ["cov_all"]
    odd = version_with(spec, name="odd")

    with pytest.raises(VersionError, match="no 'features' head over the features"):
        checker_versions.make_default(odd.pk)
    assert not CheckerVersion.objects.filter(is_default=True).exists()


# --- the page ----------------------------------------------------------------------------------


def test_versions_page_is_for_staff(client, reviewer):
    client.force_login(reviewer)

    assert client.get(reverse("review:checker_versions")).status_code == 403
    response = client.post(reverse("review:make_default_version"), {"version": ""})
    assert response.status_code == 403


def test_versions_page_compares_and_an_admin_makes_a_version_the_default(
    client, admin_user, reviewer, fake_embedder
):
    labelled_set(reviewer)
    version = checker_versions.calibrate()
    client.force_login(admin_user)

    page = client.get(reverse("review:checker_versions"))
    body = page.content.decode()
    assert page.status_code == 200
    assert version.name in body and "packaged head" in body
    assert body.count('class="chart calibration"') == 2  # one plot per compared head
    assert f"{version.balanced_accuracy:.3f}" in body
    assert "Make default" in body

    response = client.post(reverse("review:make_default_version"), {"version": version.pk})

    assert response.status_code == 302
    version.refresh_from_db()
    assert version.is_default
    assert "Use the packaged head again" in client.get(response.url).content.decode()

    client.post(reverse("review:make_default_version"), {"version": ""})
    version.refresh_from_db()
    assert not version.is_default


def test_agreement_page_links_staff_to_the_versions(client, admin_user, reviewer):
    url = reverse("review:checker_versions")
    client.force_login(reviewer)
    assert url not in client.get(reverse("review:agreement")).content.decode()
    client.force_login(admin_user)
    assert url in client.get(reverse("review:agreement")).content.decode()


# --- the real model ----------------------------------------------------------------------------


@pytest.mark.model
def test_calibrate_with_the_real_model(reviewer, settings):
    settings.GROUNDVIEW_CHECK_ENGINE = ""
    labelled_set(reviewer, PLACES[:30])

    version = checker_versions.calibrate()

    packaged, mine = version.comparison
    assert mine["brier"] < packaged["brier"]
    # Platt scaling moves scores, it does not reorder claims (save for the consistency cap).
    assert mine["auc"] == pytest.approx(packaged["auc"], abs=0.05)
