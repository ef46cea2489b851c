"""Human-labelled evaluation sets as Check Grounding inputs: WiCE-dev and SummEdits (sales).

WiCE-dev: each claim against the sentences of the page(s) it cites. The page's "(meta data) TITLE:" line
becomes the `title` attribute; the other sentences are packed, one per line and in order, into facts of
at most 10,000 characters (the request limit). `sentence_spans` maps each fact's character ranges back to
WiCE's sentence indices, so cited chunks can be scored against the gold supporting-sentence sets.
Labels: supported = 1; partially supported and not supported = 0 (`grade` keeps all three).

SummEdits: each summary against its document (one fact); label 1 = consistent.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path

from .schema import MAX_FACT_CHARS, Fact

TITLE = "(meta data) TITLE:"


@dataclass
class WiceClaim:
    claim: str
    grade: str  # supported | partially_supported | not_supported
    facts: list[Fact]
    spans: list[list[tuple[int, int, int]]]  # per fact: (start, end, WiCE sentence index)
    gold_sets: list[set[int]]

    @property
    def label(self) -> int:
        return int(self.grade == "supported")

    def fold(self, k: int) -> int:
        """The claim's fold for k-fold cross-validation: fixed, by a hash of the claim text."""
        return zlib.crc32(self.claim.encode("utf-8")) % k

    def sentences_of(self, fact: int, start: int, end: int) -> set[int]:
        return {i for s, e, i in self.spans[fact] if s < end and start < e}


def load_wice(data: Path) -> list[WiceClaim]:
    out: list[WiceClaim] = []
    path = data / "wice-dev" / "data" / "entailment_retrieval" / "claim" / "dev.jsonl"
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            title = ""
            facts: list[Fact] = []
            spans: list[list[tuple[int, int, int]]] = []
            text, span = "", []  # type: tuple[str, list[tuple[int, int, int]]]
            for i, sentence in enumerate(row["evidence"]):
                sentence = " ".join(sentence.split())[: MAX_FACT_CHARS - 1]
                if sentence.startswith(TITLE) and not title:
                    title = sentence[len(TITLE) :].strip()
                    continue
                if not sentence:
                    continue
                if text and len(text) + 1 + len(sentence) > MAX_FACT_CHARS:
                    facts.append(Fact(text))
                    spans.append(span)
                    text, span = "", []
                start = len(text) + (1 if text else 0)
                text = f"{text}\n{sentence}" if text else sentence
                span.append((start, start + len(sentence), i))
            if text:
                facts.append(Fact(text))
                spans.append(span)
            if title:
                facts = [Fact(f.text, {"title": title}) for f in facts]
            gold = [set(s) for s in row["supporting_sentences"]]
            out.append(WiceClaim(row["claim"], row["label"], facts, spans, gold))
    return out


@dataclass
class SummEdit:
    doc: str
    summary: str
    label: int
    domain: str


def load_summedits(data: Path) -> list[SummEdit]:
    out: list[SummEdit] = []
    for domain in ("sales_call", "sales_email"):
        path = data / "summedits-sales" / "data" / "summedits" / f"summedits_{domain}.json"
        for row in json.loads(path.read_text(encoding="utf-8")):
            out.append(SummEdit(row["doc"], row["summary"], int(row["label"]), domain))
    return out
