"""Answer text with claims highlighted by their UTF-8 byte spans.

Vertex and the checker give spans as UTF-8 byte offsets (end exclusive), while Python and the
browser count code points or UTF-16 units; converting offsets is where annotation tools go wrong
with emoji. We never convert offsets: the text is encoded once and sliced as bytes.

Spans may overlap or nest (imported groundingSupports overlap citations), touch, or be empty. So
the text is cut at every span boundary into flat segments, each carrying the set of spans that
cover it; that yields valid, non-nested HTML whatever the spans are. Empty spans and citation
markers become empty elements at their offset.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


@dataclass(frozen=True)
class Span:
    """A highlight: `key` identifies it in the page (data-claims), `css` styles it."""

    key: str
    start: int
    end: int
    css: str = ""
    title: str = ""
    # Citation markers shown right after the span, e.g. ("1", "3").
    markers: tuple[str, ...] = ()
    # An empty "marker" span shows only its markers (e.g. an imported citation's end).
    marker_only: bool = False


@dataclass
class Segment:
    text: str
    start: int
    end: int
    # Covering spans, outermost first; the last is the innermost, which decides the colour.
    spans: list[Span] = field(default_factory=list)


@dataclass
class Point:
    """Something at a single offset: an empty span, or the citation markers of a span ending here."""

    offset: int
    span: Span
    empty: bool


@dataclass
class Sliced:
    pieces: list[Segment | Point]
    # Spans that are out of range, reversed, or cut a character in half; never rendered.
    invalid: list[Span]


def is_char_boundary(data: bytes, offset: int) -> bool:
    """True when a UTF-8 byte offset falls between two characters (or at either end)."""
    if offset < 0 or offset > len(data):
        return False
    # Continuation bytes look like 0b10xxxxxx; every other byte starts a character.
    return offset == len(data) or (data[offset] & 0xC0) != 0x80


def span_error(data: bytes, start: int, end: int) -> str:
    """Why a span is not valid for this text, or "" when it is."""
    if start < 0 or end < 0:
        return "offsets must not be negative"
    if start > end:
        return f"start {start} is after end {end}"
    if end > len(data):
        return f"end {end} is past the end of the text ({len(data)} bytes)"
    if not is_char_boundary(data, start):
        return f"start {start} is inside a UTF-8 character"
    if not is_char_boundary(data, end):
        return f"end {end} is inside a UTF-8 character"
    return ""


def _joins_previous(char: str) -> bool:
    """A combining accent, a joiner, a variation selector or a skin tone: part of the character
    before it as a reader sees it."""
    return (
        unicodedata.category(char) in ("Mn", "Mc", "Me")
        or char in "\u200d\ufe0e\ufe0f"
        or "\U0001f3fb" <= char <= "\U0001f3ff"
    )


REGIONAL_INDICATOR_A = "\U0001f1e6"


def _regional_indicator(data: bytes, offset: int) -> bool:
    # Every regional indicator (U+1F1E6..U+1F1FF) is four bytes in UTF-8.
    char = data[offset : offset + 4].decode("utf-8", errors="ignore")[:1]
    return "\U0001f1e6" <= char <= "\U0001f1ff"


def _inside_flag(data: bytes, offset: int) -> bool:
    """Whether `offset` falls between the two halves of a flag. Regional indicators pair up from
    the start of their run ("🇫🇷🇩🇪" is FR then DE), so an odd number of them before the offset,
    with one after it, is a flag cut in two."""
    if offset >= len(data) or not _regional_indicator(data, offset):
        return False
    before = 0
    while offset - 4 * (before + 1) >= 0 and _regional_indicator(data, offset - 4 * (before + 1)):
        before += 1
    return before % 2 == 1


def cluster_end(data: bytes, offset: int) -> int:
    """The first offset at or after `offset` that does not split what a reader sees as one
    character: a marker put between "e" and its combining accent would wear the accent, and one
    inside an emoji's joined sequence would break the emoji in two."""
    if _inside_flag(data, offset):
        offset += len(REGIONAL_INDICATOR_A.encode("utf-8"))
    after_joiner = False
    while offset < len(data):
        char = data[offset : offset + 4].decode("utf-8", errors="ignore")[:1]
        if not char or not (after_joiner or _joins_previous(char)):
            break
        after_joiner = char == "\u200d"
        offset += len(char.encode("utf-8"))
    return offset


def slice_text(text: str, spans: Iterable[Span]) -> Sliced:
    data = text.encode("utf-8")
    valid: list[Span] = []
    invalid: list[Span] = []
    for span in spans:
        (invalid if span_error(data, span.start, span.end) else valid).append(span)

    boundaries = {0, len(data)}
    for span in valid:
        boundaries.add(span.start)
        boundaries.add(span.end)

    # Outermost first: earlier start, then longer span.
    ordered = sorted(valid, key=lambda s: (s.start, -s.end, s.key))
    ends_at: dict[int, list[Span]] = {}
    empty_at: dict[int, list[Span]] = {}
    for span in ordered:
        # Markers and empty spans go where the reader's character ends; the highlighted text
        # keeps the span's own bytes.
        at = cluster_end(data, span.end)
        if span.start == span.end:
            empty_at.setdefault(at, []).append(span)
        elif span.markers:
            ends_at.setdefault(at, []).append(span)
        boundaries.add(at)
    cuts = sorted(boundaries)

    pieces: list[Segment | Point] = []
    # Sweep: spans become active at their start and inactive at their end; segments are short,
    # so checking the active list per segment is cheap (claims rarely overlap more than 2 deep).
    pending = [s for s in ordered if s.start < s.end]
    active: list[Span] = []
    next_pending = 0
    for index, offset in enumerate(cuts):
        for span in ends_at.get(offset, ()):
            pieces.append(Point(offset, span, empty=False))
        for span in empty_at.get(offset, ()):
            pieces.append(Point(offset, span, empty=True))
        if index + 1 == len(cuts):
            break
        stop = cuts[index + 1]
        active = [s for s in active if s.end > offset]
        while next_pending < len(pending) and pending[next_pending].start <= offset:
            active.append(pending[next_pending])
            next_pending += 1
        covering = sorted(
            (s for s in active if s.start <= offset and s.end >= stop),
            key=lambda s: (s.start, -s.end, s.key),
        )
        pieces.append(Segment(data[offset:stop].decode("utf-8"), offset, stop, covering))
    return Sliced(pieces, invalid)


def innermost(spans: Sequence[Span]) -> Span:
    return min(spans, key=lambda s: (s.end - s.start, -s.start))


def render_markers(span: Span) -> str:
    # Each link names itself: ARIA forbids a label on a plain <sup>, and a bare "2" says little.
    links = "".join(
        f'<a class="cite-marker" href="#ref-{escape(marker)}" data-claim="{escape(span.key)}" '
        f'aria-label="reference {escape(marker)}">{escape(marker)}</a>'
        for marker in span.markers
    )
    return f'<sup class="cites">{links}</sup>'


def render(text: str, spans: Iterable[Span]) -> SafeString:
    """HTML for the text with spans highlighted; all text is escaped."""
    return render_sliced(slice_text(text, spans))


def render_sliced(sliced: Sliced) -> SafeString:
    out: list[str] = []
    for piece in sliced.pieces:
        if isinstance(piece, Point):
            span = piece.span
            if piece.empty and not span.marker_only:
                out.append(
                    f'<span class="hl hl-empty {escape(span.css)}" data-claims="{escape(span.key)}"'
                    f' title="{escape(span.title)}"></span>'
                )
            if span.markers:
                out.append(render_markers(span))
            continue
        if not piece.spans:
            out.append(escape(piece.text))
            continue
        inner = innermost(piece.spans)
        keys = " ".join(escape(s.key) for s in piece.spans)
        classes = "hl " + escape(inner.css)
        if len(piece.spans) > 1:
            classes += " hl-overlap"
        out.append(
            f'<span class="{classes}" data-claims="{keys}" data-claim="{escape(inner.key)}"'
            f' title="{escape(inner.title)}">{escape(piece.text)}</span>'
        )
    return mark_safe("".join(out))  # noqa: S308 - every piece of text above is escaped
