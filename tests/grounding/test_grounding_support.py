"""Every part of a claim backed: context resolution, numbers with units, sub-claims, citations."""

from __future__ import annotations

from groundview.grounding import Engine
from groundview.grounding.context import resolve
from groundview.grounding.lexical import analyse, numbers_match
from groundview.grounding.support import subclaims


def test_a_leading_pronoun_takes_the_previous_subject_for_scoring() -> None:
    texts = [
        "Titanic is a 1997 film directed by James Cameron.",
        "It was based on the sinking of the RMS Titanic.",
        "Its budget was 200 million dollars.",
    ]
    assert resolve(texts) == [
        texts[0],
        "Titanic was based on the sinking of the RMS Titanic.",
        "Titanic's budget was 200 million dollars.",
    ]
    assert resolve(["Acme Corp was founded in 1990.", "The company employs 50 people."])[1] == (
        "Acme Corp employs 50 people."
    )
    assert resolve(["谷歌成立于1998年。", "它的总部在加州！"])[1] == "谷歌的总部在加州！"


def test_a_pronoun_with_nothing_before_it_is_left_alone() -> None:
    assert resolve(["It was a sunny day."]) == ["It was a sunny day."]


def test_numbers_with_different_units_do_not_match() -> None:
    claim = analyse("Each attachment can be up to 100 MB.").numbers[0]
    fact = analyse("Workspaces include 100 GB of storage; attachments up to 50 MB.").numbers
    assert [numbers_match(claim, n) for n in fact] == [False, False]
    assert numbers_match(claim, analyse("a limit of 100 MB").numbers[0])


def test_a_compound_claim_splits_into_its_parts() -> None:
    parts = subclaims("Google was founded in 1998 by Larry Page, and it employs 180,000 people.")
    assert len(parts) == 2
    assert "1998" not in " ".join(parts[1].stems)


def test_the_claim_in_context_finds_its_support(engine: Engine) -> None:
    # Given a second claim that names its subject only by "It"
    response = engine.check(
        {
            "answerCandidate": "The Eiffel Tower is in Paris. It is 330 metres tall.",
            "facts": [{"factText": "The Eiffel Tower is 330 metres tall."}],
            "groundingSpec": {"enableClaimLevelScore": True},
        }
    )
    # Then it is cited, and its span is still the original text's
    second = response["claims"][1]
    assert second["claimText"] == "It is 330 metres tall."
    assert second["citationIndices"] == [0]


def test_one_source_that_backs_everything_is_cited_alone(engine: Engine) -> None:
    # Given two facts, the second of which alone backs every part of the claim
    response = engine.check(
        {
            "answerCandidate": "The Eiffel Tower in Paris is 330 metres tall.",
            "facts": [
                {"factText": "Paris is the capital of France."},
                {"factText": "The Eiffel Tower in Paris is 330 metres tall."},
            ],
        }
    )
    cited = response["claims"][0]["citationIndices"]
    assert [response["citedChunks"][i]["source"] for i in cited] == ["1"]
