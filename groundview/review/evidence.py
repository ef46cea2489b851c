"""Evidence as the claims panel shows it: which sentence of a chunk supports a claim, the sentences
around it in its document, and, for a claim nothing was cited for, the chunks nearest to it.

Marking is deliberately simple and predictable: the chunk is split into sentences, and the sentence
sharing the most distinct word tokens with the claim wins (ties: the earlier sentence). The mark
widens to a neighbouring sentence that backs at least two content words of the claim the marked ones
do not, since a compound claim ("open it and choose Export; the PDF has every page") is backed by
the two sentences together, and marking one would say the other does not count. When the
checker says exactly which text it cited (`citedChunks[].chunkText`) and that text occurs in the
chunk, that text is marked instead, since it is the checker's own evidence. Reviewers can see the
whole chunk anyway; the mark is a reading aid, not a verdict.

Nearest chunks are what the checker's own first stage (BM25 over fact sentences, claims read in
context) ranks highest. They are computed when the page is shown, from the facts the run stored
(or the answer's references), with the engine's lexical helpers only: no model is loaded in a
request, and every stored run gets them, old ones included.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from groundview.grounding.analysis import analyse
from groundview.grounding.candidates import Candidate
from groundview.grounding.claims import split_sentences
from groundview.grounding.context import resolve
from groundview.grounding.evidence import BM25, Chunk, FactInfo, chunk_facts
from groundview.grounding.schema import Fact
from groundview.grounding.support import Gaps, gaps

# Around a cited chunk, this many of its document's sentences on each side, and never more than
# CONTEXT_CHARS characters on a side (a table or run-on text is one long "sentence").
CONTEXT_SENTENCES = 2
CONTEXT_CHARS = 400
# Nearest chunks shown for a claim nothing was cited for (adjacent sentences merge into one).
NEAREST = 3

# Fact indexes kept for nearest chunks, counted in fact sentences (measured: 3 KB each for prose
# like the bench answer's, 30 KB where nearly every word is new): some 6 MB a process, 60 MB at
# worst, for the dozens of answers a reviewer goes back to. A bigger index is not kept.
INDEX_CACHE_SENTENCES = 2000

# A sentence ends at . ! ? (optionally followed by closing quotes/brackets) before whitespace,
# at CJK full stops, or at line breaks.
SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+|(?<=[。！？])|\n+")
# Words: runs of letters/digits; each CJK ideograph counts as a word of its own.
TOKEN = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]|[^\W_]+", re.UNICODE)


def tokens(text: str) -> set[str]:
    return {t.casefold() for t in TOKEN.findall(text)}


def sentences(text: str) -> list[tuple[int, int]]:
    """Character ranges of the sentences of `text` (whitespace between them excluded)."""
    ranges = []
    start = 0
    for match in SENTENCE_END.finditer(text):
        end = match.start()
        if end > start:
            ranges.append((start, end))
        start = match.end()
    if start < len(text):
        ranges.append((start, len(text)))
    trimmed = []
    for a, b in ranges:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            trimmed.append((a, b))
    return trimmed


def best_sentence(claim: str, text: str) -> tuple[int, int] | None:
    """The character range of the sentence of `text` sharing the most tokens with `claim`."""
    wanted = tokens(claim)
    best, best_overlap = None, 0
    for a, b in sentences(text):
        overlap = len(wanted & tokens(text[a:b]))
        if overlap > best_overlap:
            best, best_overlap = (a, b), overlap
    return best


# A neighbouring sentence joins the mark when it backs this many content words the mark lacks.
WIDEN_MIN_NEW = 2


def support_range(claim: str, text: str) -> tuple[int, int] | None:
    """The best sentence (`best_sentence`), widened over neighbours that back more of the claim."""
    best = best_sentence(claim, text)
    if best is None:
        return None
    spans = sentences(text)
    wanted = set(analyse(claim).content)
    at = spans.index(best)
    first = last = at
    covered = wanted & set(analyse(text[best[0] : best[1]]).content)

    def adds(k: int) -> set[str]:
        a, b = spans[k]
        return (wanted & set(analyse(text[a:b]).content)) - covered

    while True:
        # Left first, so that ties keep reading order.
        if first > 0 and len(new := adds(first - 1)) >= WIDEN_MIN_NEW:
            first -= 1
        elif last + 1 < len(spans) and len(new := adds(last + 1)) >= WIDEN_MIN_NEW:
            last += 1
        else:
            break
        covered |= new
    return spans[first][0], spans[last][1]


@dataclass
class MarkedText:
    text: str
    mark: tuple[int, int] | None
    # The text is a window of a longer document: more of it comes before / after.
    cut_before: bool = False
    cut_after: bool = False

    @property
    def html(self) -> SafeString:
        before = (
            '<span class="cut" title="The document goes on">… </span>' if self.cut_before else ""
        )
        after = '<span class="cut" title="The document goes on"> …</span>' if self.cut_after else ""
        if self.mark is None:
            return mark_safe(f"{before}{escape(self.text)}{after}")  # noqa: S308 - escaped
        a, b = self.mark
        return mark_safe(  # noqa: S308 - all three parts are escaped
            f'{before}{escape(self.text[:a])}<mark class="support">{escape(self.text[a:b])}</mark>'
            f"{escape(self.text[b:])}{after}"
        )


def mark_support(claim: str, text: str, cited: str = "") -> MarkedText:
    cited = cited.strip()
    if cited and cited != text.strip():
        at = text.find(cited)
        if at >= 0:
            return MarkedText(text, (at, at + len(cited)))
    return MarkedText(text, support_range(claim, text))


def in_document(
    marked: MarkedText,
    document: str,
    *,
    around: int = CONTEXT_SENTENCES,
    limit: int = CONTEXT_CHARS,
) -> MarkedText:
    """`marked` (a passage, its supporting part marked) placed in its whole `document`: the marked
    part with up to `around` whole sentences either side, at most `limit` characters a side.

    A passage not found in the document (a fact cut to the engine's size limit, a run from
    before the answer was re-imported) is placed in itself.
    """
    if marked.mark is None:
        return marked
    offset = document.find(marked.text) if marked.text else -1
    if offset < 0:
        document, offset = marked.text, 0
    a, b = marked.mark[0] + offset, marked.mark[1] + offset
    # Sentences are looked for near the mark only: a document may be 100,000 characters long.
    lo, hi = max(0, a - 3 * limit), min(len(document), b + 3 * limit)
    spans = [(lo + s.start, lo + s.end) for s in split_sentences(document[lo:hi])]
    first = next((i for i, (_, end) in enumerate(spans) if end > a), len(spans))
    last = max((i for i, (start, _) in enumerate(spans) if start < b), default=-1)
    start = min(a, spans[max(0, first - around)][0]) if first < len(spans) else a
    end = max(b, spans[min(len(spans) - 1, last + around)][1]) if last >= 0 else b
    if a - start > limit:
        start = a - limit
        space = document.find(" ", start, a)
        start = space + 1 if space >= 0 else start
    if end - b > limit:
        end = b + limit
        space = document.rfind(" ", b, end)
        end = space if space > b else end
    return MarkedText(document[start:end], (a - start, b - start), start > 0, end < len(document))


@dataclass(frozen=True)
class Nearby:
    """A chunk near a claim: sentences [start, end) of fact `fact`, with how near."""

    fact: int
    start: int
    end: int
    bm25: float  # the checker's retrieval score (unbounded; higher is nearer)
    found: int  # the claim's distinct content words this chunk (or its fact's title) states
    wanted: int  # the claim's distinct content words


def nearest_chunks(
    claim_texts: Sequence[str], wanted: Collection[int], facts: Sequence[Fact], *, k: int = NEAREST
) -> dict[int, list[Nearby]]:
    """For the claims at indices `wanted` of `claim_texts` (the answer's claims, in order): the
    `k` fact sentences BM25 ranks highest, adjacent sentences of one fact merged, nearest first.

    Claims are read in context as the checker reads them ("It" takes the previous subject).
    """
    if not wanted or not facts:
        return {}
    index = fact_index(facts)
    chunks, infos, bm25 = index.chunks, index.infos, index.bm25
    if not chunks:
        return {}
    texts = resolve(list(claim_texts))
    out: dict[int, list[Nearby]] = {}
    for index in sorted(wanted):
        analysis = analyse(texts[index])
        scores = bm25.scores(analysis.stems)
        content = set(analysis.content)
        groups: list[list[int]] = []
        for idx in sorted(bm25.top(analysis.stems, k)):
            previous = groups[-1][-1] if groups else -2
            if previous == idx - 1 and chunks[previous].fact == chunks[idx].fact:
                groups[-1].append(idx)
            else:
                groups.append([idx])
        nearby = []
        for group in groups:
            fact = chunks[group[0]].fact
            stated = set(infos[fact].attribute_analysis.stems)
            for idx in group:
                stated.update(chunks[idx].stems)
            nearby.append(
                Nearby(
                    fact=fact,
                    start=chunks[group[0]].start,
                    end=chunks[group[-1]].end,
                    bm25=float(max(scores[idx] for idx in group)),
                    found=len(content & stated),
                    wanted=len(content),
                )
            )
        out[index] = sorted(nearby, key=lambda n: (-n.bm25, n.fact, n.start))
    return out


# As many candidates as the checker reads per claim (EngineConfig.retrieval_k).
GAP_CANDIDATES = 20


def claim_gaps(
    claim_texts: Sequence[str], wanted: Collection[int], facts: Sequence[Fact]
) -> dict[int, Gaps]:
    """For the claims at indices `wanted`: the numbers, names, negations and words that none of the
    sentences the checker retrieves for them states, read in context as the checker reads them.
    Claims with no such gap are left out."""
    if not wanted or not facts:
        return {}
    index = fact_index(facts)
    if not index.chunks:
        return {}
    texts = resolve(list(claim_texts))
    out: dict[int, Gaps] = {}
    for i in sorted(wanted):
        analysis = analyse(texts[i])
        cands = []
        for j in index.bm25.candidates(analysis.stems, GAP_CANDIDATES):
            info = index.infos[index.chunks[j].fact]
            attributes = info.attribute_analysis if info.attribute_text else None
            chunk = index.chunks[j]
            cands.append(Candidate(j, chunk.analysis, attributes, None, section=chunk.section))
        found = gaps(analysis, cands)
        if found:
            out[i] = found
    return out


@dataclass(frozen=True)
class FactIndex:
    """Facts split into sentences, analysed and indexed for BM25: read-only once built."""

    chunks: list[Chunk]
    infos: list[FactInfo]
    bm25: BM25


# Splitting and analysing every fact sentence is most of what nearest chunks cost, and the same
# page is shown again after each save, undo and reload: recent indexes are kept, keyed by the
# facts' content (not a run or answer id), so a re-imported answer gets a fresh one.
_indexes: OrderedDict[str, FactIndex] = OrderedDict()
_indexes_lock = threading.Lock()


def facts_key(facts: Sequence[Fact]) -> str:
    data = json.dumps(
        [[fact.text, fact.attributes] for fact in facts], ensure_ascii=False, sort_keys=True
    )
    return hashlib.blake2b(data.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def fact_index(facts: Sequence[Fact]) -> FactIndex:
    key = facts_key(facts)
    with _indexes_lock:
        index = _indexes.get(key)
        if index is not None:
            _indexes.move_to_end(key)
            return index
    chunks, infos = chunk_facts(facts)
    index = FactIndex(chunks, infos, BM25([chunk.stems for chunk in chunks]))
    if len(chunks) <= INDEX_CACHE_SENTENCES:
        with _indexes_lock:
            _indexes[key] = index
            kept = sum(len(i.chunks) for i in _indexes.values())
            while kept > INDEX_CACHE_SENTENCES:
                _, dropped = _indexes.popitem(last=False)
                kept -= len(dropped.chunks)
    return index
