"""Marking the supporting sentence of a cited chunk."""

from hypothesis import given
from hypothesis import strategies as st

from groundview.review.evidence import best_sentence, mark_support, sentences


@given(st.text(max_size=200))
def test_sentences_are_ordered_disjoint_trimmed_ranges_of_the_text(text):
    ranges = sentences(text)
    previous_end = 0
    for start, end in ranges:
        assert previous_end <= start < end <= len(text)
        assert not text[start].isspace() and not text[end - 1].isspace()
        previous_end = end


def test_the_sentence_sharing_most_words_with_the_claim_is_marked():
    chunk = "Paris has many museums. The Eiffel Tower is 330 metres tall. It opened in 1889."
    marked = mark_support("The Eiffel Tower is 330 m tall.", chunk)
    assert chunk[slice(*marked.mark)] == "The Eiffel Tower is 330 metres tall."
    assert '<mark class="support">The Eiffel Tower is 330 metres tall.</mark>' in marked.html


def test_the_mark_widens_to_a_neighbour_that_backs_another_part_of_the_claim():
    chunk = (
        "To export a notebook, open it and choose File > Export > PDF. The export includes every "
        "page of the notebook, in order. Shared notebooks keep their owner."
    )
    claim = (
        "Open the notebook and choose File > Export > PDF; the PDF contains every page in order."
    )
    marked = mark_support(claim, chunk)
    assert chunk[slice(*marked.mark)] == (
        "To export a notebook, open it and choose File > Export > PDF. The export includes every "
        "page of the notebook, in order."
    )
    # One shared word ("notebook") is not enough to widen over.
    marked = mark_support("The export includes every page of the notebook, in order.", chunk)
    assert chunk[slice(*marked.mark)] == "The export includes every page of the notebook, in order."


def test_cjk_sentences_split_at_full_stops():
    chunk = "巴黎是法国的首都。埃菲尔铁塔建于1889年。"
    assert chunk[slice(*best_sentence("铁塔建于1889年", chunk))] == "埃菲尔铁塔建于1889年。"


def test_the_checkers_cited_text_wins_when_it_is_in_the_chunk():
    chunk = "Alpha beta. Gamma delta."
    marked = mark_support("Alpha beta", chunk, cited="Gamma delta.")
    assert chunk[slice(*marked.mark)] == "Gamma delta."


def test_no_overlap_marks_nothing_and_text_is_escaped():
    marked = mark_support("zzz", "<b>bold</b> text.")
    assert marked.mark is None
    assert marked.html == "&lt;b&gt;bold&lt;/b&gt; text."
