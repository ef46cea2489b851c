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
import threading
from bisect import bisect_right
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import zip_longest

import numpy as np
import numpy.typing as npt

from .analysis import Analysis, analyse, index_stems
from .claims import is_table_rule, split_sentences
from .models import Encoded
from .schema import Fact

# A longer "sentence" (a table, a page whose newlines were lost) is cut into windows of about a
# sentence's size: 99% of WiCE's evidence sentences are shorter. At 600 characters such a window
# held several sentences, and a number or name of one was read as conflicting with another's.
MAX_CHUNK_CHARS = 300
# A Markdown heading ("## ", not "# ", which is also a symbol) inside a line: a page sent with its lines joined by spaces keeps its headings
# (and the menus around them) out of the sentences they border.
_INLINE_HEADING_RE = re.compile(r"\s(?=#{2,6}\s)")


@dataclass(frozen=True)
class Section:
    """The heading of a list that a line stands in ("Pro plan features:" over "- Single sign-on"),
    as it sets the list apart from the fact's other lists under other headings."""

    heading: str
    own: frozenset[str]  # the heading's content stems that not every heading of the fact writes
    common: frozenset[str]  # those every heading writes ("plan", "features")
    others: tuple[frozenset[str], ...]  # the other headings' own stems


@dataclass
class Chunk:
    """A sentence of a fact: character span [start, end) in the fact's text."""

    fact: int
    position: int  # index of this chunk within its fact
    start: int
    end: int
    text: str
    read: str  # the text as it is analysed: a table row with its header, else `text`
    stems: list[str]  # `analysis.stems`, read without the rest, for retrieval
    # An item of a numbered list ("4. Vertical File Storage"): how many items the list holds, so
    # that "four products" is read as that list's count; 0 for any other sentence.
    items: int = 0
    # The heading it is listed under, where the fact lists under two headings or more
    section: Section | None = None

    @cached_property
    def analysis(self) -> Analysis:
        """Read on first use: most sentences of a large request are never a claim's candidate."""
        return analyse(self.read)


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


def _pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A sentence's chunks: cut before each heading inside it, then into windows if still long."""
    cuts = [m.start() for m in _INLINE_HEADING_RE.finditer(text, start, end)]
    spans: list[tuple[int, int]] = []
    for s, e in zip([start, *cuts], [*cuts, end], strict=True):
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            spans.extend(_split_long(text, s, e))
    return spans


_CELL_SPLIT_RE = re.compile(r"(?<!\\)\|")


def _cells(line: str) -> list[str]:
    cells = [c.strip() for c in _CELL_SPLIT_RE.split(line.strip())]
    if cells and not cells[0]:
        cells = cells[1:]
    if cells and not cells[-1]:
        cells = cells[:-1]
    return cells


def _table_rows(text: str) -> dict[tuple[int, int], str]:
    """A Markdown table's data rows as they read with their header: for each row (by the span of
    its text, trimmed), "Tower: CN Tower; Opened: 1976". A row alone ("| CN Tower | 553 | 1976 |")
    does not say what its numbers are, so "The CN Tower opened in 1889" found "opened" in the
    header, "1889" in another row, and every part backed."""
    rows: dict[tuple[int, int], str] = {}
    lines = [(m.start(), m.group(0)) for m in re.finditer(r"[^\r\n]+", text)]
    header: list[str] = []
    for i, (start, line) in enumerate(lines):
        if "|" not in line:
            header = []
        elif header and is_table_rule(line):
            continue
        elif header:
            cells = _cells(line)
            span = (start + len(line) - len(line.lstrip()), start + len(line.rstrip()))
            rows[span] = "; ".join(
                f"{h}: {c}" if h else c for h, c in zip_longest(header, cells, fillvalue="") if c
            )
        elif i + 1 < len(lines) and is_table_rule(lines[i + 1][1]):
            header = _cells(line)
    return rows


# A line that labels its value, as a spec sheet or a product page lists them: "Price: $20 per month",
# "- **Storage:** 100 GB". The label is a few words, no sentence.
_LABELLED_LINE_RE = re.compile(r"[-*•\s]*(?P<label>[^\W\d][^:.!?|\n]{0,39}):\**[ \t]*\S")
# A heading over such lines: a short line that is no sentence ("Team plan", "## Team plan", "Team:").
# A version's point is no sentence's end: "Version 2.5".
_HEADING_LINE_RE = re.compile(
    r"[#*_\s]*(?P<heading>[^\W\d_](?:[^:.!?|\n]|(?<=\d)\.(?=\d)){0,59}?)[*_\s]*:?[*_\s]*"
)


def _sections(text: str) -> list[tuple[int, int, str]]:
    """The labelled lines that a heading right above them names, with that heading: (start, end,
    "Team plan") for "Price: $35 per month" under "Team plan". The line alone does not say whose
    price it is, so "The Pro plan costs $35 per month" found "$35" in the Team plan's and every
    part backed (0.90). Only sections of two lines or more, whose labels another section shares:
    a web page's "Follow us on our social media" over "Twitter: @…", a byline over "Review: …"
    or a transcript's "Turn 3" over "Client: …" name nothing the line needs."""
    found: list[tuple[int, int, int, str]] = []  # start, end, section, label
    headings: list[str] = []
    open_section = False
    start = 0
    lines: list[tuple[int, str]] = []
    for line in text.split("\n"):
        lines.append((start, line))
        start += len(line) + 1
    for k, (start, line) in enumerate(lines):
        labelled = _LABELLED_LINE_RE.match(line)
        if open_section and labelled:
            found.append((start, start + len(line), len(headings) - 1, labelled["label"].lower()))
            continue
        # a blank line, or any line that is no label's, ends the section
        m = _HEADING_LINE_RE.fullmatch(line)
        open_section = bool(m and k + 1 < len(lines) and _LABELLED_LINE_RE.match(lines[k + 1][1]))
        if m and open_section:
            headings.append(m["heading"])
    lines_in = Counter(section for _, _, section, _ in found)
    shared: dict[str, set[str]] = defaultdict(set)
    for _, _, section, label in found:
        if lines_in[section] >= 2:
            shared[label].add(headings[section])
    return [
        (a, b, headings[section])
        for a, b, section, label in found
        if lines_in[section] >= 2 and len(shared[label]) >= 2
    ]


_LIST_SEPARATOR = re.compile(r"[,;]| and | or ")


def _a_short_list(value: str) -> bool:
    """Is a labelled line's value a list of a few words each ("single sign-on, audit logs and
    priority support"), not prose ("one small personal item that fits under the seat")?"""
    return all(len(item.split()) <= 5 for item in _LIST_SEPARATOR.split(value.strip(" .")))


def _labelled_runs(text: str) -> list[tuple[int, int, str]]:
    """Lines in a row that each label a short list, with their labels: (start, end, "Pro plan
    features") for "Pro plan features: single sign-on, audit logs" beside "Free plan features: up
    to 3 projects". Only labels that share a word and differ by one of their own (`_sectioned`
    asks the second): a spec sheet's "Price:" and "Storage:" label values of one thing, and
    "Client:" and "Therapist:" a transcript's turns."""
    runs: list[list[tuple[int, int, str]]] = [[]]
    start = 0
    for line in text.split("\n"):
        m = _LABELLED_LINE_RE.match(line)
        if m and _a_short_list(line[m.end() - 1 :]):
            runs[-1].append((start, start + len(line), m["label"].strip()))
        elif runs[-1]:
            runs.append([])
        start += len(line) + 1
    found = [row for run in runs if len(run) >= 2 for row in run]
    if not found or not frozenset.intersection(*(_heading_stems(h) for *_, h in found)):
        return []
    return found


# An item of a list: "- Single sign-on", "* Audit logs", "• SSO", "1. Open Settings", "2) Tap".
_ITEM_LINE_RE = re.compile(r"[ \t]*(?:[-*•+–]|\d{1,2}[.)])[ \t]+\S")


def _listed(text: str) -> list[tuple[int, int, str]]:
    """The lines of each list that a heading line names, with that heading: (start, end, "Pro plan
    features") for "- Single sign-on" under "Pro plan features:". Blank lines may stand between
    the heading and its items, and an indented line continues the item above it; any other line
    ends the list. A list under no heading (under a sentence) is left out."""
    found: list[tuple[int, int, str]] = []
    heading: str | None = None  # the open list's
    pending: str | None = None  # a heading line that no item has followed yet
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        if _ITEM_LINE_RE.match(line):
            if pending is not None:
                heading, pending = pending, None
            if heading is not None:
                found.append((start, end, heading))
        elif line.strip():
            if heading is not None and found and line[:1] in " \t":
                found[-1] = (found[-1][0], end, heading)
            else:
                m = _HEADING_LINE_RE.fullmatch(line)
                heading, pending = None, (m["heading"].strip() if m else None)
        start = end + 1
    return found


def _heading_stems(heading: str) -> frozenset[str]:
    """A heading's content stems and its numbers: a changelog's "Version 2.4" and "Version 2.5"
    differ by theirs alone."""
    a = analyse(heading)
    numbers = (s for t, s in zip(a.tokens, a.stems, strict=True) if t[:1].isdigit())
    return frozenset(a.content).union(numbers)


def _sectioned(headings: Sequence[str]) -> dict[str, Section]:
    """Each heading as a `Section` among the fact's others, where there are two or more that each
    write a word of their own."""
    stems = {h: _heading_stems(h) for h in dict.fromkeys(headings)}
    if len(stems) < 2:
        return {}
    common = frozenset.intersection(*stems.values())
    own = {h: s - common for h, s in stems.items() if s - common}
    if len(own) < 2:
        return {}
    return {
        h: Section(h, s, common, tuple(o for g, o in own.items() if g != h)) for h, s in own.items()
    }


# "Title: Apollo 11", "Page title: …", a crawler's "(meta data) TITLE: …": a page's title written as
# its first line, where a pipeline that has no attributes puts it.
_TITLE_LINE_RE = re.compile(
    r"[^\w\n]*(?:(?:\(?meta[ _-]?data\)?|page|document|article)[^\S\n]*)?title[^\S\n]*:"
    r"[^\S\n]*(\S[^\n]*)",
    re.IGNORECASE,
)
# The longest of WiCE-dev's page titles is 146 characters. A longer "title" is a page whose lines
# were joined into one, and read as a title it would lend every word of the page to every sentence.
MAX_TITLE_CHARS = 200


def title_line(text: str) -> tuple[str, bool] | None:
    """The title a fact's first line gives, and whether that line is all the fact holds."""
    m = _TITLE_LINE_RE.match(text)
    if m is None or len(m.group(1).strip()) > MAX_TITLE_CHARS:
        return None
    return m.group(1).strip(), not text[m.end() :].strip()


def chunk_facts(facts: Sequence[Fact]) -> tuple[list[Chunk], list[FactInfo]]:
    """Each fact's sentences as chunks, and what its attributes add to every one of them.

    A title is part of every sentence of its page: "He was born in 1950" backs "Smith was born in
    1950" on Smith's page. A caller with no attributes to put it in writes it as the fact's first
    line ("Title: Smith"), or, sending a page one sentence per fact, as a fact of its own before
    the rest; either way it is read as the title attribute of the facts it heads (those that do not
    name their own), up to the next such title. Unread, a WiCE-dev page sent so lost 0.015 of
    balanced accuracy against the same page with its title as an attribute."""
    chunks: list[Chunk] = []
    infos: list[FactInfo] = []
    running = ""
    for fi, fact in enumerate(facts):
        values = [v for v in fact.attributes.values() if v and not re.match(r"^[a-z]+://", v)]
        title = title_line(fact.text)
        if title is not None:
            # A fact that opens with its own title is another document, not one more sentence
            running = title[0] if title[1] else ""
        heading = title[0] if title is not None else running
        if heading and "title" not in fact.attributes and heading not in values:
            values.append(heading)
        attr_text = ". ".join(values)
        infos.append(FactInfo(dict(fact.attributes), attr_text, analyse(attr_text)))
        position = 0
        rows = _table_rows(fact.text) if "|" in fact.text else {}
        sections = _sections(fact.text) if ":" in fact.text and "\n" in fact.text else []
        starts = [a for a, _, _ in sections]
        lists = _listed(fact.text) if "\n" in fact.text else []
        list_starts = [a for a, _, _ in lists]
        under = _sectioned([h for *_, h in sections] + [h for *_, h in lists])
        labelled = _labelled_runs(fact.text) if ":" in fact.text and "\n" in fact.text else []
        label_starts = [a for a, _, _ in labelled]
        labels = _sectioned([h for *_, h in labelled])
        for seg in split_sentences(fact.text):
            for s, e in _pieces(fact.text, seg.start, seg.end):
                piece = fact.text[s:e]
                # A row cut at a sentence end inside a cell is read as the piece it is.
                read = rows.get((s, e), piece)
                section = None
                # the labelled line or list item this piece is in, if any (a page may hold
                # thousands)
                k = bisect_right(starts, s) - 1
                if k >= 0 and e <= sections[k][1]:
                    read = f"{sections[k][2]}: {piece}"
                    section = under.get(sections[k][2])
                k = bisect_right(list_starts, s) - 1
                if k >= 0 and e <= lists[k][1] and section is None:
                    section = under.get(lists[k][2])
                k = bisect_right(label_starts, s) - 1
                if k >= 0 and e <= labelled[k][1] and section is None:
                    section = labels.get(labelled[k][2])
                chunk = Chunk(fi, position, s, e, piece, read, index_stems(read), section=section)
                chunks.append(chunk)
                position += 1
        if _ITEM_MARKER_IN.search(fact.text):
            _count_items(fact.text, chunks[len(chunks) - position :])
    return chunks, infos


# A numbered item's marker, alone on its line before the item's text: "4. ", "  12) "
_ITEM_MARKER_IN = re.compile(r"(?:^|\n)[ \t]*\d{1,2}[.)][ \t]")
_ITEM_MARKER = re.compile(r"(?:^|\n)[ \t]*(\d{1,2})[.)][ \t]+$")


def _count_items(text: str, chunks: Sequence[Chunk]) -> None:
    """Marks the items of each numbered list of a fact with the list's length, and the sentence
    that leads into it with a colon ("Here are our popular products:"), which says what the list
    counts and ranks where the items, each about one thing, may not. A list runs from its "1."
    through each next number, whatever lines come between (an item's description)."""
    run: list[Chunk] = []
    items = 0
    for k, chunk in enumerate(chunks):
        marker = _ITEM_MARKER.search(text, max(0, chunk.start - 8), chunk.start)
        if marker is None:
            continue
        number = int(marker.group(1))
        if number == items + 1 and items:
            run.append(chunk)
            items += 1
        elif number == 1:  # a new list: the one before it has ended
            _mark(run, items)
            lead_in = [chunks[k - 1]] if k and chunks[k - 1].text.endswith(":") else []
            run, items = [*lead_in, chunk], 1
        else:  # a number skipped: the list is left uncounted
            run, items = [], 0
    _mark(run, items)


def _mark(run: Sequence[Chunk], items: int) -> None:
    if items >= 2:
        for chunk in run:
            chunk.items = items


class BM25:
    """Okapi BM25 over chunk stems; queries are claim stems.

    Each (term, chunk) contribution is precomputed into numpy arrays, so a query costs a few vector
    additions even when common terms occur in all 14,000 chunks of a maximum-size request.
    """

    def __init__(self, docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75) -> None:
        postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        lengths = [len(d) for d in docs]
        avg = (sum(lengths) / len(lengths)) if lengths else 1.0
        for i, d in enumerate(docs):
            for term, tf in Counter(d).items():
                postings[term].append((i, tf))
        n = len(docs)
        self.n = n
        self.docs: dict[str, npt.NDArray[np.int64]] = {}
        self.weights: dict[str, npt.NDArray[np.float64]] = {}
        for term, posting in postings.items():
            idf = math.log(1.0 + (n - len(posting) + 0.5) / (len(posting) + 0.5))
            ids = np.fromiter((d for d, _ in posting), dtype=np.int64, count=len(posting))
            tfs = np.fromiter((t for _, t in posting), dtype=np.float64, count=len(posting))
            norm = k1 * (1 - b + b * np.asarray([lengths[d] for d, _ in posting]) / max(avg, 1e-9))
            self.docs[term] = ids
            self.weights[term] = idf * tfs * (k1 + 1) / (tfs + norm)

    def scores(self, query: Sequence[str]) -> npt.NDArray[np.float64]:
        out = np.zeros(self.n, dtype=np.float64)
        # In the query's order, not a set's: a set iterates in the order of the process's string
        # hashes, and floating-point sums in another order differ in the last bit, so two chunks
        # that score alike swapped places (and citations) from one worker process to the next.
        for term in dict.fromkeys(query):
            ids = self.docs.get(term)
            if ids is not None:
                out[ids] += self.weights[term]
        return out

    def top(self, query: Sequence[str], k: int) -> list[int]:
        scores = self.scores(query)
        hits = np.flatnonzero(scores > 0)
        if hits.size > k:
            hits = hits[np.argpartition(-scores[hits], k - 1)[:k]]
        return sorted(hits.tolist(), key=lambda d: (-scores[d], d))

    def candidates(self, query: Sequence[str], k: int) -> list[int]:
        """The `k` best chunks; when there are no more than `k` chunks in all, every one of them,
        unmatched ones last (a small request: coverage reads every sentence)."""
        top = self.top(query, k)
        if len(top) < k and self.n <= k:
            found = set(top)
            top += [j for j in range(self.n) if j not in found]
        return top


def text_key(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


class EmbeddingCache:
    """LRU of encodings by content hash, so the same fact sentences are embedded once per process.

    Locked: a threaded web worker runs several checks on one engine, and an entry evicted between a
    lookup and its move to the end would otherwise fail the request."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, Encoded] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Encoded | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: str, value: Encoded) -> None:
        if self.capacity <= 0:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)
