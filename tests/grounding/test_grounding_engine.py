"""The engine's request -> response contract, with a fake embedder (no model load)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from groundview.grounding import Engine, EngineConfig, RequestError, get_engine
from groundview.grounding.context import needs_antecedent

ROOT = Path(__file__).resolve().parents[2]

FACTS = [
    {
        "factText": "The Eiffel Tower is 330 metres tall. It was completed in 1889 in Paris.",
        "attributes": {"title": "Eiffel Tower", "author": "Wikipedia"},
    },
    {"factText": "Bananas are yellow when ripe."},
]


def test_response_has_vertex_shape(engine: Engine) -> None:
    # Given an answer with a chit-chat sentence and a supported one
    answer = "Here is what I found. The Eiffel Tower is 330 metres tall."
    # When checked with claim-level scores
    response = engine.check(
        {
            "answerCandidate": answer,
            "facts": FACTS,
            "groundingSpec": {"enableClaimLevelScore": True},
        }
    )
    # Then the response is camelCase Vertex JSON
    assert set(response) == {"supportScore", "citedChunks", "citedFacts", "claims"}
    first, second = response["claims"]
    assert first == {
        "startPos": 0,
        "endPos": 21,
        "claimText": "Here is what I found.",
        "groundingCheckRequired": False,
    }
    assert second["startPos"] == 22 and second["endPos"] == len(answer.encode())
    assert second["groundingCheckRequired"] is True
    assert 0.0 <= second["score"] <= 1.0
    assert second["citationIndices"] == [0]
    chunk = response["citedChunks"][0]
    assert chunk["source"] == "0"
    assert chunk["chunkText"] == "The Eiffel Tower is 330 metres tall."
    assert chunk["sourceMetadata"] == {"title": "Eiffel Tower", "author": "Wikipedia"}
    assert response["citedFacts"] == [{"chunkText": FACTS[0]["factText"]}]
    # The chit-chat claim does not lower the score.
    assert response["supportScore"] == second["score"]


def test_score_only_when_claim_level_score_enabled(engine: Engine) -> None:
    response = engine.check({"answerCandidate": "Bananas are yellow when ripe.", "facts": FACTS})
    assert "score" not in response["claims"][0]


def test_higher_threshold_never_adds_citations(engine: Engine) -> None:
    answer = "The Eiffel Tower is 330 metres tall. Bananas are yellow."
    counts = []
    for threshold in (0.0, 0.3, 0.6, 0.9, 1.0):
        response = engine.check(
            {
                "answerCandidate": answer,
                "facts": FACTS,
                "groundingSpec": {"citationThreshold": threshold},
            }
        )
        counts.append(sum(len(c.get("citationIndices", [])) for c in response["claims"]))
    assert counts == sorted(counts, reverse=True)
    assert counts[0] >= 2


def test_no_facts_means_nothing_supported(engine: Engine) -> None:
    response = engine.check({"answerCandidate": "The Eiffel Tower is 330 metres tall."})
    assert response["supportScore"] == 0.0
    assert response["claims"][0]["citationIndices"] == []
    assert response["citedChunks"] == []


def test_only_chit_chat_scores_one(engine: Engine) -> None:
    response = engine.check({"answerCandidate": "Here is what I found.", "facts": FACTS})
    assert response["supportScore"] == 1.0


def test_check_many_shares_one_embedding_call_and_reports_errors_in_place(
    engine: Engine, fake_embedder
) -> None:
    # Given two valid requests and an invalid one between them
    payloads = [
        {"answerCandidate": "Bananas are yellow when ripe.", "facts": FACTS},
        {"answerCandidate": 3},
        {"answerCandidate": "The tower was completed in 1889.", "facts": FACTS},
    ]
    # When checked as one batch with errors returned
    results = engine.check_many(payloads, return_errors=True)
    # Then the bad one is an error body in its place and the model ran once
    assert results[1]["error"]["status"] == "INVALID_ARGUMENT"
    assert "supportScore" in results[0] and "supportScore" in results[2]
    assert len(fake_embedder.calls) == 1
    with pytest.raises(RequestError):
        engine.check_many(payloads)


def test_fact_embeddings_are_cached_by_content(engine: Engine, fake_embedder) -> None:
    engine.check({"answerCandidate": "Bananas are yellow when ripe.", "facts": FACTS})
    first = sum(fake_embedder.calls)
    engine.check({"answerCandidate": "Bananas are yellow when ripe.", "facts": FACTS})
    assert sum(fake_embedder.calls) == first  # nothing new to embed


def test_huge_request_embeds_only_retrieved_candidates(engine: Engine, fake_embedder) -> None:
    # Given 200 long facts, only one of which mentions the claim's subject
    filler = " ".join(
        f"Sentence {i} talks about weather patterns in region {i}." for i in range(150)
    )
    facts = [{"factText": filler[:10_000]} for _ in range(199)]
    facts.append({"factText": "The Eiffel Tower is 330 metres tall."})
    # When checked
    response = engine.check(
        {"answerCandidate": "The Eiffel Tower is 330 metres tall.", "facts": facts}
    )
    # Then the right fact is cited and only a handful of texts were embedded
    assert response["citedChunks"][0]["source"] == "199"
    assert sum(fake_embedder.calls) <= 20


def test_config_from_settings_dict() -> None:
    config = EngineConfig.from_dict({"DEFAULT_CITATION_THRESHOLD": 0.7, "num_threads": 1})
    assert config.default_citation_threshold == 0.7 and config.num_threads == 1
    with pytest.raises(ValueError, match="unknown GROUNDING setting"):
        EngineConfig.from_dict({"THRESHOLD": 0.7})
    with pytest.raises(ValueError, match="CROSS_ENCODER_PATH"):
        EngineConfig.from_dict({"VERIFIER": "cross-encoder"})
    with pytest.raises(ValueError, match="EMBED_PRECISION must be one of"):
        EngineConfig.from_dict({"EMBED_PRECISION": "fp16"})


def test_embed_k_bounds_the_candidates_embedded_per_claim(fake_embedder) -> None:
    facts = [{"factText": f"The Eiffel Tower in Paris, fact {i}."} for i in range(30)]
    embedded = {}
    for k in (2, 8):
        fake_embedder.calls.clear()
        engine = Engine(EngineConfig(embed_k=k, embedder=fake_embedder))
        engine.check({"answerCandidate": "The Eiffel Tower is in Paris.", "facts": facts})
        embedded[k] = sum(fake_embedder.calls)
    # the claim, and its best k candidates
    assert embedded == {2: 1 + 2, 8: 1 + 8}
    with pytest.raises(ValueError, match="EMBED_K and RETRIEVAL_K must be at least 1"):
        EngineConfig.from_dict({"EMBED_K": 0})


def test_get_engine_caches_per_config() -> None:
    a = get_engine(EngineConfig(num_threads=1))
    assert get_engine(EngineConfig(num_threads=1)) is a
    assert get_engine(EngineConfig(num_threads=2)) is not a


def test_model_id_names_embedder_and_verifier(engine: Engine) -> None:
    assert engine.model_id == "fake-embedder+head-v3-features"
    assert Engine(EngineConfig()).model_id == "all-MiniLM-L6-v2+head-v3-features"


def test_missing_model_folder_is_a_clear_error(tmp_path: Path) -> None:
    from groundview.grounding import ModelLoadError

    engine = Engine(EngineConfig(embedder_path=str(tmp_path / "nope")))
    with pytest.raises(ModelLoadError, match="never downloaded"):
        engine.warm_up()


def test_engine_imports_no_django_drf_or_celery() -> None:
    # Given a fresh interpreter, when the engine and its CLI module are imported, then no web stack loads
    code = (
        "import sys, groundview.grounding, groundview.grounding.__main__;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', 'celery'));"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_retrieval_is_the_same_in_every_process() -> None:
    # Given a claim that shares several words with each of a page's sentences, scored by BM25 in
    # interpreters whose string hashes differ (every Python process draws its own seed)
    code = (
        "from groundview.grounding.evidence import BM25\n"
        "from groundview.grounding.analysis import analyse\n"
        "docs = ['Hamlet is a tragedy written by William Shakespeare between 1599 and 1601.',\n"
        "        'It is Shakespeare\\'s longest play, with 29,551 words, set in Denmark.',\n"
        "        'The play depicts Prince Hamlet and his revenge against his uncle Claudius.',\n"
        "        'Hamlet was probably written at the beginning of the seventeenth century.',\n"
        "        'Scholars have long debated when Hamlet was first written and performed.']\n"
        "bm = BM25([analyse(d).stems for d in docs])\n"
        "q = analyse('Hamlet was written by Shakespeare around the beginning of the 17th century '\n"
        "            'in Denmark as a revenge tragedy').stems\n"
        "print([float(x).hex() for x in bm.scores(q)], bm.candidates(q, 20))\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in range(6)
    }
    # Then every process scores every sentence to the last bit: summed in an order that followed
    # the hash seed, two sentences scoring alike swapped places from one worker to the next, and
    # with them the claim's citations
    assert len(outputs) == 1, outputs


def test_a_cited_sentence_opening_with_a_pronoun_brings_the_sentence_before(engine: Engine) -> None:
    # Given a fact whose backing sentence says "He", and the claim that names him
    fact = (
        "James Hartley Jones was a private in the Welsh Regiment. "
        "He enlisted at Woodstock in 1915 with his brother-in-law. "
        "The memorial stands in Ambleston."
    )
    response = engine.check(
        {
            "answerCandidate": "James Hartley Jones enlisted at Woodstock in 1915.",
            "facts": [{"factText": fact}],
            "groundingSpec": {"citationThreshold": 0.0},
        }
    )
    # Then the citation shows who "he" is: both sentences, as one chunk
    [claim] = response["claims"]
    [index] = claim["citationIndices"]
    assert response["citedChunks"][index]["chunkText"] == (
        "James Hartley Jones was a private in the Welsh Regiment. "
        "He enlisted at Woodstock in 1915 with his brother-in-law."
    )


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("He married Amy Anna Lewis in 1910.", True),
        ("But it was never released.", True),
        ("“They won the final.”", True),
        ("The film is based on accounts of the sinking.", True),
        ("它是一家公司。", True),
        ("Heidi Klum hosted the show.", False),
        ("Italy won the final.", False),
        ("Theresa May resigned.", False),
    ],
)
def test_needs_antecedent(sentence: str, expected: bool) -> None:
    assert needs_antecedent(sentence) is expected


def test_embedding_cache_survives_threads_evicting_what_others_read() -> None:
    # Given one engine's cache shared by a threaded web worker's requests, and a tiny capacity
    import sys
    import threading

    import numpy as np

    from groundview.grounding.evidence import EmbeddingCache
    from groundview.grounding.models import Encoded

    cache = EmbeddingCache(capacity=1)
    value = Encoded(np.zeros(2, np.float32), np.zeros((1, 2), np.float32), np.zeros(1, bool))
    errors: list[Exception] = []

    def work(seed: int) -> None:
        try:
            for i in range(100_000):
                key = str((i * 7 + seed) % 6)
                if cache.get(key) is None:
                    cache.put(key, value)
        except Exception as exc:  # noqa: BLE001 - any error is the failure
            errors.append(exc)

    # When eight threads read and evict at once, switching as often as the interpreter can
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(old)
    # Then no lookup fails on an entry another thread evicted
    assert not errors, errors[:1]


def test_a_page_whose_lines_were_joined_is_chunked_near_sentence_size() -> None:
    from groundview.grounding.evidence import MAX_CHUNK_CHARS, chunk_facts
    from groundview.grounding.schema import Fact

    # Given a scraped page sent with its lines joined by spaces: a menu, headings, an unpunctuated
    # list of 80 names, and a sentence that uses "#" as a symbol
    names = " ".join(f"Name{i} Surname{i}" for i in range(80))
    text = (
        "Home About Us Contact ## Early life Smith was born in 1950 in Leeds. "
        f"### Members {names} ### Search "
        "Press # to repeat the menu."
    )

    chunks, _ = chunk_facts([Fact(text)])
    pieces = [c.text for c in chunks]

    # Then each heading starts a chunk of its own and no chunk is longer than a window
    assert pieces[0] == "Home About Us Contact"
    assert pieces[1] == "## Early life Smith was born in 1950 in Leeds."
    assert pieces[2].startswith("### Members Name0 Surname0")
    # (a heading before a sentence stays with it: nothing marks where the heading ends), and a
    # lone "#" is a symbol, not a heading
    assert pieces[-1] == "### Search Press # to repeat the menu."
    assert all(len(p) <= MAX_CHUNK_CHARS for p in pieces)
    # and every chunk is its own span of the fact, in order, nothing dropped but spaces
    assert [text[c.start : c.end] for c in chunks] == pieces
    assert " ".join(pieces) == text


def test_a_title_line_is_the_title_of_the_facts_it_heads() -> None:
    from groundview.grounding.evidence import chunk_facts
    from groundview.grounding.schema import Fact

    # Given a page sent one sentence per fact under a title fact, a chunk that opens with its own
    # title line, a fact with a title attribute, and a line that only mentions a title
    facts = [
        Fact("(meta data) TITLE: Ada Lovelace"),
        Fact("She was born in 1815 in London."),
        Fact("She died in 1852.", {"author": "Wikipedia"}),
        Fact("Page title: Charles Babbage\nHe was born in 1791."),
        Fact("He died in 1871."),
        Fact("Title: Difference engine"),
        Fact("It was never finished.", {"title": "Analytical Engine"}),
        Fact("Job title: engineer"),
        Fact("Subtitle: a memoir"),
    ]

    _, infos = chunk_facts(facts)
    titles = [info.attribute_text for info in infos]

    # Then each fact's evidence carries the title that heads it, beside its own attributes
    assert titles[:3] == ["Ada Lovelace", "Ada Lovelace", "Wikipedia. Ada Lovelace"]
    assert titles[3] == "Charles Babbage"
    # and a title that opens a chunk is that chunk's alone: the fact after it is another chunk
    assert titles[4] == ""
    # and a fact's own title attribute wins over the one heading it
    assert titles[6] == "Analytical Engine"
    # and "Job title:" or "Subtitle:" is text, not a title (the one before still heads them)
    assert titles[7:] == ["Difference engine", "Difference engine"]
    # and the attributes a caller sent are left as they were (they come back as sourceMetadata)
    assert [info.attributes for info in infos[:3]] == [{}, {}, {"author": "Wikipedia"}]


def test_a_page_joined_into_one_line_is_no_title() -> None:
    from groundview.grounding.evidence import chunk_facts
    from groundview.grounding.schema import Fact

    # Given a page sent with its lines joined by spaces, its title line first
    page = "(meta data) TITLE: Ada Lovelace " + "She was born in London in 1815. " * 10
    # Then the line is no title, which would lend every word of the page to every sentence
    _, infos = chunk_facts([Fact(page), Fact("He died in 1871.")])
    assert [info.attribute_text for info in infos] == ["", ""]
