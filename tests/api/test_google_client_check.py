"""Google's own client against groundview, and Check Grounding bodies in every proto3 JSON form.

`google-cloud-discoveryengine`'s REST transport is pointed at the live test server: the
`api_endpoint` carries the `http://` scheme (the transport keeps a scheme it is given and adds
https:// only when there is none), and the credentials are
`google.oauth2.credentials.Credentials(token=<groundview API token>)`, a plain access token that
the transport sends as `Authorization: Bearer <token>` and never tries to refresh. Nothing else is
needed: no Google project, no ADC, no https. What is asserted is what Google's code parsed out of
groundview's JSON, not what our code thinks it wrote.
"""

from __future__ import annotations

import json

import pytest
from google.api_core import exceptions as google_exceptions
from google.cloud import discoveryengine_v1 as de
from google.cloud import discoveryengine_v1beta as de_beta
from google.oauth2.credentials import Credentials
from google.protobuf import json_format

from groundview.api.models import ApiToken
from groundview.grounding import parse_request
from tests.factories import ENGINE, import_documents, paris_document

from .test_vertex import assert_invalid, check

CONFIG = "projects/p1/locations/global/groundingConfigs/default_grounding_config"
ANSWER = "Das Café 🇫🇷 liegt in Paris. 東京は日本の首都です。Let me know if you need more."
# Byte offsets, as Vertex and groundview give them.
FIRST = len("Das Café 🇫🇷 liegt in Paris. ".encode())
SECOND = FIRST + len("東京は日本の首都です。".encode())

# A response with every field the client parses, and values that are easy to get wrong: a float
# that float32 cannot hold exactly, non-ASCII claim text, byte offsets past multi-byte characters,
# a claim without citations or score.
CANNED = {
    "supportScore": 0.8125,
    "citedChunks": [
        {"chunkText": "Das Café liegt in Paris.", "source": "0"},
        {"chunkText": "東京は日本の首都である。", "source": "1"},
    ],
    "citedFacts": [{"chunkText": "Das Café liegt in Paris."}],
    "claims": [
        {
            "startPos": 0,
            "endPos": FIRST - 1,
            "claimText": "Das Café 🇫🇷 liegt in Paris.",
            "citationIndices": [0],
            "groundingCheckRequired": True,
            "score": 0.9,
        },
        {
            "startPos": FIRST,
            "endPos": SECOND,
            "claimText": "東京は日本の首都です。",
            "citationIndices": [1],
            "groundingCheckRequired": True,
            "score": 0.725,
        },
        {
            "startPos": SECOND,
            "endPos": len(ANSWER.encode()),
            "claimText": "Let me know if you need more.",
            "groundingCheckRequired": False,
        },
    ],
}


class RecordingEngine:
    """Answers CANNED and keeps each payload the view handed over, to compare forms."""

    def __init__(self):
        self.payloads = []
        self.requests = []

    def check(self, payload):
        # The real engine's validation, so its 400s happen too; the parsed request is what the
        # engine would check, whatever form the body had.
        self.requests.append(parse_request(payload))
        self.payloads.append(payload)
        return CANNED


@pytest.fixture
def engine(monkeypatch):
    recording = RecordingEngine()
    monkeypatch.setattr("groundview.api.vertex.engine", lambda: recording)
    return recording


def client_for(module, service: str, live_server, token: str):
    client_class = getattr(module, service)
    return client_class(
        transport="rest",
        client_options={"api_endpoint": live_server.url},
        credentials=Credentials(token=token),
    )


@pytest.fixture
def token(transactional_db, reviewer):
    return ApiToken.issue(reviewer, "google client")[1]


def grounding_request(module):
    return module.CheckGroundingRequest(
        grounding_config=CONFIG,
        answer_candidate=ANSWER,
        facts=[
            module.GroundingFact(
                fact_text="Das Café liegt in Paris.", attributes={"author": "Wikipedia"}
            ),
            module.GroundingFact(fact_text="東京は日本の首都である。"),
        ],
        grounding_spec=module.CheckGroundingSpec(citation_threshold=0.6),
    )


# --- Google's client, live ----------------------------------------------------------------------


@pytest.mark.parametrize("module", [de, de_beta], ids=["v1", "v1beta"])
def test_googles_rest_client_parses_check_grounding(live_server, token, engine, module):
    client = client_for(module, "GroundedGenerationServiceClient", live_server, token)
    request = grounding_request(module)
    if module is de:
        request.grounding_spec.enable_claim_level_score = True

    response = client.check_grounding(request=request)

    # What the client sent (the config travels in the URL) reached the engine, nothing lost.
    assert engine.payloads == [
        {
            "answerCandidate": ANSWER,
            "facts": [
                {"factText": "Das Café liegt in Paris.", "attributes": {"author": "Wikipedia"}},
                {"factText": "東京は日本の首都である。"},
            ],
            "groundingSpec": {"citationThreshold": 0.6}
            | ({"enableClaimLevelScore": True} if module is de else {}),
        }
    ]
    # supportScore is a float in the proto: float32 holds 0.8125 exactly.
    assert response.support_score == 0.8125
    assert [(c.chunk_text, c.source) for c in response.cited_chunks] == [
        ("Das Café liegt in Paris.", "0"),
        ("東京は日本の首都である。", "1"),
    ]
    assert [c.chunk_text for c in response.cited_facts] == ["Das Café liegt in Paris."]
    claims = response.claims
    assert [(c.start_pos, c.end_pos) for c in claims] == [
        (0, FIRST - 1),
        (FIRST, SECOND),
        (SECOND, len(ANSWER.encode())),
    ]
    assert [c.claim_text for c in claims] == [claim["claimText"] for claim in CANNED["claims"]]
    assert [list(c.citation_indices) for c in claims] == [[0], [1], []]
    assert [c.grounding_check_required for c in claims] == [True, True, False]
    assert claims[0].score == pytest.approx(0.9) and claims[1].score == pytest.approx(0.725)
    assert not type(claims[2]).pb(claims[2]).HasField("score")
    for claim in claims:
        assert (
            ANSWER.encode()[claim.start_pos : claim.end_pos].decode().startswith(claim.claim_text)
        )


@pytest.mark.model
def test_googles_rest_client_with_the_real_engine(live_server, token):
    client = client_for(de, "GroundedGenerationServiceClient", live_server, token)

    response = client.check_grounding(
        request=de.CheckGroundingRequest(
            grounding_config=CONFIG,
            answer_candidate="Titanic was directed by James Cameron. It was released in 1997.",
            facts=[
                de.GroundingFact(
                    fact_text="Titanic is a 1997 American epic romance film directed by James Cameron.",
                    attributes={"author": "Wikipedia"},
                )
            ],
            grounding_spec=de.CheckGroundingSpec(
                citation_threshold=0.6, enable_claim_level_score=True
            ),
        )
    )

    assert 0 < response.support_score <= 1
    assert [c.claim_text.strip() for c in response.claims] == [
        "Titanic was directed by James Cameron.",
        "It was released in 1997.",
    ]
    first = response.claims[0]
    assert first.start_pos == 0 and first.grounding_check_required
    assert list(first.citation_indices)
    assert response.cited_chunks[first.citation_indices[0]].source == "0"


@pytest.mark.model
def test_googles_client_may_send_an_empty_answer_and_a_fact_of_attributes_alone(live_server, token):
    # Its REST transport leaves out every string that is "": the body has no answerCandidate
    # and a fact with no factText, which proto3 JSON reads as "".
    client = client_for(de, "GroundedGenerationServiceClient", live_server, token)
    fact = de.GroundingFact(fact_text="", attributes={"author": "Wikipedia"})

    empty = client.check_grounding(
        request=de.CheckGroundingRequest(grounding_config=CONFIG, facts=[fact])
    )
    checked = client.check_grounding(
        request=de.CheckGroundingRequest(
            grounding_config=CONFIG,
            answer_candidate="Paris is in France.",
            facts=[fact, de.GroundingFact(fact_text="Paris is the capital of France.")],
        )
    )

    assert list(empty.claims) == []
    assert [c.claim_text for c in checked.claims] == ["Paris is in France."]
    assert [c.source for c in checked.cited_chunks] == ["1"]


def test_googles_client_gets_answers_and_sessions_and_a_missing_one_is_not_found(
    live_server, token
):
    import_documents([paris_document("g1", text="Paris is the capital of France. 🇫🇷")])
    client = client_for(de, "ConversationalSearchServiceClient", live_server, token)

    answer = client.get_answer(name=f"{ENGINE}/sessions/s1/answers/g1")
    session = client.get_session(name=f"{ENGINE}/sessions/s1")

    assert answer.answer_text == "Paris is the capital of France. 🇫🇷"
    assert answer.state == de.Answer.State.SUCCEEDED
    assert answer.citations[0].end_index == 31
    assert answer.references[0].unstructured_document_info.title == "Paris"
    assert [turn.answer for turn in session.turns] == [f"{ENGINE}/sessions/s1/answers/g1"]
    with pytest.raises(google_exceptions.NotFound):
        client.get_answer(name=f"{ENGINE}/sessions/s1/answers/missing")


@pytest.mark.parametrize(
    "data_store",
    [
        "projects/p1/locations/global/dataStores/ds1",
        "projects/p1/locations/global/collections/default_collection/dataStores/ds1",
    ],
)
def test_googles_client_gets_an_answer_of_a_data_store_named_either_way(
    live_server, token, data_store
):
    name = f"{data_store}/sessions/s9/answers/d1"
    import_documents([paris_document(name=name)])
    client = client_for(de, "ConversationalSearchServiceClient", live_server, token)

    answer = client.get_answer(name=name)
    session = client.get_session(name=f"{data_store}/sessions/s9")

    assert answer.name == name
    assert [turn.answer for turn in session.turns] == [name]


def test_googles_client_sees_a_wrong_type_as_invalid_argument(live_server, token, engine):
    # The client cannot send a wrong type itself; the server's 400 for one must still be an
    # error the client maps (Google's body), so a raw request sends it through the same session.
    client = client_for(de, "GroundedGenerationServiceClient", live_server, token)
    session = client._transport._session
    response = session.post(
        f"{live_server.url}/v1/{CONFIG}:check", json={"answer_candidate": ["not", "text"]}
    )

    error = google_exceptions.from_http_response(response)
    assert isinstance(error, google_exceptions.BadRequest)
    assert "answer_candidate" in error.message
    assert engine.payloads == []


# --- every proto3 JSON form of the request ------------------------------------------------------


CAMEL_CASE = {
    "groundingConfig": CONFIG,
    "answerCandidate": ANSWER,
    "facts": [
        {"factText": "Das Café liegt in Paris.", "attributes": {"author": "Wikipedia"}},
        {"factText": "東京は日本の首都である。", "attributes": {}},
    ],
    "groundingSpec": {"citationThreshold": 0.6, "enableClaimLevelScore": True},
}


def forms_written_by_the_library():
    request = grounding_request(de)
    request.grounding_spec.enable_claim_level_score = True
    message = de.CheckGroundingRequest.pb(request)
    return {
        "to_json": de.CheckGroundingRequest.to_json(request),
        "to_json snake_case": de.CheckGroundingRequest.to_json(
            request, preserving_proto_field_name=True
        ),
        "to_dict": json.dumps(de.CheckGroundingRequest.to_dict(request)),
        "MessageToJson ints for enums": json_format.MessageToJson(
            message, use_integers_for_enums=True
        ),
    }


@pytest.mark.parametrize("form", sorted(forms_written_by_the_library()))
def test_every_form_the_library_writes_reaches_the_engine_as_the_rest_form(
    reviewer_client, engine, form
):
    body = forms_written_by_the_library()[form]

    response = check(reviewer_client, body)

    assert response.status_code == 200, response.content
    # The same request, whether defaults are written out (to_dict: `"attributes": {}`) or not.
    assert engine.requests == [parse_request(CAMEL_CASE)]
    assert "answer_candidate" not in engine.payloads[0]


def test_snake_case_nulls_and_numeric_strings_read_as_proto3_json_says(reviewer_client, engine):
    body = {
        "answer_candidate": "Paris.",
        "facts": [{"fact_text": "Paris is in France.", "attributes": None}],
        "grounding_spec": {"citation_threshold": "0.25", "enable_claim_level_score": None},
        "user_labels": None,
        "grounding_config": None,
    }

    response = check(reviewer_client, body)

    assert response.status_code == 200, response.content
    assert engine.payloads == [
        {
            "answerCandidate": "Paris.",
            "facts": [{"factText": "Paris is in France."}],
            "groundingSpec": {"citationThreshold": 0.25},
        }
    ]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"answer_candidate": 5}, "answer_candidate: must be a string, not a number"),
        ({"answerCandidate": "x", "facts": [None]}, "facts[0]: must not be null"),
        ({"answerCandidate": "x", "facts": {"factText": "y"}}, "facts: must be an array"),
        (
            {"answerCandidate": "x", "facts": [{"fact_text": ["y"]}]},
            "facts[0].fact_text: must be a string, not an array",
        ),
        (
            {"answerCandidate": "x", "facts": [{"factText": "y", "attributes": {"year": 1997}}]},
            "facts[0].attributes.year: must be a string, not a number",
        ),
        (
            {"answerCandidate": "x", "grounding_spec": {"citation_threshold": True}},
            "grounding_spec.citation_threshold: must be a number, not a boolean",
        ),
        (
            {"answerCandidate": "x", "grounding_spec": {"citation_threshold": "NaN"}},
            "grounding_spec.citation_threshold: must be a finite number",
        ),
        (
            {"answerCandidate": "x", "groundingSpec": {"enable_claim_level_score": "true"}},
            "groundingSpec.enable_claim_level_score: must be a boolean, not a string",
        ),
        (
            {"answerCandidate": "x", "grounding_spec": "strict"},
            "grounding_spec: must be an object, not a string",
        ),
        ({"answerCandidate": "x", "answer_candidate": "y"}, "answer_candidate: is given twice"),
        ({"answerCandidate": "x", "user_labels": {"k": 1}}, "user_labels.k: must be a string"),
        ({"answerCandidate": "x", "factz": []}, 'Unknown name "factz"'),
    ],
)
def test_a_wrong_type_in_any_form_is_a_400_naming_the_field_as_written(
    reviewer_client, engine, body, message
):
    error = assert_invalid(check(reviewer_client, body), message.split(":")[0].split(" ")[-1])

    assert message in error
    assert engine.payloads == []
