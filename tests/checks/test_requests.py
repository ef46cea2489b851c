"""The Check Grounding request built from a stored answer, and the map from fact index to source."""

import pytest

from groundview.answers import checks
from groundview.answers.checks.requests import citation_name, cited_source
from tests.factories import create_answer

pytestmark = pytest.mark.django_db

REFERENCES = [
    {
        "unstructuredDocumentInfo": {
            "document": "projects/1/documents/paris",
            "uri": "https://example.org/paris",
            "title": "Paris 🗼",
            "chunkContents": [
                {"content": "Paris is the capital of France.", "pageIdentifier": "3"},
                {"content": "   "},
                {"content": "巴黎是法国的首都。"},
            ],
        }
    },
    {
        "chunkInfo": {
            "chunk": "projects/1/chunks/c9",
            "content": "Paris has 2.1 million inhabitants.",
            "documentMetadata": {"title": "Population", "uri": "https://example.org/pop"},
        }
    },
    {
        "structuredDocumentInfo": {
            "document": "projects/1/documents/row7",
            "structData": {"city": "Paris", "population": 2100000, "tags": ["capital"]},
        }
    },
]

STEPS = [
    {
        "state": "SUCCEEDED",
        "actions": [
            {
                "searchAction": {"query": "paris"},
                "observation": {
                    "searchResults": [
                        {
                            "document": "projects/1/documents/paris",
                            "title": "Paris 🗼",
                            "snippetInfo": [
                                # Same text as a reference chunk once the HTML is gone: left out.
                                {"snippet": "<b>Paris</b> is the capital of   France."},
                                {"snippet": "The Seine flows through &quot;Paris&quot;."},
                            ],
                            "chunkInfo": [{"content": "Café de Flore opened in 1887."}],
                        }
                    ]
                },
            }
        ],
    }
]


def test_facts_come_from_references_then_unseen_observations(settings):
    answer = create_answer("Paris is the capital of France.", references=REFERENCES, steps=STEPS)

    request, sources = checks.prepare_request(answer)

    assert request["answerCandidate"] == "Paris is the capital of France."
    assert request["groundingSpec"] == {
        "citationThreshold": settings.GROUNDING["DEFAULT_CITATION_THRESHOLD"],
        "enableClaimLevelScore": True,
    }
    assert [fact["factText"] for fact in request["facts"]] == [
        "Paris is the capital of France.",
        "巴黎是法国的首都。",
        "Paris has 2.1 million inhabitants.",
        'city: Paris\npopulation: 2100000\ntags: ["capital"]',
        'The Seine flows through "Paris".',
        "Café de Flore opened in 1887.",
    ]
    assert [fact["attributes"] for fact in request["facts"]] == [
        {
            "title": "Paris 🗼",
            "uri": "https://example.org/paris",
            "document": "projects/1/documents/paris",
            "pageIdentifier": "3",
        },
        {
            "title": "Paris 🗼",
            "uri": "https://example.org/paris",
            "document": "projects/1/documents/paris",
        },
        {"title": "Population", "uri": "https://example.org/pop"},
        {"document": "projects/1/documents/row7"},
        {"title": "Paris 🗼", "document": "projects/1/documents/paris"},
        {"title": "Paris 🗼", "document": "projects/1/documents/paris"},
    ]
    observed = {"step": 0, "action": 0, "result": 0}
    assert sources == [
        {"reference": 0, "chunk": 0},
        {"reference": 0, "chunk": 2},
        {"reference": 1, "chunk": None},
        {"reference": 2, "chunk": None},
        {"reference": None, "chunk": None, "observation": observed | {"snippet": 1}},
        {"reference": None, "chunk": None, "observation": observed | {"chunk": 0}},
    ]
    assert checks.build_request(answer) == request


def test_an_answer_without_references_has_no_facts():
    answer = create_answer("Nothing to ground here.", references=[])

    assert checks.build_request(answer)["facts"] == []


def test_long_texts_are_split_and_facts_capped_at_the_engines_limits():
    long_text = ("word " * 4_500).strip()  # 22,499 characters
    references = [{"chunkInfo": {"content": long_text}}] + [
        {"chunkInfo": {"content": f"fact number {i}"}} for i in range(250)
    ]
    answer = create_answer("A long one.", references=references)

    request, sources = checks.prepare_request(answer)

    texts = [fact["factText"] for fact in request["facts"]]
    assert len(texts) == 200 == len(sources)
    assert all(len(text) <= 10_000 for text in texts)
    # The pieces of the long chunk rebuild it, and all map back to reference 0.
    assert " ".join(texts[:3]) == long_text
    assert sources[:3] == [{"reference": 0, "chunk": None}] * 3
    assert sources[3] == {"reference": 1, "chunk": None}
    assert texts[-1] == "fact number 196"


def test_the_engines_limits_follow_the_grounding_settings(settings):
    settings.GROUNDING = {**settings.GROUNDING, "MAX_FACTS": 300, "MAX_FACT_CHARS": 2_000}
    sentences = " ".join(f"Sentence {i} of the manual." for i in range(200))  # 5,289 characters
    references = [{"chunkInfo": {"content": sentences}}] + [
        {"chunkInfo": {"content": f"fact number {i}"}} for i in range(400)
    ]
    answer = create_answer("A long one.", references=references)

    texts = [fact["factText"] for fact in checks.build_request(answer)["facts"]]

    assert len(texts) == 300
    # Cut where sentences end, within the configured characters
    assert [len(t) <= 2_000 and t.endswith("of the manual.") for t in texts[:3]] == [True] * 3
    assert " ".join(texts[:3]) == sentences
    assert texts[-1] == "fact number 296"


def test_facts_stay_within_the_characters_a_request_may_hold(settings):
    settings.GROUNDING = {**settings.GROUNDING, "MAX_FACTS": 300}
    page = ("The museum shows pottery from the coast. " * 244).strip()  # 10,003 characters
    references = [{"chunkInfo": {"content": page[:9_990]}} for _ in range(300)]
    answer = create_answer("A big one.", references=references)

    texts = [fact["factText"] for fact in checks.build_request(answer)["facts"]]

    # 300 facts are allowed, but the engine takes 2,000,000 characters in all: the check runs on
    # the 200 facts that fit instead of failing
    assert len(texts) == 200
    assert sum(len(t) for t in texts) == 1_998_000


@pytest.mark.parametrize(
    ("chunk", "expected"),
    [
        ({"source": "0"}, "0:2"),
        ({"source": "1"}, "3"),
        ({"source": "2"}, None),  # a search result seen in the steps
        ({"source": "-1"}, None),  # not the last source
        ({"source": "9"}, None),
        ({"source": "x"}, None),
        ({}, None),
        ("not a chunk", None),
    ],
)
def test_a_cited_chunk_names_the_reference_its_fact_came_from(chunk, expected):
    sources = [{"reference": 0, "chunk": 2}, {"reference": 3, "chunk": None}, {"reference": None}]

    source = cited_source(chunk, sources)

    assert (citation_name(source) if source else None) == expected
