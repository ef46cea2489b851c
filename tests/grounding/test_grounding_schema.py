"""Request validation: every limit in groundview/grounding/README.md is a 400-style RequestError naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from groundview.grounding import Engine, RequestError, parse_request
from groundview.grounding.schema import MAX_ANSWER_TOKENS, count_tokens


def request(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"answerCandidate": "Paris is the capital of France.", "facts": []}
    body.update(overrides)
    return body


def error_for(payload: Any) -> RequestError:
    with pytest.raises(RequestError) as info:
        parse_request(payload)
    return info.value


def test_200_facts_accepted_and_201_rejected(engine: Engine) -> None:
    # Given 200 facts, when checked, then it works
    facts = [{"factText": f"Fact number {i} is about Paris."} for i in range(200)]
    response = engine.check(request(facts=facts))
    assert "supportScore" in response
    # Given 201 facts, then a RequestError names the facts field
    with pytest.raises(RequestError) as info:
        engine.check(request(facts=[*facts, {"factText": "one too many"}]))
    assert info.value.field == "facts"
    assert info.value.message == "facts: at most 200 facts are allowed, got 201"


def test_more_facts_where_allowed_within_the_same_characters_in_all() -> None:
    # The CLI allows more facts than the API: a page sent one sentence per fact
    sentences = [{"factText": f"Sentence {i} of the page."} for i in range(1200)]
    assert len(parse_request(request(facts=sentences), max_facts=5000).facts) == 1200
    with pytest.raises(RequestError) as info:
        parse_request(request(facts=sentences), max_facts=1000)
    assert info.value.message == "facts: at most 1000 facts are allowed, got 1200"
    # but no more characters than 200 full facts hold
    full = [{"factText": "a" * 10_000}] * 200
    parse_request(request(facts=full), max_facts=5000)
    with pytest.raises(RequestError) as info:
        parse_request(request(facts=[*full, {"factText": "one more"}]), max_facts=5000)
    assert info.value.field == "facts"
    assert info.value.message == ("facts: must hold at most 2000000 characters in all, got 2000008")


def test_fact_text_over_10000_characters_is_rejected() -> None:
    ok = [{"factText": "a" * 10_000}]
    parse_request(request(facts=ok))
    err = error_for(request(facts=[{"factText": "x"}, {"factText": "é" * 10_001}]))
    assert err.field == "facts[1].factText"
    assert err.message == "facts[1].factText: must be at most 10000 characters, got 10001"
    # The CLI takes a whole article as one fact
    article = [{"factText": "é" * 50_000}]
    assert (
        parse_request(request(facts=article), max_fact_chars=2_000_000).facts[0].text
        == "é" * 50_000
    )


def test_answer_over_4096_tokens_is_rejected() -> None:
    # 4095 words + one full stop = 4096 tokens: allowed; one more word is not.
    parse_request(request(answerCandidate="word " * 4095 + "."))
    err = error_for(request(answerCandidate="word " * 4096 + "."))
    assert err.field == "answerCandidate"
    assert err.message == "answerCandidate: must be at most 4096 tokens long, got 4097"


@pytest.mark.parametrize(
    "answer",
    ["x" * 40_961, "One sentence. " + "🎬 " * 20_481],
    ids=["one long word", "emoji"],
)
def test_an_answer_over_40960_characters_is_rejected_whatever_its_words(answer: str) -> None:
    # Few "tokens" each, as words are counted; far more than Vertex's 4096 of its own tokens.
    assert count_tokens(answer) <= MAX_ANSWER_TOKENS
    err = error_for(request(answerCandidate=answer))
    assert err.field == "answerCandidate"
    assert err.message == (
        f"answerCandidate: must be at most 40960 characters long, got {len(answer)}"
    )
    parse_request(request(answerCandidate=answer[:40_960]))


def test_cjk_characters_count_as_tokens() -> None:
    err = error_for(request(answerCandidate="字" * 4097))
    assert err.field == "answerCandidate"


def test_citation_threshold_accepts_numbers_and_numeric_strings() -> None:
    assert (
        parse_request(request(groundingSpec={"citationThreshold": "0.8"})).citation_threshold == 0.8
    )
    assert parse_request(request(groundingSpec={"citationThreshold": 1})).citation_threshold == 1.0
    assert parse_request(request(groundingSpec={})).citation_threshold == 0.6
    assert (
        parse_request(request(grounding_spec={"citation_threshold": 0.3})).citation_threshold == 0.3
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (1.5, "groundingSpec.citationThreshold: must be in [0, 1], got 1.5"),
        (-0.1, "groundingSpec.citationThreshold: must be in [0, 1], got -0.1"),
        (
            "high",
            "groundingSpec.citationThreshold: must be a number in [0, 1], got the string 'high'",
        ),
        (True, "groundingSpec.citationThreshold: must be a number in [0, 1], got boolean"),
        (None, None),
        ([0.5], "groundingSpec.citationThreshold: must be a number in [0, 1], got array"),
        ("nan", "groundingSpec.citationThreshold: must be in [0, 1], got 'nan'"),
    ],
)
def test_bad_citation_threshold_is_rejected(value: Any, message: str | None) -> None:
    payload = request(groundingSpec={"citationThreshold": value})
    if message is None:  # null means unset
        assert parse_request(payload).citation_threshold == 0.6
        return
    err = error_for(payload)
    assert err.field == "groundingSpec.citationThreshold"
    assert err.message == message


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ([], "", "the request body must be a JSON object, got array"),
        (
            {"answerCandidate": 5},
            "answerCandidate",
            "answerCandidate: must be a string, got number",
        ),
        (request(facts={"a": 1}), "facts", "facts: must be an array of facts, got object"),
        (request(facts=["text"]), "facts[0]", "facts[0]: must be an object, got string"),
        (
            request(facts=[{"factText": "x"}, {"factText": ["x"]}]),
            "facts[1].factText",
            "facts[1].factText: must be a string, got array",
        ),
        (
            request(facts=[{"factText": "x", "attributes": {"author": 3}}]),
            "facts[0].attributes.author",
            "facts[0].attributes.author: must be a string, got number",
        ),
        (
            request(facts=[{"factText": "x", "attributes": "Wikipedia"}]),
            "facts[0].attributes",
            "facts[0].attributes: must be an object of string values, got string",
        ),
        (
            request(groundingSpec=0.5),
            "groundingSpec",
            "groundingSpec: must be an object, got number",
        ),
        (
            request(groundingSpec={"enableClaimLevelScore": "yes"}),
            "groundingSpec.enableClaimLevelScore",
            "groundingSpec.enableClaimLevelScore: must be true or false, got string",
        ),
        (
            request(colour="red"),
            "colour",
            'colour: Invalid JSON payload received. Unknown name "colour": Cannot find field.',
        ),
        (request(answerCandidate="\ud800"), "answerCandidate", None),
    ],
)
def test_wrong_types_name_the_field(payload: Any, field: str, message: str | None) -> None:
    err = error_for(payload)
    assert err.field == field
    if message is not None:
        assert err.message == message


def test_user_labels_rules() -> None:
    ok = {"team": "search", "env_1": "", "é-tag": "wert", "日本": "値"}
    assert parse_request(request(userLabels=ok)).user_labels == ok

    err = error_for(request(userLabels={f"k{i}": "v" for i in range(65)}))
    assert err.message == "userLabels: at most 64 labels are allowed, got 65"
    parse_request(request(userLabels={f"k{i}": "v" for i in range(64)}))

    err = error_for(request(userLabels={"": "v"}))
    assert err.message == "userLabels: label keys must be 1-63 characters long, got 0"
    err = error_for(request(userLabels={"k" * 64: "v"}))
    assert err.field == f"userLabels.{'k' * 64}"
    assert err.message.endswith("label keys must be 1-63 characters long, got 64")
    err = error_for(request(userLabels={"1abc": "v"}))
    assert err.message == (
        "userLabels.1abc: label key '1abc' must start with a lowercase letter or international character"
    )
    err = error_for(request(userLabels={"Team": "v"}))
    assert err.field == "userLabels.Team"
    err = error_for(request(userLabels={"team name": "v"}))
    assert "may contain only lowercase letters, digits, underscores and dashes" in err.message
    err = error_for(request(userLabels={"team": "v" * 64}))
    assert err.message == "userLabels.team: label values must be at most 63 characters, got 64"
    err = error_for(request(userLabels={"team": "Search"}))
    assert err.message == (
        "userLabels.team: label value 'Search' may contain only lowercase letters, digits, "
        "underscores and dashes"
    )
    err = error_for(request(userLabels=["team"]))
    assert err.field == "userLabels"


def test_error_json_is_google_style() -> None:
    err = error_for(request(facts=[{"factText": 1}]))
    assert err.to_json() == {
        "error": {
            "code": 400,
            "message": "facts[0].factText: must be a string, got number",
            "status": "INVALID_ARGUMENT",
        }
    }


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"answerCandidate": None, "facts": [{"attributes": {"author": "x"}}]},
        {"answer_candidate": "", "facts": [{"fact_text": None}]},
    ],
)
def test_an_absent_or_null_string_is_the_empty_one(payload: Any) -> None:
    # proto3 JSON: Google's REST client leaves out a string that is "", so "" and absent agree.
    parsed = parse_request(payload)

    assert parsed.answer == ""
    assert [fact.text for fact in parsed.facts] == [""] * len(payload.get("facts", []))
