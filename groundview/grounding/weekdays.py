"""The days of the week a text says something happens on (`read_days`): "Monday through Friday" is
Tuesday too, "weekdays" five days, "every day" and "24/7" all seven.

A support page's or a shop's hours give a span of days, and a claim names one day or the weekend.
Word by word "Tuesday" is nowhere in "Monday through Friday", and "weekends" is a word the embedder
finds close enough to "Monday" and "Friday" to pass, so coverage read both the wrong way round.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from .lexical import stem

DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
ALL_WEEK = frozenset(range(7))
WEEKDAYS = frozenset(range(5))
WEEKEND = frozenset([5, 6])

_FULL = r"(?i:(mon|tues|wednes|thurs|fri|satur|sun)days?)"
# Abbreviations only capitalised: "sat", "sun" and "wed" are words of their own.
_SHORT = r"(Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\b\.?"
_DAY = rf"(?:{_FULL}|{_SHORT})\b"
_RANGE = re.compile(
    rf"\b{_DAY}\s*(?:-|–|—|(?i:to|through|thru|until|till))\s*{_DAY}",
)
_NAMED = re.compile(rf"\b{_FULL}\b")
_PREFIXES = {p: i for i, p in enumerate(("mon", "tue", "wed", "thu", "fri", "sat", "sun"))}
# Said of a text, these give every day: "open daily", "seven days a week", "24/7" (which `normalise`
# writes as "round the clock").
_EVERY_DAY = re.compile(
    r"\b(?:every day|daily|(?:7|seven) days a week|(?:a)?round the clock|24 hours a day"
    r"|365 days a year)\b",
    re.IGNORECASE,
)
_ALL_HOURS = re.compile(r"\b(?:(?:a)?round the clock|24 hours a day)\b", re.IGNORECASE)
_WEEKDAYS = re.compile(r"\bweek ?days?\b", re.IGNORECASE)
_WEEKEND = re.compile(r"\bweek-?ends?\b", re.IGNORECASE)
# A cheap look before the patterns: most sentences name no day.
_ANY = re.compile(r"(?i:day|clock|week)|Mon|Tue|Wed|Thu|Fri|Sat|Sun")


@dataclass(frozen=True)
class Days:
    """The days of the week a text says, Monday 0 to Sunday 6."""

    days: frozenset[int] = frozenset()
    # It gives a span that leaves days out ("Monday to Friday", "weekdays", "weekends"): a day
    # outside every span it says is a day it says nothing happens on.
    limited: bool = False
    # It says all day long ("24/7", "around the clock", "24 hours a day").
    all_hours: bool = False

    def __bool__(self) -> bool:
        return bool(self.days) or self.all_hours

    @cached_property
    def stems(self) -> frozenset[str]:
        """The stems of the days it says, and "weekday" or "weekend" when it says all of them."""
        out = {stem(DAY_NAMES[d]) for d in self.days}
        if self.days >= WEEKDAYS:
            out.add(stem("weekday"))
        if self.days >= WEEKEND:
            out.add(stem("weekend"))
        return frozenset(out)


NO_DAYS = Days()


def _index(word: str) -> int:
    return _PREFIXES[word.lower()[:3]]


def read_days(text: str) -> Days:
    """The days of the week `text` says, as `normalise` wrote it."""
    if not _ANY.search(text):
        return NO_DAYS
    days: set[int] = set()
    limited = False
    for m in _RANGE.finditer(text):
        first, last = (_index(g) for g in m.groups() if g)
        # "Friday to Monday" wraps over the weekend
        span = range(first, last + 1) if first <= last else [*range(first, 7), *range(last + 1)]
        if len(span) < 7:
            days.update(span)
            limited = True
        # "listings running from Saturday to Friday" bound a week; they say nothing of a Wednesday
    days.update(_index(m.group(1)) for m in _NAMED.finditer(text))
    if _WEEKDAYS.search(text):
        days |= WEEKDAYS
        limited = True
    if _WEEKEND.search(text):
        days |= WEEKEND
        limited = True
    if _EVERY_DAY.search(text):
        days |= ALL_WEEK
    all_hours = _ALL_HOURS.search(text) is not None
    if not days and not all_hours:
        return NO_DAYS
    return Days(frozenset(days), limited, all_hours)
