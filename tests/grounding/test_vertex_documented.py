"""Every example of Google's Check Grounding documentation, run through the real engine.

The requests and documented responses live in vertex_documented.json, with their source URLs and
notes where the page contradicts itself. Per example: the same claims (byte spans and text), the
same groundingCheckRequired flags, a citation where Vertex cites and none where it does not (from the
same request fact), and supportScore and documented claim scores within TOLERANCE.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from groundview.grounding import Engine

pytestmark = pytest.mark.model

TOLERANCE = 0.15
DATA = json.loads((Path(__file__).parent / "vertex_documented.json").read_text(encoding="utf-8"))
EXAMPLES = {example["id"]: example for example in DATA["examples"]}

# Where the engine does not reproduce the documentation yet. Strict, so a fix shows up as XPASS and
# the entry has to go.
KNOWN_GAPS: dict[str, str] = {}
IMPLIED_GAPS: dict[str, str] = {}


def with_known_gaps(ids: list[str], gaps: dict[str, str]) -> list[Any]:
    return [
        pytest.param(id_, id=id_, marks=pytest.mark.xfail(strict=True, reason=gaps[id_]))
        if id_ in gaps
        else pytest.param(id_, id=id_)
        for id_ in ids
    ]


def cited_sources(response: dict[str, Any], indices: list[int]) -> set[str]:
    return {response["citedChunks"][i]["source"] for i in indices}


def differences(documented: dict[str, Any], ours: dict[str, Any]) -> list[str]:
    """Every way our response differs from the documented one, in words (empty when it matches)."""
    found = []
    for field in documented.get("sampleTestAsserts", []):
        if not ours.get(field):
            found.append(f"{field}: empty, the sample's test asserts it is set")

    want_score = documented["supportScore"]
    if want_score is not None and abs(ours["supportScore"] - want_score) > TOLERANCE:
        found.append(f"supportScore: ours {ours['supportScore']}, documented {want_score}")

    if documented["citedChunks"] is not None and documented.get("citedChunksChecked", True):
        want = {chunk["source"] for chunk in documented["citedChunks"]}
        got = {chunk["source"] for chunk in ours["citedChunks"]}
        if got != want:
            found.append(f"citedChunks sources: ours {sorted(got)}, documented {sorted(want)}")

    if documented["claims"] is None:
        return found
    spans = [(c.get("startPos", 0), c["endPos"], c["claimText"]) for c in ours["claims"]]
    want_spans = [(c["startPos"], c["endPos"], c["claimText"]) for c in documented["claims"]]
    if spans != want_spans:
        return [*found, f"claims: ours {spans}, documented {want_spans}"]

    for n, (doc, claim) in enumerate(zip(documented["claims"], ours["claims"], strict=True)):
        label = f"claim {n} {claim['claimText']!r}"
        if claim.get("groundingCheckRequired") != doc["groundingCheckRequired"]:
            found.append(
                f"{label}: groundingCheckRequired ours {claim.get('groundingCheckRequired')}, "
                f"documented {doc['groundingCheckRequired']}"
            )
        ours_cited = claim.get("citationIndices", [])
        if not doc["groundingCheckRequired"] and ours_cited:
            found.append(f"{label}: cited {ours_cited}, but no check was required")
        if "citationIndices" in doc:
            if bool(ours_cited) != bool(doc["citationIndices"]):
                found.append(
                    f"{label}: {'cited' if ours_cited else 'uncited'} (score "
                    f"{claim.get('score')}), documented "
                    f"{'cited' if doc['citationIndices'] else 'uncited'}"
                )
            elif ours_cited and doc.get("citationSourceChecked", True):
                got = cited_sources(ours, ours_cited)
                want = {documented["citedChunks"][i]["source"] for i in doc["citationIndices"]}
                if got != want:
                    found.append(f"{label}: cites facts {sorted(got)}, documented {sorted(want)}")
        if "score" in doc and abs(claim["score"] - doc["score"]) > TOLERANCE:
            found.append(f"{label}: score ours {claim['score']}, documented {doc['score']}")
    return found


@pytest.mark.parametrize("example_id", with_known_gaps(list(EXAMPLES), KNOWN_GAPS))
def test_documented_example_is_reproduced(real_engine: Engine, example_id: str) -> None:
    # Given a request exactly as Google's documentation sends it
    example = EXAMPLES[example_id]
    # When our engine checks it
    response = real_engine.check(example["request"])
    # Then the response matches the documented one in every documented respect
    assert differences(example["documented"], response) == [], example["source"]


IMPLIED = [
    example_id
    for example_id, example in EXAMPLES.items()
    if any("impliedScore" in claim for claim in example["documented"]["claims"] or [])
]


@pytest.mark.parametrize("example_id", with_known_gaps(IMPLIED, IMPLIED_GAPS))
def test_claim_score_implied_by_the_documented_support_score(
    real_engine: Engine, example_id: str
) -> None:
    # Given a documented example whose supportScore pins an unprinted claim score (see its notes)
    example = EXAMPLES[example_id]
    request = {
        **example["request"],
        "groundingSpec": {**example["request"]["groundingSpec"], "enableClaimLevelScore": True},
    }
    # When it is checked with claim-level scores on
    claims = real_engine.check(request)["claims"]
    # Then each such claim scores within the tolerance of the implied value
    for doc, claim in zip(example["documented"]["claims"], claims, strict=True):
        if "impliedScore" in doc:
            assert abs(claim["score"] - doc["impliedScore"]) <= TOLERANCE, claim


def test_attributed_claims_rank_as_documented(real_engine: Engine) -> None:
    # Given the page's three claims against "Toronto is the capital of Ontario" (author Wikipedia)
    lower = [
        (example_id, example)
        for example_id, example in EXAMPLES.items()
        if "lowerScoreThan" in example.get("relations", {})
    ]
    assert lower, "vertex_documented.json lost its attribute examples"
    for example_id, example in lower:
        # When each is checked alone
        score = real_engine.check(example["request"])["claims"][0]["score"]
        # Then the one the page calls "not as grounded" scores below the grounded ones
        for other in example["relations"]["lowerScoreThan"]:
            other_score = real_engine.check(EXAMPLES[other]["request"])["claims"][0]["score"]
            assert score < other_score, (example_id, score, other, other_score)
