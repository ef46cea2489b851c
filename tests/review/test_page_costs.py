"""What the review pages cost: nearest-chunk indexes built once per fact set and reused, and pages
that run a fixed number of queries however many claims, labels and disagreements there are.

Answers are imported with the real importer; text mixes emoji and CJK so byte and character
offsets differ."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from groundview.answers.importing import import_text
from groundview.answers.models import Answer, CheckRun
from groundview.grounding.schema import Fact
from groundview.review import evidence
from groundview.review.evidence import nearest_chunks
from groundview.review.models import AnswerLabel, ClaimLabel


@pytest.fixture
def index_builds(monkeypatch):
    """A fresh index cache, and a count of the indexes built (the real builder runs)."""
    monkeypatch.setattr(evidence, "_indexes", type(evidence._indexes)())
    built = []
    real = evidence.chunk_facts

    def counting(facts):
        built.append(len(facts))
        return real(facts)

    monkeypatch.setattr(evidence, "chunk_facts", counting)
    return built


def tower_facts(height: str = "330") -> list[Fact]:
    return [
        Fact("Bananas are yellow 🍌. Apples are red.", {}),
        Fact(f"The tower opened in 1889. It is {height} metres tall.", {"title": "Eiffel Tower"}),
    ]


CLAIMS = ["Here is what I found.", "The Eiffel Tower is 330 metres tall."]


def test_an_index_is_reused_for_the_same_facts_and_rebuilt_when_they_change(index_builds):
    first = nearest_chunks(CLAIMS, [1], tower_facts(), k=2)
    # Equal facts in new objects (the next request reads them from the database again).
    again = nearest_chunks(CLAIMS, [1], tower_facts(), k=2)
    assert again == first
    assert index_builds == [2]

    # Changed text is another index, not the cached one: "330" is no longer stated.
    changed = nearest_chunks(CLAIMS, [1], tower_facts("324"), k=2)
    assert index_builds == [2, 2]
    assert changed[1][0].bm25 < first[1][0].bm25
    # Attributes are part of the facts too: only the title states "Eiffel".
    untitled = [tower_facts()[0], Fact(tower_facts()[1].text, {})]
    assert nearest_chunks(CLAIMS, [1], untitled, k=2)[1][0].found == first[1][0].found - 1
    assert len(index_builds) == 3


def test_the_cache_keeps_recent_indexes_within_its_sentence_budget(index_builds, monkeypatch):
    monkeypatch.setattr(evidence, "INDEX_CACHE_SENTENCES", 6)
    sets = [tower_facts(str(height)) for height in (300, 310, 320)]  # 4 sentences each
    for facts in sets:
        nearest_chunks(CLAIMS, [1], facts)
    assert len(index_builds) == 3
    nearest_chunks(CLAIMS, [1], sets[2])  # the newest is kept
    assert len(index_builds) == 3
    nearest_chunks(CLAIMS, [1], sets[0])  # the oldest was dropped
    assert len(index_builds) == 4
    # A fact set bigger than the whole budget is built for its request only.
    big = [Fact(f"Sentence {i} about towers 🗼. Another one {i}.", {}) for i in range(4)]
    nearest_chunks(CLAIMS, [1], big)
    nearest_chunks(CLAIMS, [1], big)
    assert len(index_builds) == 6


# --- on the page ---------------------------------------------------------------------------------

NAME = "projects/p/locations/global/collections/c/engines/e/sessions/costs/answers/"


def import_answer(name: str, sentences: list[str], chunks: list[str]) -> Answer:
    """An answer whose references are one document per chunk (nothing cited by the answer)."""
    document = {
        "name": NAME + name,
        "state": "SUCCEEDED",
        "answerText": " ".join(sentences),
        "references": [
            {
                "unstructuredDocumentInfo": {
                    "document": f"doc{r}",
                    "uri": f"https://example.com/{r}",
                    "title": f"Doc {r} 中文",
                    "chunkContents": [{"content": chunk}],
                }
            }
            for r, chunk in enumerate(chunks)
        ],
    }
    result = import_text(json.dumps(document))
    assert not result.problems, result.problems
    return Answer.objects.get(name=NAME + name)


def spans(text: str, sentences: list[str]) -> list[tuple[int, int]]:
    data, out, at = text.encode(), [], 0
    for sentence in sentences:
        start = data.index(sentence.encode(), at)
        out.append((start, start + len(sentence.encode())))
        at = out[-1][1]
    return out


def checked_answer(name: str, claims: int) -> Answer:
    """`claims` claims, every other one cited by the checker; one fact per reference."""
    sentences = [f"Item {i} of the 🐍 list weighs {i} kg 中文." for i in range(claims)]
    chunks = [f"Item {i} weighs {i} kg. It ships in a box." for i in range(claims)]
    answer = import_answer(name, sentences, chunks)
    facts = [
        {"factText": chunk, "attributes": {"title": f"Doc {r} 中文"}}
        for r, chunk in enumerate(chunks)
    ]
    response_claims, cited = [], []
    for i, (start, end) in enumerate(spans(answer.answer_text, sentences)):
        indices = []
        if i % 2 == 0:
            indices.append(len(cited))
            cited.append({"chunkText": chunks[i], "source": str(i)})
        response_claims.append(
            {
                "startPos": start,
                "endPos": end,
                "claimText": sentences[i],
                "citationIndices": indices,
                "groundingCheckRequired": True,
                "score": 0.8 if indices else 0.2,
            }
        )
    run = CheckRun.objects.create(
        answer=answer,
        status=CheckRun.Status.SUCCEEDED,
        request={"answerCandidate": answer.answer_text, "facts": facts},
        response={"supportScore": 0.5, "citedChunks": cited, "claims": response_claims},
        fact_sources=[{"reference": r, "chunk": 0} for r in range(claims)],
        support_score=0.5,
    )
    Answer.objects.filter(pk=answer.pk).update(latest_check=run)
    return answer


def nearest_blocks(html: str) -> list[str]:
    return html.split('<div class="chunk chunk-near">')[1:]


@pytest.mark.django_db
def test_a_page_shown_again_shows_the_same_nearest_chunks_from_the_kept_index(
    reviewer_client, index_builds
):
    answer = checked_answer("again", 6)
    url = reverse("review:answer_detail", args=[answer.pk])
    first = reviewer_client.get(url).content.decode()
    second = reviewer_client.get(url).content.decode()
    assert len(nearest_blocks(first)) > 0
    assert nearest_blocks(second) == nearest_blocks(first)
    assert index_builds == [6]


@pytest.mark.django_db
def test_a_reimported_answer_gets_nearest_chunks_from_its_new_references(
    reviewer_client, index_builds
):
    sentences = ["The 🗼 tower is 330 metres tall.", "Bananas are yellow."]
    answer = import_answer("reimported", sentences, ["The tower is 330 metres tall."])
    url = reverse("review:answer_detail", args=[answer.pk]) + "?source=sentences"
    before = reviewer_client.get(url).content.decode()
    assert '<mark class="support">The tower is 330 metres tall.</mark>' in before

    # Same answer, same claims, new reference text: the page must not reuse the old index.
    import_answer("reimported", sentences, ["The tower is 324 metres tall. Bananas are yellow."])
    after = reviewer_client.get(url).content.decode()
    assert "The tower is 330 metres" not in after
    assert '<mark class="support">The tower is 324 metres tall.</mark>' in after
    assert '<mark class="support">Bananas are yellow.</mark>' in after
    assert len(index_builds) == 2


# --- queries -------------------------------------------------------------------------------------


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context.captured_queries)


def label_all(answer: Answer, users, verdicts) -> None:
    """Each user labels every claim of the answer's checker run, with verdicts[i] for user i."""
    for user, verdict in zip(users, verdicts, strict=True):
        label = AnswerLabel.objects.create(answer=answer, reviewer=user, verdict=verdict)
        ClaimLabel.objects.bulk_create(
            ClaimLabel(
                label=label,
                start_index=claim["startPos"],
                end_index=claim["endPos"],
                claim_text=claim["claimText"],
                verdict=verdict,
            )
            for claim in answer.latest_check.response["claims"]
        )


@pytest.fixture
def others(django_user_model):
    make = django_user_model.objects.create_user
    return [make(username=name, password=f"pw-{name}-123") for name in ("bob", "cleo")]


@pytest.mark.django_db
@pytest.mark.parametrize("source", ["checker", "sentences"])
def test_nearest_chunks_and_others_verdicts_cost_no_query_per_claim(
    reviewer_client, reviewer, others, source, django_assert_num_queries
):
    small, large = checked_answer("small", 2), checked_answer("large", 50)
    for answer in (small, large):
        answer.refresh_from_db()
        label_all(answer, [reviewer, *others], ["supported", "unsupported", "supported"])
    query = f"?source={source}"
    baseline = count_queries(
        reviewer_client, reverse("review:answer_detail", args=[small.pk]) + query
    )
    with django_assert_num_queries(baseline):
        response = reviewer_client.get(reverse("review:answer_detail", args=[large.pk]) + query)
    html = response.content.decode()
    assert html.count('class="claim"') == 50
    assert len(nearest_blocks(html)) >= 25
    # Rita has labelled every claim, so Bob's differing verdict shows on each.
    assert html.count('class="verdict-chip v-unsupported differs"') == 50


@pytest.mark.django_db
def test_disagreements_and_agreement_pages_run_a_fixed_number_of_queries(
    client, django_user_model, others, django_assert_num_queries
):
    staff = django_user_model.objects.create_user(
        username="ada", password="pw-ada-123", is_staff=True
    )
    client.force_login(staff)
    disagreements = reverse("review:disagreements")
    agreement = reverse("review:agreement")

    answer = checked_answer("d0", 2)
    answer.refresh_from_db()
    label_all(answer, others, ["supported", "unsupported"])
    baselines = {url: count_queries(client, url) for url in (disagreements, agreement)}

    for i in range(1, 12):
        answer = checked_answer(f"d{i}", 3)
        answer.refresh_from_db()
        label_all(answer, others, ["supported", "contradicted"])
    for url, baseline in baselines.items():
        with django_assert_num_queries(baseline):
            client.get(url)
    # 35 disputed claims: the first page is full.
    assert len(client.get(disagreements).context["rows"].object_list) == 25
