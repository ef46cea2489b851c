"""Which sentence of a cited chunk supports a claim, for marking it in the evidence panel.

Deliberately simple and predictable: the chunk is split into sentences, and the sentence sharing
the most distinct word tokens with the claim wins (ties: the earlier sentence). When the checker
says exactly which text it cited (`citedChunks[].chunkText`) and that text occurs in the chunk,
that text is marked instead, since it is the checker's own evidence. Reviewers can see the whole
chunk anyway; the mark is a reading aid, not a verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

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


@dataclass
class MarkedText:
    text: str
    mark: tuple[int, int] | None

    @property
    def html(self) -> SafeString:
        if self.mark is None:
            return escape(self.text)
        a, b = self.mark
        return mark_safe(  # noqa: S308 - all three parts are escaped
            f'{escape(self.text[:a])}<mark class="support">{escape(self.text[a:b])}</mark>'
            f"{escape(self.text[b:])}"
        )


def mark_support(claim: str, text: str, cited: str = "") -> MarkedText:
    cited = cited.strip()
    if cited and cited != text.strip():
        at = text.find(cited)
        if at >= 0:
            return MarkedText(text, (at, at + len(cited)))
    return MarkedText(text, best_sentence(claim, text))
