"""Facts as evidence: sentence chunks, small windows of adjacent sentences, and BM25 retrieval.

Chunks are sentences of a fact (the same splitter as for claims). A "unit" is what a claim is scored
against: one sentence or two adjacent sentences of the same fact (claims often combine two). Retrieval is
lexical first (BM25 over every sentence) so that only candidates are embedded; huge requests (200 facts of
10,000 characters) would otherwise spend most of their time embedding text no claim needs.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from .claims import split_sentences
from .lexical import Analysis, analyse
from .models import Encoded
from .schema import Fact

# MiniLM reads at most 256 word pieces; longer "sentences" (tables, run-on text) are cut into windows.
MAX_CHUNK_CHARS = 600


@dataclass
class Chunk:
    """A sentence of a fact: character span [start, end) in the fact's text."""

    fact: int
    position: int  # index of this chunk within its fact
    start: int
    end: int
    text: str
    analysis: Analysis


@dataclass(frozen=True)
class Unit:
    """What a claim is scored against: chunks first..last (adjacent, same fact)."""

    fact: int
    first: int  # global chunk index
    last: int


@dataclass
class FactInfo:
    attributes: dict[str, str]
    attribute_text: (
        str  # "Wikipedia. Apollo 11" - attribute values, which can ground "Wikipedia says ..."
    )
    attribute_analysis: Analysis


def _split_long(text: str, start: int, end: int) -> list[tuple[int, int]]:
    if end - start <= MAX_CHUNK_CHARS:
        return [(start, end)]
    spans: list[tuple[int, int]] = []
    s = start
    while s < end:
        e = min(end, s + MAX_CHUNK_CHARS)
        if e < end:
            cut = text.rfind(" ", s + MAX_CHUNK_CHARS // 2, e)
            if cut > s:
                e = cut
        spans.append((s, e))
        s = e
        while s < end and text[s].isspace():
            s += 1
    return spans


def chunk_facts(facts: Sequence[Fact]) -> tuple[list[Chunk], list[FactInfo]]:
    chunks: list[Chunk] = []
    infos: list[FactInfo] = []
    for fi, fact in enumerate(facts):
        values = [v for v in fact.attributes.values() if v and not re.match(r"^[a-z]+://", v)]
        attr_text = ". ".join(values)
        infos.append(FactInfo(dict(fact.attributes), attr_text, analyse(attr_text)))
        position = 0
        for seg in split_sentences(fact.text):
            for s, e in _split_long(fact.text, seg.start, seg.end):
                piece = fact.text[s:e]
                chunks.append(Chunk(fi, position, s, e, piece, analyse(piece)))
                position += 1
    return chunks, infos


class BM25:
    """Okapi BM25 over chunk stems; queries are claim stems."""

    def __init__(self, docs: Sequence[Analysis], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.lengths = [len(d.stems) for d in docs]
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.lengths else 1.0
        for i, d in enumerate(docs):
            for term, tf in Counter(d.stems).items():
                self.postings[term].append((i, tf))
        n = len(docs)
        self.idf = {
            t: math.log(1.0 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self.postings.items()
        }

    def scores(self, query: Sequence[str]) -> dict[int, float]:
        out: dict[int, float] = defaultdict(float)
        for term in set(query):
            posting = self.postings.get(term)
            if not posting:
                continue
            idf = self.idf[term]
            for doc, tf in posting:
                norm = self.k1 * (1 - self.b + self.b * self.lengths[doc] / max(self.avg, 1e-9))
                out[doc] += idf * tf * (self.k1 + 1) / (tf + norm)
        return out

    def top(self, query: Sequence[str], k: int) -> list[int]:
        scored = self.scores(query)
        return [d for d, _ in sorted(scored.items(), key=lambda kv: (-kv[1], kv[0]))[:k]]


def text_key(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


class EmbeddingCache:
    """LRU of encodings by content hash, so the same fact sentences are embedded once per process."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, Encoded] = OrderedDict()

    def get(self, key: str) -> Encoded | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: str, value: Encoded) -> None:
        if self.capacity <= 0:
            return
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)
