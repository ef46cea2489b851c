"""The rules a label follows: verdict values, claim spans, corrected citations, and the answer
verdict derived from claim verdicts. `services.save_label` applies them before it writes.

Spans are UTF-8 byte offsets, end exclusive, validated exactly like the importer validates Vertex
spans.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from groundview.answers.models import Answer, Reference
from groundview.errors import FieldError
from groundview.review.highlight import is_char_boundary
from groundview.review.models import Verdict

CITATION_PATTERN = re.compile(r"^(\d+)(?::(\d+))?$")


def page_citation(value: str) -> str:
    """A stored corrected citation as the review page writes it. The data counts positions from 0,
    as Vertex's referenceId does ("1:0"); the page numbers references and chunks from 1, as its
    markers do ("2:1": reference 2, its first chunk), so a reviewer types what they see."""
    if not isinstance(value, str):
        return str(value)  # an old admin edit; shown as stored
    m = CITATION_PATTERN.match(value)
    return _shifted(m, 1) if m else value


def stored_citation(value: str) -> str | None:
    """The page's "2:1" as stored ("1:0"); None for a 0, which the page never shows. Anything else
    is kept as typed, for `check_citations` to refuse by name."""
    m = CITATION_PATTERN.match(value)
    if not m:
        return value
    if int(m[1]) == 0 or (m[2] is not None and int(m[2]) == 0):
        return None
    return _shifted(m, -1)


def _shifted(m: re.Match[str], by: int) -> str:
    """A CITATION_PATTERN match, both its numbers moved by `by`."""
    return f"{int(m[1]) + by}" + (f":{int(m[2]) + by}" if m[2] is not None else "")


class LabelError(FieldError, ValueError):
    """A field of a label (the page's form or the API's body) breaks one of these rules."""


@dataclass(frozen=True)
class ClaimVerdict:
    start_index: int
    end_index: int
    verdict: str
    corrected_citations: Sequence[str] = ()
    note: str = ""


def check_verdict(value: object, field: str) -> str:
    if value not in Verdict.values:
        raise LabelError(field, f"{value!r} is not one of {', '.join(Verdict.values)}")
    return str(value)


def check_text(value: object, field: str) -> None:
    if not isinstance(value, str):
        raise LabelError(field, f"must be a string, not {type(value).__name__}")
    if "\x00" in value:
        raise LabelError(field, "must not contain NUL characters")


def check_span(data: bytes, start: object, end: object, field: str) -> tuple[int, int]:
    for name, value in (("start_index", start), ("end_index", end)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise LabelError(f"{field}.{name}", f"must be an integer, not {value!r}")
    assert isinstance(start, int) and isinstance(end, int)
    if start < 0:
        raise LabelError(f"{field}.start_index", f"{start} is negative")
    if start > end:
        raise LabelError(f"{field}.start_index", f"{start} is after end_index {end}")
    if end > len(data):
        raise LabelError(
            f"{field}.end_index", f"{end} is past the end of answerText ({len(data)} bytes)"
        )
    if not is_char_boundary(data, start):
        raise LabelError(f"{field}.start_index", f"{start} is inside a UTF-8 character")
    if not is_char_boundary(data, end):
        raise LabelError(f"{field}.end_index", f"{end} is inside a UTF-8 character")
    return start, end


def citation_targets(answer: Answer) -> set[str]:
    """Every valid corrected-citation value for this answer: "ref" and "ref:chunk"."""
    targets = set()
    for reference in Reference.objects.filter(answer=answer).prefetch_related("chunks"):
        targets.add(str(reference.position))
        for chunk in reference.chunks.all():
            targets.add(f"{reference.position}:{chunk.position}")
    return targets


def check_citations(values: Sequence[object], field: str, targets: Callable[[], set[str]]) -> None:
    """A corrected citation names a reference ("2") or a reference chunk ("2:0") of the answer.

    `targets` is asked only when there is a citation to check: most labels correct none, and
    reading the answer's references costs two queries.
    """
    for position, value in enumerate(values):
        where = f"{field}.corrected_citations[{position}]"
        if not isinstance(value, str) or not CITATION_PATTERN.match(value):
            raise LabelError(
                where, f'{value!r} is not a reference ("2") or a reference chunk ("2:0")'
            )
        if value not in targets():
            raise LabelError(where, f"{value!r} names no reference or chunk of this answer")


def derive_verdict(claims: Sequence[ClaimVerdict]) -> str:
    """An answer verdict from its claim verdicts, for when the reviewer picks none."""
    verdicts = {c.verdict for c in claims} - {Verdict.NO_CHECK_NEEDED}
    if not claims:
        return ""
    if not verdicts:
        return Verdict.NO_CHECK_NEEDED
    if Verdict.CONTRADICTED in verdicts:
        return Verdict.CONTRADICTED
    if verdicts == {Verdict.SUPPORTED}:
        return Verdict.SUPPORTED
    if verdicts == {Verdict.UNSUPPORTED}:
        return Verdict.UNSUPPORTED
    return Verdict.PARTIALLY_SUPPORTED
