from __future__ import annotations

import json
from pathlib import Path

from groundview.grounding.evaldata import load_fm2


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
