"""The demo data set: 35 Vertex AI Search answers in 8 sessions, as JSON files (one per session).

Each file holds what the `:answer` method returns (`{"answer": ..., "session": ...}`) and a few bare
`Answer` documents. They cover every answer state, skip reason, safety category and reference kind,
several languages and scripts, and a few deliberately wrong claims (a number or a name that the cited
reference contradicts) so reviewers and the grounding checker have something to find. All content was
invented for this project. Byte spans in the files are UTF-8 offsets; the importer validates every one,
so an edit that breaks a span fails `load_demo` loudly.

`load_demo` imports these through the same path users use (`importing.import_records`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DEMO_DIR = Path(__file__).resolve().parent


def demo_records() -> list[dict[str, Any]]:
    """Every record, `:answer` responses first, then the bare answers (so their sessions, and with
    them their questions, are known by the time they are imported)."""
    records: list[dict[str, Any]] = []
    for path in sorted(DEMO_DIR.glob("*.json")):
        records.extend(json.loads(path.read_text(encoding="utf-8")))
    return sorted(records, key=lambda r: "answer" not in r)
