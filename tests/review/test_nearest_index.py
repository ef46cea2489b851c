"""Nearest chunks (issue 14 item 5) keep the index of a fact set: built once, reused while the
facts are the same, built again when they change, within a bounded budget."""

import pytest
from django.urls import reverse

from groundview.grounding.schema import Fact
from groundview.review import evidence
from groundview.review.evidence import nearest_chunks
from tests.factories import create_answer, create_check_run, document_reference, span_of


@pytest.fixture
def index_builds(monkeypatch):
    """A fresh index cache, and the size of each fact set indexed (the real builder runs)."""
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


def nearest_blocks(html: str) -> list[str]:
    return html.split('<div class="chunk chunk-near">')[1:]


@pytest.mark.django_db
def test_a_page_shown_again_shows_the_same_nearest_chunks_from_the_kept_index(
    reviewer_client, index_builds
):
    sentences = [f"Item {i} of the 🐍 list weighs {i} kg 中文." for i in range(6)]
    chunks = [f"Item {i} weighs {i} kg. It ships in a box." for i in range(6)]
    text = " ".join(sentences)
    answer = create_answer(
        text, references=[document_reference(f"Doc {i}", [c]) for i, c in enumerate(chunks)]
    )
    facts = [{"factText": c, "attributes": {"title": f"Doc {i}"}} for i, c in enumerate(chunks)]
    # Every other claim cited: the others get nearest chunks.
    create_check_run(
        answer,
        [(*span_of(text, s), 0.8, [i] if i % 2 == 0 else []) for i, s in enumerate(sentences)],
        facts=facts,
        fact_sources=[{"reference": i, "chunk": 0} for i in range(6)],
    )
    url = reverse("review:answer_detail", args=[answer.pk])
    first = reviewer_client.get(url).content.decode()
    second = reviewer_client.get(url).content.decode()
    assert len(nearest_blocks(first)) >= 3
    assert nearest_blocks(second) == nearest_blocks(first)
    assert index_builds == [6]


@pytest.mark.django_db
def test_a_reimported_answer_gets_nearest_chunks_from_its_new_references(
    reviewer_client, index_builds
):
    text = "The 🗼 tower is 330 metres tall. Bananas are yellow."
    answer = create_answer(
        text,
        answer_id="reimported",
        references=[document_reference("Tower", ["The tower is 330 metres tall."])],
    )
    url = reverse("review:answer_detail", args=[answer.pk]) + "?source=sentences"
    before = reviewer_client.get(url).content.decode()
    assert '<mark class="support">The tower is 330 metres tall.</mark>' in before

    # Same answer, same claims, new reference text: the page must not reuse the old index.
    create_answer(
        text,
        answer_id="reimported",
        references=[
            document_reference("Tower", ["The tower is 324 metres tall. Bananas are yellow."])
        ],
    )
    after = reviewer_client.get(url).content.decode()
    assert "The tower is 330 metres" not in after
    assert '<mark class="support">The tower is 324 metres tall.</mark>' in after
    assert '<mark class="support">Bananas are yellow.</mark>' in after
    assert len(index_builds) == 2
