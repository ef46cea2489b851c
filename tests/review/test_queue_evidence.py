"""Evidence for every claim (issue 14, item 5): the sentences around a cited chunk in its
document, the supporting sentence marked, and the nearest chunks of a claim nothing was cited for."""

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from groundview.grounding.schema import Fact
from groundview.review.evidence import MarkedText, in_document, mark_support, nearest_chunks
from tests.factories import (
    create_answer,
    create_check_run,
    create_gaps_answer,
    document_reference,
    grounding_support,
    span_of,
)

DOC = (
    "Intro sentence one. Second sentence here. The cited sentence 🐍 is this one. "
    "After one follows. After two follows. After three is far."
)


def window(marked: MarkedText) -> tuple[str, str, str]:
    a, b = marked.mark
    return marked.text[:a], marked.text[a:b], marked.text[b:]


def test_two_sentences_either_side_of_the_mark_from_the_document():
    passage = "The cited sentence 🐍 is this one. After one follows."
    marked = in_document(
        mark_support("cited sentence", passage, "The cited sentence 🐍 is this one."), DOC
    )
    before, mark, after = window(marked)
    assert mark == "The cited sentence 🐍 is this one."
    assert before == "Intro sentence one. Second sentence here. "
    assert after == " After one follows. After two follows."
    assert not marked.cut_before and marked.cut_after
    assert marked.html.endswith('<span class="cut" title="The document goes on"> …</span>')


def test_the_context_comes_from_the_whole_document_across_chunks():
    # The cited fact is the second chunk; its neighbours are other chunks of the same document.
    chunks = ["巴黎是法国的首都。人口很多。", "埃菲尔铁塔建于1889年。它很高。", "塞纳河流经巴黎。"]
    document = "\n\n".join(chunks)
    marked = in_document(mark_support("铁塔建于1889年", chunks[1]), document)
    before, mark, after = window(marked)
    assert mark == "埃菲尔铁塔建于1889年。"
    assert before == "巴黎是法国的首都。人口很多。\n\n"
    assert after == "它很高。\n\n塞纳河流经巴黎。"
    assert not marked.cut_before and not marked.cut_after


def test_a_long_run_on_sentence_is_cut_at_a_space_with_an_ellipsis():
    long_before = "word " * 300 + "end."
    document = long_before + " Marked café sentence. Short after."
    marked = in_document(
        mark_support("Marked café sentence", document, "Marked café sentence."), document, limit=50
    )
    before, mark, after = window(marked)
    assert mark == "Marked café sentence."
    assert len(before) <= 50 and before.startswith("word") and marked.cut_before
    assert after == " Short after." and not marked.cut_after
    assert marked.html.startswith('<span class="cut" title="The document goes on">… </span>')


def test_combining_characters_stay_whole_and_text_is_escaped():
    document = "Cafe\u0301 <b>one</b>. The e\u0301 claim <i>is</i> here. Tail."
    marked = in_document(mark_support("claim here", "The e\u0301 claim <i>is</i> here."), document)
    assert window(marked)[1] == "The e\u0301 claim <i>is</i> here."
    assert "&lt;i&gt;is&lt;/i&gt;" in marked.html and "<i>" not in marked.html
    assert "Cafe\u0301 &lt;b&gt;one&lt;/b&gt;." in marked.html


def test_a_passage_not_in_the_document_is_shown_in_itself_and_no_mark_is_kept_as_is():
    marked = in_document(mark_support("alpha", "Alpha beta. Gamma."), "A different document.")
    assert marked.text == "Alpha beta. Gamma." and window(marked)[1] == "Alpha beta."
    unmarked = mark_support("zzz", "Nothing shared.")
    assert in_document(unmarked, DOC) is unmarked


def test_nearest_chunks_rank_by_bm25_merge_neighbours_and_count_claim_words():
    facts = [
        Fact("Bananas are yellow. Apples are red.", {}),
        Fact(
            "The tower opened in 1889. It is 330 metres tall. Paris has museums.",
            {"title": "Eiffel Tower"},
        ),
    ]
    claims = ["Here is what I found.", "The Eiffel Tower is 330 metres tall."]
    found = nearest_chunks(claims, [1], facts, k=2)
    assert list(found) == [1]
    best = found[1][0]
    assert best.fact == 1
    # "tall" (second sentence) and the sentence before it merge into one window of the fact.
    assert (
        facts[1].text[best.start : best.end] == "The tower opened in 1889. It is 330 metres tall."
    )
    assert best.bm25 > 0
    # eiffel, tower, metr(es), tall: all stated by the window or its title.
    assert (best.found, best.wanted) == (4, 4)
    assert all(n.fact == 1 for n in found[1])


def test_nearest_chunks_read_a_claim_in_context():
    facts = [Fact("Everest is 8,849 m high.", {}), Fact("Kangchenjunga lies in Nepal.", {})]
    claims = ["Everest is the highest mountain.", "It lies in Nepal and China."]
    found = nearest_chunks(claims, [1], facts, k=1)
    # "It" takes "Everest" from the claim before: the Everest fact outranks nothing at all.
    assert {n.fact for n in found[1]} <= {0, 1}
    assert nearest_chunks(claims, [], facts) == {}
    assert nearest_chunks(claims, [0], []) == {}
    assert nearest_chunks(["Zebras."], [0], facts) == {0: []}


# --- on the page ---------------------------------------------------------------------------------

TEXT = "The Eiffel Tower is 330 m tall 😀. It opened in 1889. Here is what I found."


@pytest.fixture
def eiffel(db):
    """Claim 1 cited (chunk 1 of a three-chunk document), claim 2 uncited, claim 3 no check."""
    chunks = [
        "Paris is in France. The tower stands on the Champ de Mars.",
        "The tower is 330 metres tall. It was finished in March.",
        "It opened to the public in 1889. Millions visit it.",
    ]
    answer = create_answer(
        TEXT,
        references=[
            document_reference("Eiffel Tower", chunks),
            document_reference("Bananas", ["Bananas are yellow."]),
        ],
    )
    facts = [{"factText": text, "attributes": {"title": "Eiffel Tower"}} for text in chunks] + [
        {"factText": "Bananas are yellow.", "attributes": {"title": "Bananas"}}
    ]
    create_check_run(
        answer,
        [
            (*span_of(TEXT, "The Eiffel Tower is 330 m tall 😀."), 0.9, [1]),
            (*span_of(TEXT, "It opened in 1889."), 0.3, []),
            (*span_of(TEXT, "Here is what I found."), None, [], False),
        ],
        facts=facts,
        fact_sources=[
            {"reference": 0, "chunk": 0},
            {"reference": 0, "chunk": 1},
            {"reference": 0, "chunk": 2},
            {"reference": 1, "chunk": 0},
        ],
    )
    return answer


def claim_html(html: str, number: int) -> str:
    start = html.index(f'<li class="claim" id="claim-{number}"')
    end = html.find('<li class="claim" id=', start + 10)
    return html[start : end if end > 0 else len(html)]


@pytest.mark.django_db
def test_a_cited_chunk_shows_its_neighbours_from_the_document(reviewer_client, eiffel):
    html = reviewer_client.get(reverse("review:answer_detail", args=[eiffel.pk])).content.decode()
    cited = claim_html(html, 1)
    assert '<mark class="support">The tower is 330 metres tall.</mark>' in cited
    # The sentences before come from the previous chunk of the same reference.
    assert "Paris is in France. The tower stands on the Champ de Mars.\n\n<mark" in cited
    assert "</mark> It was finished in March.\n\nIt opened to the public in 1889." in cited
    assert "Millions visit it." not in cited


@pytest.mark.django_db
def test_an_uncited_claim_shows_its_nearest_chunks_with_scores(
    reviewer_client, eiffel, monkeypatch
):
    # No model is loaded to show a page: loading one would fail here.
    from groundview.grounding import models

    def no_model(*args, **kwargs):
        raise AssertionError("a model was loaded to render a page")

    monkeypatch.setattr(models.SentenceTransformerEmbedder, "__init__", no_model)
    html = reviewer_client.get(reverse("review:answer_detail", args=[eiffel.pk])).content.decode()
    uncited = claim_html(html, 2)
    assert "No cited chunk · 3 nearest" in uncited
    assert "Nothing in the references was cited for this claim." in uncited
    nearest = uncited.split('<div class="chunk chunk-near">')[1:]
    assert len(nearest) == 3
    # Nearest first: the sentence about 1889, read with "It" as the Eiffel Tower (its title
    # counts as evidence), in its document with the sentences before and after it.
    assert '<mark class="support">It opened to the public in 1889.</mark>' in nearest[0]
    assert "It was finished in March.\n\n<mark" in nearest[0]
    assert "3 of 3 claim words" in nearest[0]
    scores = [float(part.split("BM25 ")[1].split("<")[0]) for part in nearest]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[1]
    # Confirming it as a citation names the reference and chunk it came from, from 1 as the
    # page numbers them (positions 0 and 2).
    assert 'data-cite="1:3"' in nearest[0]
    # A cited claim and one that needs no check get no nearest chunks.
    assert "chunk-near" not in claim_html(html, 1)
    assert "chunk-near" not in claim_html(html, 3)


@pytest.mark.django_db
def test_unchecked_sentences_and_imported_supports_get_evidence_too(reviewer_client):
    text = "The tower is 330 metres tall. Bananas are blue."
    answer = create_answer(
        text,
        references=[
            document_reference("Tower", ["Intro here. The tower is 330 metres tall. More text."])
        ],
        supports=[grounding_support(*span_of(text, "The tower is 330 metres tall."), 0, score=0.8)],
    )
    url = reverse("review:answer_detail", args=[answer.pk])
    imported = reviewer_client.get(url + "?source=imported").content.decode()
    assert (
        'Intro here. <mark class="support">The tower is 330 metres tall.</mark> More text.'
        in imported
    )

    sentences = reviewer_client.get(url + "?source=sentences").content.decode()
    first = claim_html(sentences, 1)
    assert "Not checked yet." in first and "1 nearest" in first
    assert '<mark class="support">The tower is 330 metres tall.</mark>' in first
    # Nothing shares a word with the second sentence: no nearest chunk, no empty block.
    assert "chunk-near" not in claim_html(sentences, 2)


GAPS_TEXT = (
    "The tower is 330 metres tall 🗼. It was designed by Brad Pitt. It was not finished in 1889. "
    "The tower is 500 metres tall. The tower is painted in crème brûlée colours."
)


@pytest.fixture
def gaps_answer(db):
    """Claim 1 cited; claims 2-5 uncited, each for a different reason."""
    chunks = [
        "The tower is 330 metres tall. It was finished in March 1889.",
        "It opened to the public in 1889. Millions visit it every year.",
    ]
    sentences = [
        "The tower is 330 metres tall 🗼.",
        "It was designed by Brad Pitt.",
        "It was not finished in 1889.",
        "The tower is 500 metres tall.",
        "The tower is painted in crème brûlée colours.",
    ]
    answer = create_gaps_answer(GAPS_TEXT, chunks, sentences)
    return answer


@pytest.mark.django_db
def test_an_uncited_claim_says_what_no_reference_states(reviewer_client, gaps_answer):
    html = reviewer_client.get(
        reverse("review:answer_detail", args=[gaps_answer.pk])
    ).content.decode()
    # A cited claim has nothing to explain
    assert "claim-gaps" not in claim_html(html, 1)
    # A name no reference mentions, with the plain word beside it
    pitt = claim_html(html, 2)
    assert (
        '<span class="gap" title="A name none of the references mentions">Brad Pitt</span>' in pitt
    )
    assert '<span class="gap gap-word"' in pitt and ">designed<" in pitt
    # A negation of what the reference states plainly
    assert ">not finished</span>" in claim_html(html, 3)
    # A number the reference states differently, with what it gives instead
    number = claim_html(html, 4)
    assert "500 metres" in number and "(they give 330 metres)" in number
    # Words with combining accents, shown as the claim writes them
    creme = claim_html(html, 5)
    assert ">painted<" in creme and ">crème brûlée colours<" in creme
    assert "not " not in creme.split("claim-gaps")[1].split("</p>")[0]


def test_a_count_stated_about_something_else_is_named_as_such():
    from groundview.review.evidence import claim_gaps

    planets = [
        Fact("Saturn has the most known moons, with 274 confirmed. Jupiter follows with 97.")
    ]
    found = claim_gaps(["Jupiter has the most known moons, with 274 confirmed."], [0], planets)
    assert found[0].elsewhere == ["274"] and not found[0].numbers and not found[0].names


def test_a_year_or_a_place_said_of_another_subject_is_named_as_such():
    from groundview.review.evidence import claim_gaps

    towers = [Fact("The Eiffel Tower opened in 1889 in Paris. The CN Tower opened in 1976.")]
    places = [Fact("The Eiffel Tower is in Paris. The CN Tower is in Toronto.")]
    years = claim_gaps(["The CN Tower opened in 1889."], [0], towers)
    cities = claim_gaps(["The CN Tower is in Paris."], [0], places)
    assert years[0].elsewhere == ["1889"]
    assert cities[0].elsewhere == ["Paris"]


def test_gaps_are_left_out_for_a_claim_every_part_of_which_is_stated():
    from groundview.review.evidence import claim_gaps

    facts = [Fact("The tower is 330 metres tall. It was finished in March 1889.")]
    claims = ["The tower is 330 metres tall.", "It was finished in 1889.", "It cost 7 francs."]
    found = claim_gaps(claims, [0, 1, 2], facts)
    assert set(found) == {2}
    assert found[2].numbers == [("7", [])] and found[2].words == ["cost", "francs"]


def test_a_word_whose_opposite_the_reference_states_is_named_with_it():
    from groundview.review.evidence import claim_gaps

    facts = [Fact("Our Flex plan is flexible: you can change seats every month.")]
    found = claim_gaps(["The Flex plan is inflexible about seats."], [0], facts)
    assert found[0].opposed == [("inflexible", "flexible")]
    # Named once, as an opposite, not again as a word no reference states
    assert "inflexible" not in found[0].words
    html = render_to_string("review/_claim_gaps.html", {"gaps": found[0]})
    assert 'inflexible <span class="gap-instead">(they say flexible)</span>' in html


def test_a_word_the_reference_states_only_negated_is_named_so():
    from groundview.review.evidence import claim_gaps

    facts = [Fact("They are offering a personalised demo and a 30-day trial at no cost.")]
    found = claim_gaps(["They are offering a 30-day trial at cost."], [0], facts)
    assert found[0].denied == ["cost"] and "cost" not in found[0].words
    html = render_to_string("review/_claim_gaps.html", {"gaps": found[0]})
    assert 'cost <span class="gap-instead">(they negate it)</span>' in html


def test_an_amount_per_another_time_is_named_with_its_time():
    from groundview.review.evidence import claim_gaps

    facts = [Fact("The Silver plan costs $40 a year. The Gold plan costs $90 a year.")]
    found = claim_gaps(["The Silver plan costs $40 a month."], [0], facts)
    assert found[0].numbers == [("$40 a month", ["$40 a year", "$90 a year"])]
    # and its "month" is named there, not again as a word no reference states
    assert found[0].words == []
    # A count's chip names its time too, so it never reads "3 (they give 3)"
    albums = claim_gaps(
        ["She releases 3 albums a month."], [0], [Fact("She releases 3 albums a year.")]
    )
    assert albums[0].numbers == [("3 a month", ["3 a year"])] and albums[0].words == []


def test_a_speaker_given_someone_elses_words_and_a_hedge_made_certain_are_named():
    from groundview.review.evidence import claim_gaps

    facts = [
        Fact(
            "Council leader Priya Shah said the vote was a turning point for the city. "
            "Opposition spokesman Gareth Lyle warned that similar projects elsewhere had run "
            "over budget by as much as 40 percent. The trust said the main causes were likely "
            "to be predation by foxes and crows."
        )
    ]
    claims = [
        "Council leader Priya Shah warned that similar projects elsewhere had run over budget by "
        "40 percent.",
        "The trust said predation by foxes and crows was the main cause.",
    ]
    found = claim_gaps(claims, [0, 1], facts)
    assert found[0].speakers == ["Priya Shah"]
    assert found[1].hedged == ["likely"]
    html = render_to_string("review/_claim_gaps.html", {"gaps": found[0]})
    assert 'Priya Shah <span class="gap-instead">(they quote someone else)</span>' in html
    html = render_to_string("review/_claim_gaps.html", {"gaps": found[1]})
    assert 'stated as certain <span class="gap-instead">(they say likely)</span>' in html


def test_a_widened_scope_swapped_roles_and_a_denial_in_other_words_are_named():
    from groundview.review.evidence import claim_gaps

    facts = [
        Fact(
            "Schools in the Aran and Teifion valleys were closed on Monday. Feld will lead the "
            "combined company, and Corvan chief executive Janet Orr will join Brightline's board. "
            "The court did not address Lindahl's separate request to be released on bond."
        )
    ]
    claims = [
        "All schools in the valleys were closed on Monday.",
        "Janet Orr will lead the combined company, while Marcus Feld will join the board.",
        "The court granted Lindahl's request to be released on bond.",
    ]
    found = claim_gaps(claims, [0, 1, 2], facts)
    assert found[0].scope == ["all"]
    assert found[1].swapped == [("Janet Orr", "Marcus Feld")]
    assert found[2].denials == ["not"]
    html = render_to_string("review/_claim_gaps.html", {"gaps": found[0]})
    assert 'all <span class="gap-instead">(they do not say all)</span>' in html
    html = render_to_string("review/_claim_gaps.html", {"gaps": found[2]})
    assert 'stated as fact <span class="gap-instead">(they say not)</span>' in html


def test_a_rank_the_references_give_as_one_of_several_is_named():
    from groundview.review.evidence import claim_gaps

    facts = [Fact("The fire burned 12,000 acres, one of the largest in the state's history.")]
    found = claim_gaps(["It was the largest fire in the state's history."], [0], facts)
    assert found[0].ranked == ["largest"]
    html = render_to_string("review/_claim_gaps.html", {"gaps": found[0]})
    assert 'largest <span class="gap-instead">(they say one of the largest)</span>' in html
