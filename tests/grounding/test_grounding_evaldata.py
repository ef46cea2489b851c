from __future__ import annotations

import json
from pathlib import Path

from groundview.grounding.evaldata import load_fever_nli, load_fever_symmetric, load_fm2


def test_fm2_claims_are_checked_against_their_retrieved_sentences(tmp_path: Path) -> None:
    folder = tmp_path / "fm2" / "dataset"
    folder.mkdir(parents=True)
    rows = [
        {
            "text": "Britten was born in Germany.",
            "label": "REFUTES",
            "wikipedia_page": "Benjamin Britten",
            "gold_evidence": [{"section_header": "Life", "text": "Britten was born in Lowestoft."}],
            "retrieved_evidence": [
                {"section_header": "Life", "text": "Britten was born in Lowestoft."},
                {"section_header": "War", "text": "Britten went to Germany in 1945."},
            ],
        },
        {
            "text": "Britten was born in Lowestoft.",
            "label": "SUPPORTS",
            "wikipedia_page": "Benjamin Britten",
            "gold_evidence": [],
            "retrieved_evidence": [{"section_header": "", "text": "Born in Lowestoft, 1913."}],
        },
    ]
    (folder / "test.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8"
    )
    claims = load_fm2(tmp_path, "test")
    assert [(c.claim, c.label) for c in claims] == [
        ("Britten was born in Germany.", 0),
        ("Britten was born in Lowestoft.", 1),
    ]
    # every retrieved sentence is a fact of its own, the page's name its title
    assert [f.text for f in claims[0].facts] == [
        "Britten was born in Lowestoft.",
        "Britten went to Germany in 1945.",
    ]
    assert {f.attributes["title"] for c in claims for f in c.facts} == {"Benjamin Britten"}


def test_fever_pairs_are_read_as_prose_once_each_and_without_contradicting_copies(
    tmp_path: Path,
) -> None:
    symmetric = tmp_path / "fever-symmetric" / "symmetric_v0.2"
    symmetric.mkdir(parents=True)
    row = {
        "claim": "Soul Food ( film ) was released in 1997 .",
        "evidence": "Soul Food is a 1997 American comedy-drama film -LRB- produced by Tracey Edmonds -RRB- .",
        "label": "SUPPORTS",
    }
    refuted = {**row, "claim": "Soul Food was n't released .", "label": "REFUTES"}
    (symmetric / "fever_symmetric_test.jsonl").write_text(
        json.dumps(row) + "\n" + json.dumps(refuted) + "\n", encoding="utf-8"
    )
    pairs = load_fever_symmetric(tmp_path, "test")
    assert [(p.claim, p.label) for p in pairs] == [
        ("Soul Food (film) was released in 1997.", 1),
        ("Soul Food wasn't released.", 0),
    ]
    assert pairs[0].evidence == (
        "Soul Food is a 1997 American comedy-drama film (produced by Tracey Edmonds)."
    )

    nli = tmp_path / "docnli-binary-nli" / "Data" / "binary-FEVER-NLI"
    nli.mkdir(parents=True)
    lines = [
        "entailment\tA is in B .\tA is in B .",
        "entailment\tA is in B .\tA is in B .",  # a repeat, read once
        "entailment\tC is red .\tC is red .",
        "not_entailment\tC is red .\tC is red .",  # both labels upstream: dropped
        "not_entailment\tD is blue .\tD is green .",
    ]
    (nli / "test.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert [(p.claim, p.evidence, p.label) for p in load_fever_nli(tmp_path)] == [
        ("A is in B.", "A is in B.", 1),
        ("D is green.", "D is blue.", 0),
    ]
