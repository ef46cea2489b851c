"""The rules that find a number, year, name or code the evidence gives otherwise (`num_conflict`).

Each rule reads a claim against its candidates and returns what it found: "six FA Cups" where the
page counts five, "in 2019" where the sentence stating the rest gives 2018, a name the page gives to
someone else, "eased to 2.7% from 2.4%" where it moved the other way. Any finding caps the claim
(`support.consistency_cap`); `bench/rules.py` counts each rule's fires by human label on the shared
sets.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from .analysis import Analysis, code_parts, is_negation
from .candidates import (
    CALENDAR,
    PRONOUNS,
    Candidate,
    Rule,
    clause_stems,
    numbers_in,
    opens_with_pronoun,
    opens_with_reference,
    said_in,
    stating_clause,
    stems_stated,
    written_lowercase,
)
from .lexical import MONTHS, PASSIVE_AUXILIARIES, PLACES, STOPWORDS, stem, words
from .numbers import HOUR_OF_DAY, SPANS_OF_TIME, Number, changes, numbers_match, same_unit
from .weekdays import DAY_NAMES, read_days


def numbers_of_another(claim: Analysis, cands: Sequence[Candidate]) -> list[Number]:
    """The claim's count or amount stated only about something else, while the claim's subject
    is stated with a different one: "Jupiter has 274 moons" against "Saturn has 274 moons. Jupiter
    follows with 97." Only counts and amounts: a dateline states a year or a day about nothing in
    particular."""
    subject = claim.subject
    counts = [n for n in claim.numbers if n.count]
    # Several amounts in one claim list several things ("$500/month for the CRM, $2,500 for the
    # audit"), and its first name is not what each of them counts: on SummEdits the rule then held
    # down consistent summaries as often as inconsistent ones.
    if not subject or len(counts) != 1 or written_lowercase(subject, cands):
        return []
    out = []
    own = next((claim.clauses[i] for i, s in enumerate(claim.stems) if s == subject), -1)
    for n in counts:
        # "Tomás Aguilar gave Redmond the lead, and substitute Kwame Asante equalized in the 67th
        # minute": another name's clause holds the number
        clause = claim.clauses[n.at] if n.at >= 0 else own
        if clause != own and clause_stems(claim, clause) & (claim.names - {subject}):
            continue
        owners = [c for c in cands if any(numbers_match(n, m) for m in c.analysis.numbers)]
        # A sentence that opens with a pronoun may well be about the subject: no conflict there.
        if not owners or any(
            subject in stems_stated([c]) or opens_with_reference(c) for c in owners
        ):
            continue
        rival = [m for c in cands if subject in c.analysis.stems for m in c.analysis.numbers]
        if any(m.count and _same_measure(n, m) and not numbers_match(n, m) for m in rival):
            out.append(n)
    return out


def _same_measure(n: Number, m: Number) -> bool:
    """Of one unit, or both spans of time: "a 90-day warranty" is another length than "2-year"."""
    return same_unit(m.unit, n.unit) or (n.unit in SPANS_OF_TIME and m.unit in SPANS_OF_TIME)


def counted_otherwise(claim: Analysis, cands: Sequence[Candidate]) -> list[Number]:
    """The claim's count of a thing that the page counts with another number, where the claim's
    number counts something else there: "Arsenal won six FA Cups" against "they won five League
    titles and five FA Cups" and "one of only six clubs to have won the FA Cup". A number whose
    thing the page does not count stays with the words ("16 terminals" against "16 gates")."""
    out = []
    numbers = numbers_in(cands)
    for n in claim.numbers:
        # A model's code ("The KX200 kettles") counts nothing. A bound or an estimate ("more
        # than 1,000 homes") counts as a number does, against a rival count that fails it
        # ("around 300 homes … more than 1,000 people").
        if n.is_year or n.listed or n.ordinal or not n.counted:
            continue
        if _in_a_code(claim, n):
            continue
        same: list[Number] = []
        others: list[Number] = []
        for m in numbers:
            (same if numbers_match(n, m) else others).append(m)
        if not same or any(not m.counted or m.counted & n.counted for m in same):
            continue
        # A page that counts the thing several times (each season's episodes, the frames of each
        # session, "three daughters … two daughters") may sum or split them as the claim does.
        rivals = {
            m.value
            for m in others
            if n.counted <= m.counted and not (m.is_year or m.ordinal) and same_unit(m.unit, n.unit)
        }
        if len(rivals) == 1 and not _meets(n, next(iter(rivals))):
            out.append(n)
    return out


def _meets(bound: Number, value: float) -> bool:
    """Does `value` meet the claim's bound ("over 8,000 sketches" against "more than 15,000
    sketches")? A bare number meets only itself, which a rival is not."""
    if bound.qualifier == "gt":
        return value > bound.value
    if bound.qualifier in ("lt", "max"):
        return value < bound.value
    return False


def _in_a_code(a: Analysis, n: Number) -> bool:
    """Is `n` the digits that end a code `a` writes as one word ("KX200", "SKU-1234")?"""
    for code in a.codes:
        parts = code_parts(code)
        start = n.at - len(parts) + 1
        if start >= 0 and tuple(a.tokens[start : n.at + 1]) == parts:
            return True
    return False


def numbers_of_another_part(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5
) -> list[Number]:
    """In a claim that gives several things each its number, a number the best candidates give to
    another of them, while they give this one a different number: "A domestic wire costs $45, and
    an international one $25" against "Domestic wires cost $25 each; international wires cost
    $45." What tells the claim's parts apart is each part's words that the others lack."""
    # Amounts and counts of something: a day of the month, a place in a row or a score ("5–4")
    # is no thing's number.
    counts = [n for n in claim.numbers if _counts_a_thing(n)]
    if len({claim.clauses[n.at] for n in counts}) < 2:
        return []
    content = set(claim.content)
    out: list[Number] = []
    for n in counts:
        if n.listed:
            continue
        part = claim.clauses[n.at]
        others = {s for s, k in zip(claim.stems, claim.clauses, strict=True) if k != part}
        # What it counts, where that tells the parts apart ("130 calories"); else its clause's
        # words ("33 psi up front")
        own = frozenset(n.counted - others or (clause_stems(claim, part) & content) - others)
        if own and _given_to_another(n, own, cands, near):
            out.append(n)
    return out


def number_of_the_next_clause(claim: Analysis, cands: Sequence[Candidate]) -> list[Number]:
    """The claim's amount that the candidates state only in a sentence that gives its unit two
    amounts in two clauses, where the claim's words are those of the other amount's clause:
    "Secondary caregivers get 16 weeks" against "Parental leave is 16 weeks for the primary
    caregiver and 4 weeks for the secondary caregiver". Each clause is read from its number on,
    and whole where the rival's comes later ("Primary caregivers get 16 weeks, and secondary
    caregivers 4")."""
    if claim.negated:
        return []
    out = []
    for n in claim.numbers:
        if n.listed or not _counts_a_thing(n):
            continue
        # the words of the number's own clause: a claim of several parts has words for each
        content = clause_stems(claim, claim.clauses[n.at]) & set(claim.content)
        stated = [
            (c.analysis, m)
            for c in cands
            for m in c.analysis.numbers
            if m.at >= 0 and numbers_match(n, m)
        ]
        if stated and all(_in_the_clause_of_another(content, n, a, m) for a, m in stated):
            out.append(n)
    return out


def _in_the_clause_of_another(content: set[str], n: Number, a: Analysis, m: Number) -> bool:
    mine = a.clauses[m.at]
    for r in a.numbers:
        if r.at < 0 or a.clauses[r.at] == mine:
            continue
        # a year and 90 days are both spans of time, kept "for 1 year on the Enterprise plan and
        # 90 days on the Business plan"
        spans = n.unit in SPANS_OF_TIME and r.unit in SPANS_OF_TIME
        if not _rival_amount(n, r) and not (spans and _an_amount(r) and not numbers_match(n, r)):
            continue
        # of the same measure, or counting the same thing: "13 seasons" no rival of "2 types"
        if not (n.unit and _same_measure(n, r)) and not n.counted & r.counted:
            continue
        theirs = a.clauses[r.at]
        # the word right after a number says what it measures, which a clause after may leave
        # out: the "uptime" of "99.9% uptime for the Business tier and 99.5% for the Standard"
        counted = _measured(a, m.at) | _measured(a, r.at)
        # and what both count, which an elliptical clause leaves out: "45 sorting facilities in
        # the United States and two in Canada"
        counted |= m.counted & r.counted
        # Read whole, a clause before may hold the subject of both ("Akon has had four songs
        # certified 3× platinum, three songs 2× platinum"): only a later one is read so.
        views = [(0, 0), (m.at, r.at)] if r.at > m.at else [(m.at, r.at)]
        for start_m, start_r in views:
            own = _clause_from(a, mine, start_m) - counted
            other = _clause_from(a, theirs, start_r) - counted
            # each part must say whose its number is: "Violent crime fell 9% last year, and
            # property crime rose 7%" gives the 7% nothing of its own after it
            if own - other and not content & (own - other) and content & (other - own):
                return True
    return False


def _measured(a: Analysis, at: int) -> set[str]:
    """The word after the number at `at`, which says what it measures; after "per", the word
    that follows too: "$45 per shot; … cats cost $35" leaves out the "shot" of both."""
    after = a.stems[at + 1 : at + 3]
    return set(after) if after[:1] == ["per"] else set(after[:1])


def _clause_from(a: Analysis, clause: int, start: int) -> set[str]:
    """The words of a clause from token `start` on, its numbers and stopwords aside."""
    return {
        s
        for i, (t, s, k) in enumerate(zip(a.tokens, a.stems, a.clauses, strict=True))
        if k == clause and i >= start and t.isalpha() and t not in STOPWORDS
    }


def _counts_a_thing(n: Number) -> bool:
    """A count or amount of something, exact or about ("$45", "30 Republicans", "about 30,000
    objects"); a bound ("over 8,000 sketches") may be a total the page breaks down."""
    return (
        n.at >= 0
        and n.count
        and not n.ordinal
        and n.qualifier in ("", "about")
        and bool(n.unit or n.counted)
    )


def _given_to_another(
    n: Number, own: frozenset[str], cands: Sequence[Candidate], near: int
) -> bool:
    """Do the candidates state `n` only in clauses without `own`'s words, and the best of them a
    rival number of its unit in a clause with them? A clause with a pronoun may be about anything,
    so `n` stated there may be `own`'s."""
    stated = False
    for c in cands:
        a = c.analysis
        for m in a.numbers:
            if m.at < 0 or not numbers_match(n, m):
                continue
            clause = a.clauses[m.at]
            tokens = {t for t, k in zip(a.tokens, a.clauses, strict=True) if k == clause}
            if clause_stems(a, clause) & own or tokens & PRONOUNS:
                return False
            # "Revenue was £384.6 million, up 4.2% on last year": a clause of its own holds the
            # 4.2%, but no other clause of the sentence claims a number of its unit
            if set(a.stems) & own and not _rival_in_clause_with(n, a, own):
                return False
            stated = True
    if not stated:
        return False  # an unbacked number is `num_missing`'s
    return any(_rival_in_clause_with(n, c.analysis, own) for c in cands[:near])


def _rival_in_clause_with(n: Number, a: Analysis, own: frozenset[str]) -> bool:
    """Does `a` give another number of `n`'s unit in a clause with `own`'s words?"""
    with_own = {k for k, s in zip(a.clauses, a.stems, strict=True) if s in own}
    return any(
        _counts_a_thing(r)
        and a.clauses[r.at] in with_own
        and same_unit(r.unit, n.unit)
        # "1 cup" is no rival of "130 calories"
        and (not r.counted or not n.counted or bool(r.counted & n.counted))
        and not numbers_match(n, r)
        for r in a.numbers
    )


_OPENS, _CLOSES = stem("opens"), stem("closes")
_UNTIL = words("until till")


def _hours(a: Analysis) -> list[tuple[Number, Number]]:
    """The spans of hours a text gives, as (from, to): "open 08:00 to 20:00", "9 am - 9 pm"."""
    times = [n for n in a.numbers if n.unit in ("am", "pm", HOUR_OF_DAY)]
    # A page on the 24-hour clock ("08:00 to 20:00") says which half of the day each hour is in.
    if any(t.unit == HOUR_OF_DAY and (t.value >= 13 or t.text.startswith("0")) for t in times):
        times = [_half_of_the_day(t) if t.unit == HOUR_OF_DAY else t for t in times]
    return list(zip(times[::2], times[1::2], strict=False))


def _half_of_the_day(t: Number) -> Number:
    if t.value < 12:
        return replace(t, unit="am")
    return replace(t, value=t.value - 12 if t.value >= 13 else t.value, unit="pm")


def hour_of_another(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[Number]:
    """The claim's closing time that the best candidates give only as an opening time, or the
    other way round: "closes at 8 am" against "open from 08:00 to 20:00"."""
    # "open until 9 pm" gives the closing time
    until = bool(_UNTIL.intersection(claim.tokens))
    opens, closes = _OPENS in claim.stems and not until, _CLOSES in claim.stems or until
    times = [n for n in claim.numbers if n.unit in ("am", "pm")] if opens != closes else []
    if len(times) != 1:
        return []
    (t,) = times
    spans = [span for c in cands[:near] for span in _hours(c.analysis)]
    said, other = (1, 0) if closes else (0, 1)
    as_said = any(numbers_match(t, span[said]) for span in spans)
    return [t] if not as_said and any(numbers_match(t, span[other]) for span in spans) else []


def hour_of_another_day(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[Number]:
    """The claim's hour that the best candidates give only in a clause naming other days, while
    they speak of the claim's days elsewhere: "open until 9 pm on Saturdays" against "open Tuesday
    to Sunday from 10 am to 6 pm, and until 9 pm on Fridays". A clause that gives the hour to the
    claim's day, or to no day, backs it."""
    want = claim.days.days
    if not want:
        return []
    out = []
    for t in claim.numbers:
        if t.unit not in ("am", "pm", HOUR_OF_DAY):
            continue
        given = [
            _days_of_clause(c.analysis, m.at)
            for c in cands[:near]
            if want <= c.analysis.days.days
            for m in c.analysis.numbers
            if numbers_match(t, m)
        ]
        if given and all(days and not days & want for days in given):
            out.append(t)
    return out


def _days_of_clause(a: Analysis, at: int) -> frozenset[int]:
    """The days of the week the clause of token `at` names."""
    clause = a.clauses[at]
    return read_days(
        " ".join(t for t, k in zip(a.tokens, a.clauses, strict=True) if k == clause)
    ).days


def day_outside_span(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[str]:
    """The claim's days of the week that the best candidates leave out of the span they give, and
    no candidate names: "open on weekends" or "on Saturday" against "Monday through Friday"; and a
    claim's "24/7" against a page that gives hours, and never says all day long."""
    want = claim.days
    if not want:
        return []
    limited = any(c.analysis.days.limited for c in cands[:near])
    hours = any(_hours(c.analysis) for c in cands[:near])
    said = [c.analysis.days for c in cands]
    out = []
    if limited:
        covered = frozenset().union(*(d.days for d in said))
        out = [DAY_NAMES[d].capitalize() for d in sorted(want.days - covered)]
    if want.all_hours and hours and not any(d.all_hours for d in said):
        out.append("round the clock")
    return out


# The words that bound a span of time: "within 14 days" is before the span ends, "after 14 days"
# once it has.
_BEFORE_SPAN_ENDS = words("within before")
_AFTER_SPAN_ENDS = words("after beyond")
_SPAN_STEMS = frozenset(stem(u) for u in SPANS_OF_TIME)


_SHORT_OF = words("almost nearly")


def _side(a: Analysis, n: Number) -> str:
    """Which side of the number a bound puts what the text says: "below" for "within 14 days",
    "under 12" or "up to $50", "above" for "after 14 days" or "over 12"; "" for a bare number."""
    # a bare count of days ("5 working days") is a span as "5 days" is
    if n.is_year:
        return ""
    a_span = n.unit in SPANS_OF_TIME or (not n.unit and bool(n.counted & _SPAN_STEMS))
    word = a.tokens[n.at - 1] if a_span and n.at > 0 else ""
    if n.qualifier in ("lt", "max") or word in _BEFORE_SPAN_ENDS:
        return "below"
    # "almost half" is less than half, as near as it comes: against "more than half"
    if n.at > 0 and a.tokens[n.at - 1] in _SHORT_OF:
        return "below"
    if n.qualifier == "gt" or word in _AFTER_SPAN_ENDS:
        return "above"
    return ""


def bound_reversed(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[Number]:
    """The claim's bounded number that the best candidates bound the other way, and none leave
    bare: "a refund after 14 days" against "Refunds are available within 14 days", "Children under
    12 can take 1 tablet" against "Adults and children over 12: take 1 to 2 tablets". One that
    bounds it as the claim does backs it only where it states as much of the rest of the claim
    ("After 30 days, we offer store credit only" is no "a full refund after 30 days"; "Children
    under 12: do not use" no dose) and does not deny it ("After 14 days, no refunds are given").
    "Within 14 days you get a full refund; after that the refund is prorated" bounds it both
    ways, each with its own words."""
    if claim.negated:
        return []
    content = set(claim.content) - _SPAN_STEMS
    out = []
    for n in claim.numbers:
        side = _side(claim, n)
        if not side:
            continue
        bare = replace(n, qualifier="")
        stated = [
            (i, c, _side(c.analysis, m), m.at)
            for i, c in enumerate(cands)
            for m in c.analysis.numbers
            if numbers_match(bare, replace(m, qualifier=""))
        ]
        if any(s == "" for _, _, s, _ in stated):
            continue
        sides = [part for i, c, s, at in stated for part in _bounded_parts(i, c, s, at, claim)]
        other = [(c, said) for i, c, s, said in sides if s != side and i < near]
        if not other or any(c.analysis.negates & content for c, _ in other):
            continue
        mine = [said for _, c, s, said in sides if s == side and not c.analysis.negates & content]
        most = max(len(content & said) for _, said in other)
        if all(len(content & said) < most for said in mine):
            out.append(n)
    return out


# "…within 14 days; after that the refund is prorated": what follows is past the bound
_PAST_IT = (("after", "that"), ("after", "which"), ("after", "this"), ("beyond", "that"))


def _bounded_parts(
    i: int, c: Candidate, side: str, at: int, claim: Analysis
) -> list[tuple[int, Candidate, str, set[str]]]:
    """The candidate's side of the bound with the words it says of it: two parts where it bounds
    a number "within" and then says what holds "after that"."""
    a = c.analysis
    if side == "below":
        pairs = list(zip(a.tokens, a.tokens[1:], strict=False))
        for k in range(at + 1, len(pairs)):
            if pairs[k] in _PAST_IT:
                return [(i, c, "below", set(a.stems[:k])), (i, c, "above", set(a.stems[k:]))]
    return [(i, c, side, said_in(c, claim))]


def year_of_another(claim: Analysis, cands: Sequence[Candidate]) -> list[Number]:
    """The claim's one year, when the candidates say the claim of another subject in that year and
    of the claim's subject in another: "The CN Tower opened in 1889" against "The CN Tower opened
    in 1976. The Eiffel Tower opened in 1889." Both sentences must state every other word of the
    claim, so a dateline, another event of the subject's ("joined the youth team in 2005") or of
    something else ("The iPhone was unveiled in 2007" for "Apple released the iPhone in 2007") is
    no rival; a sentence that may be about the subject (its name or a pronoun in it) backs it."""
    years = [n for n in claim.numbers if n.is_year]
    subject = claim.subject
    if not subject or len(years) != 1 or len(claim.numbers) != 1:
        return []
    year = years[0]
    words = set(claim.content)
    owners = [
        i for i, c in enumerate(cands) if any(numbers_match(year, m) for m in c.analysis.numbers)
    ]
    if not owners:
        return []
    each = [stems_stated([c]) for c in cands]
    if not all(_said_of_another(claim, cands[i], each[i]) for i in owners):
        return []
    rival = any(
        words <= stems
        and any(m.is_year for m in c.analysis.numbers)
        and not any(numbers_match(year, m) for m in c.analysis.numbers)
        for c, stems in zip(cands, each, strict=True)
    )
    return [year] if rival else []


_RELATIVE_YEAR = re.compile(r"\b(?:this|last|that|next|the same|the following) year\b")


def year_stated_elsewhere(
    claim: Analysis, cands: Sequence[Candidate], share: float = 0.8, little: float = 0.5
) -> list[Number]:
    """The claim's one year, when a candidate states the rest of the claim in a clause that gives
    another year, and every sentence that gives the claim's year states little of it: "Okafor was
    elected a Fellow of the Royal Society in 2016" against "She was elected a Fellow of the Royal
    Society of Chemistry in 2009" and a headline "Okafor awarded 2016 Harland Medal". A sentence
    that dates the claim as "this year" may state the claim's year that way, and a dateline
    ("Published 2019") may date it too."""
    years = [n for n in claim.numbers if n.is_year]
    if len(years) != 1:
        return []
    year = years[0]
    content = set(claim.content)
    if len(content) < 3:
        return []
    each = [content & stems_stated([c], claim) for c in cands]
    owners = [
        i for i, c in enumerate(cands) if any(numbers_match(year, m) for m in c.analysis.numbers)
    ]
    # The page's title is in every sentence's evidence, so it does not make a sentence that gives
    # the year state the claim: "Lovelace was born in 1816" on Ada Lovelace's page, where 1816 is
    # the year her father left England.
    own = [content & said_in(cands[i], claim) for i in owners]
    if not owners or any(len(got) >= little * len(content) for got in own):
        return []
    # A dateline ("Published 2019") dates the page, not another event
    if any(len(set(cands[i].analysis.content) - content) < 2 for i in owners):
        return []
    for i, (c, got) in enumerate(zip(cands, each, strict=True)):
        if (
            i in owners
            or len(got) < share * len(content)
            or _RELATIVE_YEAR.search(" ".join(c.analysis.tokens))
        ):
            continue
        # What only the title gives is in no clause of the sentence
        said = got & said_in(c, claim)
        clause = stating_clause(c.analysis, said, 0.5 * (len(content) - len(got - said)))
        if clause is None:
            continue
        if any(
            m.is_year and m.at >= 0 and c.analysis.clauses[m.at] == clause
            for m in c.analysis.numbers
        ):
            return [year]
    return []


def dated_months(a: Analysis) -> list[tuple[int, Number]]:
    """Each month written before a year ("June 2024", "November 2, 2004", "13 April 1944"): the
    month's token index and the year."""
    out = []
    for n in a.numbers:
        if not n.is_year or n.at < 1:
            continue
        i = n.at - 1
        if i >= 1 and a.tokens[i].isdigit() and len(a.tokens[i]) <= 2:  # the day between
            i -= 1
        if a.tokens[i] in MONTHS:
            out.append((i, n))
    return out


def month_of_another(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """The claim's month, when a sentence stating every other word of the claim gives its year
    another month and none that does names the claim's: "Version 2.4 was released in June 2024"
    against "Version 2.4 was released in March 2024 and added offline mode. Version 2.5 followed in
    June 2024." The numbers rules read the year and the day alike there; the month is a word, and
    the union of the sentences backs every word."""
    dates = dated_months(claim)
    if len(dates) != 1:
        return []
    i, year = dates[0]
    month = claim.tokens[i]
    rest = set(claim.content) - {claim.stems[i]}
    if len(rest) < 2:
        return []
    # `lexical.normalise` has spelled out "Jun 2024" and "Sept. 2019" already
    stating = [c for c in cands if rest <= stems_stated([c], claim)]
    if any(month in c.analysis.tokens for c in stating):
        return []
    rival = any(
        numbers_match(year, n) and c.analysis.tokens[k] != month
        for c in stating
        for k, n in dated_months(c.analysis)
    )
    return [claim.stems[i]] if rival else []


def day_of_another(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """The claim's days of the week, when a sentence stating every other word of the claim names
    other days and none that does names the claim's: "Menus are vegetarian on Fridays" against
    "Menus are vegetarian on Mondays." `day_outside_span` needs a span that leaves days out; one
    day named is no span."""
    want = claim.days.days
    if not want or claim.days.all_hours:
        return []
    rest = set(claim.content) - claim.days.stems
    if len(rest) < 2:
        return []
    # A longer claim may name its thing otherwise ("The fire … broke out on Tuesday" against "A
    # wildfire … broke out on Sunday"): one word of four or more may be missing.
    spare = 1 if len(rest) >= 4 else 0
    stating = [c for c in cands if len(rest - stems_stated([c], claim)) <= spare]
    if any(want & c.analysis.days.days for c in stating):
        return []
    if any(c.analysis.days.days for c in stating):
        return [DAY_NAMES[d].capitalize() for d in sorted(want)]
    return []


def _said_of_another(claim: Analysis, cand: Candidate, stems: set[str]) -> bool:
    """Does this candidate (whose `stems_stated` are `stems`) say the claim of another subject ("The
    Eiffel Tower opened in 1889" for "The CN Tower opened in 1889"): every word of the claim but
    its subject, and no pronoun that may stand for the subject?"""
    return (
        claim.subject not in stems
        and not PRONOUNS.intersection(cand.analysis.tokens)
        and set(claim.content) - {claim.subject} <= stems
    )


def names_of_another(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """The claim's names (other than its subject) that the candidates state only of another
    subject, while a sentence stating the rest of the claim names something else in their place:
    "The CN Tower is in Paris" against "The Eiffel Tower is in Paris. The CN Tower is in Toronto."
    "Obama was born in Hawaii" against "Obama was born in Honolulu. Honolulu is in Hawaii." is no
    conflict: "Honolulu is in Hawaii" does not say "born" of another subject."""
    subject = claim.subject
    if not subject:
        return []
    others = sorted(claim.names - {subject})
    if not others:
        return []
    words = set(claim.content)
    each = [stems_stated([c]) for c in cands]
    out = []
    for name in others:
        owners = [i for i, stems in enumerate(each) if name in stems]
        if not owners or not all(_said_of_another(claim, cands[i], each[i]) for i in owners):
            continue
        if any(
            words - {name} <= stems and c.analysis.names - claim.names
            for c, stems in zip(cands, each, strict=True)
        ):
            out.append(name)
    return out


def codes_unstated(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """The claim's codes ("FITNESS15", "BA117") that no candidate writes, whether as a code
    ("ba-117") or spaced ("BA 117"): a code is exact, while its letters and its digits may each be
    on the page apart ("fitness" in one sentence, 15 in "ELITEFIT15")."""
    if not claim.codes:
        return []
    texts = [c.analysis for c in cands] + [c.attributes for c in cands if c.attributes]
    written = {code_parts(code) for a in texts for code in a.codes}
    out = []
    for code in claim.codes:
        parts = code_parts(code)
        n = len(parts)
        if parts in written or any(
            tuple(a.tokens[i : i + n]) == parts for a in texts for i in range(len(a.tokens) - n + 1)
        ):
            continue
        out.append(code)
    return out


def number_stated_elsewhere(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5, share: float = 0.75
) -> list[Number]:
    """The claim's counts and amounts that one of the best candidates, stating most of the rest of
    the number's clause, gives as another number of its unit, while every sentence that states the
    claim's number states less of that clause: "Spring rainfall was 61% of the long-term average"
    against "Rainfall between March and May was 38 percent of the long-term average. Reservoir
    levels stood at 61 percent." A candidate with a pronoun may be about something else."""
    content = set(claim.content)
    each = [stems_stated([c], claim) for c in cands]
    out: list[Number] = []
    for n in claim.numbers:
        if n.listed or not _an_amount(n) or n.at < 0 or _a_side(claim, n):
            continue
        rest = clause_stems(claim, claim.clauses[n.at]) & content
        if len(rest) < 2:
            continue
        owners = [
            i for i, c in enumerate(cands) if any(numbers_match(n, m) for m in c.analysis.numbers)
        ]
        if not owners:
            continue  # an unbacked number is `num_missing`'s
        stated = [len(rest & stems) for stems in each]
        most = max(stated[i] for i in owners)
        # The owner may state the claim's other clauses: "If you are 65 or older or have a
        # disabled placard, your first permit costs only $10" against "Residents aged 65 and over
        # … pay a reduced fee of $10 for their first permit. The first permit costs $35."
        whole = max(len(content & each[i]) for i in owners)
        if any(
            i not in owners
            and stated[i] >= share * len(rest)
            and stated[i] > most
            and len(content & each[i]) >= whole
            and not PRONOUNS.intersection(cands[i].analysis.tokens)
            and _rival_stating(n, cands[i].analysis, rest)
            for i in range(min(near, len(cands)))
        ):
            out.append(n)
    return out


def _beside(a: Analysis, at: int, reach: int = 3) -> set[str]:
    """The content stems within `reach` tokens of token `at`, in its clause ("£30 m": the scale
    is part of the number)."""
    k = a.clauses[at]
    return {
        a.stems[j]
        for j in range(max(0, at - reach), min(len(a.stems), at + reach + 1))
        if j != at
        and a.clauses[j] == k
        and a.tokens[j] not in STOPWORDS
        and not a.tokens[j][:1].isdigit()
        and len(a.tokens[j]) > 1
    }


_SPANS = frozenset(["years", "months", "weeks", "days", "hours", "minutes", "seconds"])


def number_beside_another(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5
) -> list[Number]:
    """The claim's amount that the best candidates state only beside other words, while the
    words beside it in the claim stand beside another amount of its unit: "Revenue rose 4%"
    against "Revenue rose 6% to $2.31 billion, helped by price increases averaging 4%", "£30m
    owed to suppliers" against "£12m owed to suppliers … a pension deficit of around £30m"."""
    content = set(claim.content)
    out: list[Number] = []
    for n in claim.numbers:
        if n.listed or n.at < 0 or not _an_amount(n) or _a_side(claim, n):
            continue
        # Amounts of money, percentages and measures, and counts in digits from 10 with what they
        # count ("45,000 line workers" against "45,000 customers … 200 line workers"): a small
        # count ("five children") is what a page gives other things of the same kind as often,
        # and a bound ("over 8,000 sketches") may be part of the page's "more than 15,000".
        counted = n.count and n.value >= 10 and n.counted and n.qualifier in ("", "about")
        if not (n.unit or counted):
            continue
        mine = _beside(claim, n.at) & content
        if n.unit in _SPANS or not mine:
            continue
        clause = clause_stems(claim, claim.clauses[n.at]) & content
        placed = [
            (m, _beside(c.analysis, m.at), c.analysis)
            for c in cands[:near]
            for m in c.analysis.numbers
            if m.at >= 0
        ]
        stated = [(m, around, a) for m, around, a in placed if numbers_match(n, m)]
        # Stated bare ("He was 91."), beside the words of the claim's clause, or in a clause that
        # holds the words beside it in the claim ("The median price paid for a home in the year
        # to September was €335,000") backs it
        if not stated or any(
            not around
            or around & clause
            or len(clause_stems(a, a.clauses[m.at]) & mine) >= min(2, len(mine))
            for m, around, a in stated
        ):
            continue
        # A rival in a clause about someone the claim's clause does not name is that one's:
        # "Ortega finished second with 29 percent" is no rival to "Delaney finished third with
        # 24 percent".
        named = clause & (claim.names | {claim.subject})
        if any(
            _rival_amount(n, m)
            and len(around & mine) >= min(2, len(mine))
            and not (named and _names_others(a, m, named))
            for m, around, a in placed
        ):
            out.append(n)
    return out


def _names_others(a: Analysis, m: Number, named: set[str]) -> bool:
    """Does the clause of `a` that holds `m` name someone, and none of `named`?"""
    there = clause_stems(a, a.clauses[m.at]) & a.names
    return bool(there) and not there & named


def _a_side(a: Analysis, n: Number) -> bool:
    """Is `n` one side of dimensions ("40 x 30 x 15 cm")? The sides measure one thing together:
    another sentence's "55 x 40 x 20 cm" gives no rival to one of them."""
    return "x" in a.tokens[max(0, n.at - 1) : n.at + 2]


def _rival_stating(n: Number, a: Analysis, rest: set[str]) -> bool:
    """Does `a` give another amount of `n`'s unit in its clause that states the most of `rest`?
    "Violent crime fell 9% last year, while property crime rose" gives 9% to violent crime, not
    to "Property crime rose 7%"."""
    group = _subject_groups(a)
    stated: dict[int, int] = {}
    for s, k in zip(a.stems, a.clauses, strict=True):
        stated[group[k]] = stated.get(group[k], 0) + (s in rest)
    best = max(stated.values(), default=0)
    return any(
        _rival_amount(n, m) and m.at >= 0 and stated[group[_clause_bounded(a, m)]] == best
        for m in a.numbers
    )


def _subject_groups(a: Analysis) -> dict[int, int]:
    """Each clause of `a` mapped to the first of the clauses that share its subject: "Standard
    shipping takes 5 to 7 business days and costs $4.99" says both of standard shipping, since
    its second clause opens on "and" and a verb, with no subject of its own."""
    group: dict[int, int] = {}
    for i, k in enumerate(a.clauses):
        if k in group:
            continue
        after = a.tokens[i + 1] if i + 1 < len(a.tokens) else ""
        verb = after.isalpha() and after not in STOPWORDS and after.endswith(("s", "ed"))
        shared = k > 0 and a.tokens[i] in ("and", "but") and verb and not after.endswith("ss")
        group[k] = group[k - 1] if shared else k
    return group


_BOUND_WORDS = words("up to a maximum minimum max min at most least no more than of")


def _clause_bounded(a: Analysis, m: Number) -> int:
    """The clause `m` is said in, or the one before when its own only bounds it: "Unused days can
    be carried over, up to a maximum of 5 days" carries over the 5 days."""
    k = a.clauses[m.at]
    words_ = {t for t, c in zip(a.tokens, a.clauses, strict=True) if c == k}
    number = set(m.text.lower().split())
    return k - 1 if k > 0 and words_ <= _BOUND_WORDS | number else k


def _an_amount(n: Number) -> bool:
    """A count or amount, in digits or in words of what it counts ("ten schools", "six months")."""
    return not n.is_year and not n.ordinal and (n.count or bool(n.unit or n.counted))


def _rival_amount(n: Number, m: Number) -> bool:
    """Is `m` another amount of what `n` counts? Digits of the same unit are; a number written as
    a word must count the same thing or have the same unit ("ten schools" for "22 schools")."""
    if not _an_amount(m) or not same_unit(m.unit, n.unit) or numbers_match(n, m):
        return False
    # "valued at over a billion dollars" is true of the page's $78 billion, however far above;
    # "orders over $50" is no rule the page's "orders over $75" states (`numbers_match`)
    beyond = (n.qualifier == "gt" and m.value > n.value) or (
        n.qualifier == "lt" and m.value < n.value
    )
    if beyond and m.qualifier != n.qualifier:
        return False
    if n.count and m.count:
        return True
    return bool(n.counted & m.counted) or bool(n.unit and n.unit == m.unit)


_OPENING = 4  # words in which a sentence names its subject: "In 2016, the Cubs won"


def name_in_the_slot_of_another(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5, share: float = 0.75
) -> list[str]:
    """The claim's names that one of the best candidates, stating most of the rest of the name's
    clause, replaces with another name after the same preposition, while every sentence naming the
    claim's name states less of that clause, and none names the two together: "The concerts
    opened in Stockholm in 2022" against "The concerts opened in London in May 2022. The group
    formed in Stockholm." So too the claim's subject, that such a candidate replaces with its own:
    "Kris Bryant was named MVP" against "Ben Zobrist was named MVP". A candidate opening with a
    pronoun may be about the claim's name."""
    content = set(claim.content)
    each = [stems_stated([c], claim) for c in cands]
    runs = {n: set(names) for names, _ in claim.runs for n in names}
    # A capital that opens a sentence marks a name only where the page writes it so mid-sentence.
    page_names = set().union(*(c.analysis.names for c in cands))
    named = claim.names | ({claim.subject} & page_names)
    out: list[str] = []
    seen: set[str] = set()
    for i, n in enumerate(claim.stems):
        if n not in named or n in seen or len(n) < 2 or n in CALENDAR:
            continue
        own = set(runs.get(n, {n}))
        # A name that opens the claim is in the subject's slot; another, in its preposition's.
        opens = all(t in STOPWORDS for t in claim.tokens[:i])
        # "Diego Maradona", "Augustus Prew": a sentence of the page that names the surname names
        # the person
        j = i + 1
        while j < len(claim.stems) and claim.stems[j] in claim.names:
            own.add(claim.stems[j])
            j += 1
        seen |= own
        before = "" if opens and n == claim.subject else claim.tokens[i - 1] if i else None
        if before is None or (before and before not in _SLOTS):
            continue
        rest = (clause_stems(claim, claim.clauses[i]) & content) - own
        if len(rest) < 2:
            continue
        # The kind of an institution the page writes after another name too ("Lund University",
        # "Northstar Ventures") names no one: "Uppsala University" is owned where "Uppsala" is.
        shared = {w for w in own & _KINDS if w != n and _after_another_name(cands, w, own)}
        owners = [k for k, st in enumerate(each) if (own - shared) & st]
        if not owners:
            continue
        stated = [len(rest & st) for st in each]
        most = max(stated[k] for k in owners)
        for k in range(min(near, len(cands))):
            if k in owners or stated[k] < share * len(rest) or stated[k] <= most:
                continue
            a = cands[k].analysis
            # A candidate opening with a pronoun may be about the claim's name, but "he" or "she"
            # is no place in a preposition's slot: "She plans to study medicine at the University
            # of Coimbra" is no sentence about Lisbon.
            personal = before and a.tokens[:1] in (["he"], ["she"])
            if opens_with_pronoun(cands[k]) and not personal:
                continue
            if not before and opens_with_reference(cands[k]):
                continue
            if before:
                rivals = {
                    s
                    for j, s in enumerate(a.stems)
                    if _after(a, j, before) and s in a.names and s not in named
                }
            else:  # the candidate's own subject: a name it writes first ("Ben Zobrist was…")
                rivals = (({a.subject} & page_names) | (set(a.stems[:3]) & a.names)) - named
                # A name written after the sentence's first four words is not its subject
                # ("In the 1990s the 767 became… between North America and Europe").
                rivals = {r for r in rivals if r in a.stems[:_OPENING]}
            rivals -= CALENDAR  # "The court ruled on Tuesday…" is about no Tuesday
            # A page that names both together relates them: "Honolulu is in Hawaii" backs "born
            # in Hawaii" beside "born in Honolulu".
            if any(not any(r in each[m] for m in owners) for r in rivals):
                out.append(n)
                break
    return out


_KINDS = frozenset(
    stem(w)
    for w in words(
        """university college institute school academy hospital museum library gallery ventures
    capital partners group holdings bank airlines airways foundation council party club company
    corporation association society church cathedral river lake street road avenue park stadium
    airport station"""
    )
)


def _after_another_name(cands: Sequence[Candidate], word: str, own: set[str]) -> bool:
    """Does a candidate write `word` right after a name, with none of `own` in the three words
    before it ("Diego Armando Maradona" is still Maradona)?"""
    return any(
        s == word and a.stems[j - 1] in a.names and not own & set(a.stems[max(0, j - 3) : j])
        for a in (c.analysis for c in cands)
        for j, s in enumerate(a.stems)
        if j
    )


def _after(a: Analysis, j: int, word: str) -> bool:
    """Does `word` stand right before token `j` of `a`, or before "the" and one word in lower case
    that names a role ("chaired by the critic Tom Ashby")?"""
    if j >= 1 and a.tokens[j - 1] == word:
        return True
    return (
        j >= 3
        and a.tokens[j - 3] == word
        and a.tokens[j - 2] == "the"
        and a.stems[j - 1] in a.content
        and a.stems[j - 1] in a.lower
        and a.clauses[j - 3] == a.clauses[j]  # not "in the city, Pride Week takes place"
    )


def described_of_another(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """The name the claim describes in a clause after it ("Frank Hale, who proposed the plan,
    said…"), where a candidate gives that description, in a clause after a name, to another name,
    and no sentence naming the claim's name states it: "Council member Dana Ortiz, who proposed
    the plan, said…". A summary pins a description on the wrong person more easily than it
    invents one. Only a clause that opens with "who", of two words at least: an apposition ("Mike
    Johnson, a sales representative of AquaSonic,") the page gives as often in a signature or a
    heading, and "Smith, a Democrat," may be said of many."""
    names = claim.names | ({claim.subject} - {""})
    content = set(claim.content)
    out: list[str] = []
    for k in range(1, max(claim.clauses, default=0)):
        start = claim.clauses.index(k)
        who = claim.stems[start - 1]
        described = clause_stems(claim, k) & content
        if who not in names or len(described) < 2 or claim.tokens[start] not in _RELATIVE:
            continue
        if any(who in c.analysis.stems and described <= stems_stated([c]) for c in cands):
            continue
        if any(_describes_another(c.analysis, who, described) for c in cands):
            out.append(who)
    return out


def _describes_another(a: Analysis, who: str, described: set[str]) -> bool:
    """Does a clause of `a` that opens with "who" after a name other than `who` state all of
    `described`?"""
    for k in sorted(set(a.clauses) - {0}):
        start = a.clauses.index(k)
        before = a.stems[start - 1]
        if a.tokens[start] not in _RELATIVE or before == who:
            continue
        if before in a.names | {a.subject} and described <= clause_stems(a, k):
            return True
    return False


_RELATIVE = frozenset(["who", "whose"])


def subject_of_another(claim: Analysis, cands: Sequence[Candidate], near: int = 3) -> list[str]:
    """The claim's subject, when no candidate states it and one of the best states all the rest of
    the claim of a name of its own: "Osaka has 14 million people" against "Tokyo has 14 million
    people." A capital that opens the claim is no name to `Analysis.names`, so only the soft match
    had told the cities apart, and let it pass at 0.87. The rival must be a name the page writes
    mid-sentence or in a title: "Buyers get a refund" is no rival of "Customers get a refund"."""
    subject = claim.subject
    if not subject or subject in claim.names or subject not in claim.stems:
        return []
    at = claim.stems.index(subject)
    # "Part of the Hindu Kush is in…" is about the Hindu Kush
    if claim.tokens[at + 1 : at + 2] == ["of"]:
        return []
    # "Elvis Presley was born in Tupelo" against a page that calls him Presley
    own = {subject}
    for s in claim.stems[at + 1 :]:
        if s not in claim.names:
            break
        own.add(s)
    if own & stems_stated(cands, claim):
        return []
    rest = set(claim.content) - own
    if len(rest) + len(claim.numbers) < 2:
        return []
    page_names = set().union(*(c.analysis.names for c in cands))
    page_names |= {s for c in cands if c.attributes is not None for s in c.attributes.names}
    for c in cands[:near]:
        rival = c.analysis.subject
        # "Currently, Tokyo has…" opens with no name, and names its subject after it
        if not rival or rival in claim.stems or rival not in page_names:
            continue
        if opens_with_reference(c):
            continue
        if written_lowercase(rival, cands):
            continue
        # "One of the most popular festivals of Hinduism, it signifies…": a name after "of"
        # is what the subject is part of, not the subject
        if _after_of(c.analysis, rival):
            continue
        numbers = all(any(numbers_match(n, m) for m in c.analysis.numbers) for n in claim.numbers)
        if numbers and rest <= stems_stated([c], claim):
            return [subject]
    return []


def _after_of(a: Analysis, name: str) -> bool:
    """Does `a` write `name` first right after "of"?"""
    at = a.stems.index(name) if name in a.stems else -1
    return at > 0 and a.tokens[at - 1] == "of"


def modifier_of_another(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[str]:
    """A word the claim sets before a noun where the page sets another word before the same noun
    too, and one of the best candidates states, with that other word, all the rest of the claim,
    which no sentence writing the claim's word does: "Fee waivers are available for international
    applicants" against "The fee is $85 for international applicants. Fee waivers are available
    for domestic applicants." A help page tells its plans, tiers and seasons apart by such a word
    alone, so every other word of the claim is on the page and coverage passed it. The page must
    write the claim's word before that noun itself, so a word it never uses ("annual" for "total")
    is left to coverage."""
    content = set(claim.content)
    page_names = set().union(*(c.analysis.names for c in cands))
    out: list[str] = []
    for i in range(len(claim.stems) - 1):
        word, noun = claim.stems[i], claim.stems[i + 1]
        if word not in content or noun not in content or word in out:
            continue
        # "officially opened" says how, not which; in "private employee unions" the page may
        # name the middle word otherwise ("private sector unions")
        if claim.tokens[i].endswith("ly") or (i and claim.stems[i - 1] in content):
            continue
        # A capital marks a name's part ("Heath Ledger") where the noun has one too; the claim's
        # first word has one anyway. A name before a common noun is a plan's or a tier's ("the
        # Basic plan"), whose rivals are names too ("the Plus plan").
        if noun not in claim.lower or noun in claim.names:
            continue
        named = word in claim.names
        if not named and word not in claim.lower and (i or word in page_names):
            continue
        own = [c for c in cands if word in c.analysis.stems]
        if not any(_before(c.analysis, word, noun) for c in own):
            continue
        rest = content - {word}
        if any(_states_all(claim, rest, c) for c in own):
            continue
        for c in cands[:near]:
            a = c.analysis
            if word in a.stems or not _states_all(claim, rest, c):
                continue
            rivals = {
                a.stems[j - 1]
                for j in range(1, len(a.stems))
                if a.stems[j] == noun
                and a.stems[j - 1] not in STOPWORDS
                and (a.stems[j - 1] in a.names) == named
                and a.tokens[j - 1].isalpha()
                and not is_negation(a.tokens[j - 1])  # "no reaction" is no kind of reaction
            }
            if rivals - set(claim.stems) - CALENDAR:
                out.append(word)
                break
    return out


def _states_all(claim: Analysis, rest: set[str], c: Candidate) -> bool:
    """Does `c` state all of `rest` and every number of the claim?"""
    return rest <= stems_stated([c], claim) and all(_matched(n, [c]) for n in claim.numbers)


def _matched(n: Number, cands: Sequence[Candidate]) -> bool:
    return any(numbers_match(n, m) for m in numbers_in(cands))


def _before(a: Analysis, word: str, noun: str) -> bool:
    """Does `a` write `word` right before `noun`?"""
    return any(a.stems[j] == word and a.stems[j + 1] == noun for j in range(len(a.stems) - 1))


# A continent's people are a country's too ("a European women's team" is an English one), and
# Britain's nations are Britain's.
_OF_MANY_COUNTRIES = frozenset(["europe", "asia", "africa"])
_BRITISH = frozenset(["uk", "england", "scotland", "wales"])


def _demonym(token: str) -> str:
    """The country a demonym names ("portuguese": "portugal"), "" for any other word."""
    country = PLACES.get(token, "")
    return country if country != token and country not in _OF_MANY_COUNTRIES else ""


def _other_country(mine: str, theirs: str) -> bool:
    return theirs not in ("", mine) and not {mine, theirs} <= _BRITISH


def nationality_of_another(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[str]:
    """The claim's demonym right before a noun ("a 23-year-old Portuguese midfielder") where one
    of the best candidates, naming the claim's names, sets another country's demonym before the
    same noun, and no candidate sets the claim's there: "the Brazilian midfielder Caio Ramos, who
    scored nine goals in the Portuguese league". A summary gives a person the country of their
    club, their employer or their film."""
    names = {s for s in claim.names | {claim.subject} if s and not _demonym(s)}
    for i in range(len(claim.tokens) - 1):
        country, noun = _demonym(claim.tokens[i]), claim.stems[i + 1]
        if not country or noun not in claim.content or noun in claim.names:
            continue
        if i and claim.tokens[i - 1] == "native":
            continue  # "native Indian ancestry" is the page's "Native American ancestry"
        if any(_before(c.analysis, country, noun) for c in cands):
            continue
        for c in cands[:near]:
            a = c.analysis
            if not names & set(a.stems):
                continue
            if any(
                a.stems[j] == noun
                and _other_country(country, _demonym(a.tokens[j - 1]))
                and a.tokens[j - 2 : j - 1] != ["native"]
                # "produced both French and English language films" lists the claim's
                and country not in {_demonym(t) for t in a.tokens[max(0, j - 4) : j - 1]}
                for j in range(1, len(a.stems))
            ):
                return [country]
    return []


def version_of_another(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """The claim's words that no sentence of its release states, where a sentence of another
    release of the same thing states them all: "Version 2.4 added dark mode" against "Version 2.4
    was released in March 2024 and added offline mode. Version 2.5 followed in June 2024 with dark
    mode." A release's number is what a changelog's prose is about, as a name is elsewhere. Only a
    claim whose one number is the release's: a date or an amount beside it says which sentence
    it is of."""
    if len(claim.numbers) != 1 or not claim.numbers[0].version or claim.numbers[0].at < 1:
        return []
    release = claim.numbers[0]
    thing = claim.tokens[release.at - 1]  # "version", "python"

    def of_release(c: Candidate, same: bool) -> bool:
        return any(
            m.version
            and m.at >= 1
            and c.analysis.tokens[m.at - 1] == thing
            and numbers_match(release, m) == same
            for m in c.analysis.numbers
        )

    own = [c for c in cands if of_release(c, True)]
    missing = set(claim.content) - stems_stated(own, claim) - _RELEASE_VERBS if own else set()
    if not missing:
        return []
    others = [c for c in cands if of_release(c, False) and not of_release(c, True)]
    if any(missing <= said_in(c, claim) for c in others):
        return sorted(missing)
    return []


# What a changelog says a release did, in other words than the claim's: "Version 2.5 added dark
# mode" is what "Version 2.5 followed in June 2024 with dark mode" says.
_RELEASE_VERBS = frozenset(
    stem(w)
    for w in words(
        """add added adds include included includes introduce introduced introduces bring brings
        brought ship shipped ships come came comes feature featured features support supported
        supports offer offered offers provide provided provides gain gained gains follow followed
        follows get got gets"""
    )
)


def section_of_another(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """The claim's words that a page lists only under another heading than the one the claim
    names: "The Free plan includes single sign-on" against "Pro plan features: - Single sign-on
    (SSO) - Audit logs … Free plan features: - Up to 3 projects", "On Android, tap Account"
    against steps for iOS and for Android. Every word was on the page, so every part was backed
    (0.84). The claim names a heading by a word only that heading writes ("Free", "2.4" of
    "Version 2.4 (March 2024)"), not in lower case ("open the Settings window" names no
    "Windows"), and names no other; a sentence outside the lists that states the word may say it
    of any heading."""
    listed = [c.section for c in cands if c.section is not None]
    if not listed:
        return []
    stems = set(claim.stems) - claim.lower
    named = {s for x in listed for s in (x.own, *x.others) if s & stems}
    if len(named) != 1:
        return []
    own = named.pop()
    rest = set(claim.content) - own - listed[0].common
    under_own = set().union(
        *(stems_stated([c], claim) for c in cands if c.section and c.section.own == own)
    )
    found = rest - under_own
    out = set()
    for c in cands:
        stated = found & stems_stated([c], claim)
        if not stated:
            continue
        if c.section is None or c.section.own == own:
            return []
        out |= stated
    return sorted(out)


# Prepositions that give a name its part in a claim: a place, a team, a maker.
_SLOTS = words("in at near for from to by of with as")


def moves_reversed(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5
) -> list[tuple[float, float]]:
    """The claim's moves from one number to another that the best candidates state the other way
    round, and none as the claim does: "eased to 2.7% from 2.4%" against "eased to 2.4% from
    2.7%". Both numbers are on the page, so nothing else catches it."""
    moves = [m for m in changes(claim.tokens) if m[0] != m[1]]
    if not moves:
        return []
    each = [set(changes(c.analysis.tokens)) for c in cands]
    stated = set().union(*each)
    return [
        (a, b) for a, b in moves if (a, b) not in stated and any((b, a) in m for m in each[:near])
    ]


# In the order `support.claim_features` asks them; one that finds anything sets `num_conflict`.
def place_of_another(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[Number]:
    """The claim's place in a row after a word ("finished third") where one of the best
    candidates gives one of the claim's names another place after that word, counting the same
    thing, and no candidate gives the claim's place after it: "Hana Sato finished third" against
    "last year's winner, Hana Sato of Japan, finished fifth". The page's "for the third time"
    counts something else."""
    names = claim.names | ({claim.subject} - {""})
    out: list[Number] = []
    for n in claim.numbers:
        if not n.ordinal or n.at < 1 or claim.stems[n.at - 1] not in claim.content:
            continue
        word = claim.stems[n.at - 1]
        placed = [
            (m, c.analysis)
            for c in cands
            for m in c.analysis.numbers
            if m.ordinal
            and m.at >= 1
            and c.analysis.stems[m.at - 1] == word
            and m.counted == n.counted
        ]
        if any(m.value == n.value for m, _ in placed):
            continue
        if any(names & set(a.stems[max(0, m.at - 9) : m.at]) for m, a in placed[: near * 4]):
            out.append(n)
    return out


# Prepositions after which a verb puts its place, time or source: "born in", "studied at", "signed
# from". Not "to": "in reply to Neil Young's song" is no place.
_VERB_SLOTS = words("in at from")
# Lowercase words inside a name: "University of Oslo", "Opéra de Lyon".
_JOINING = words("of de du")

# What stands in a verb's slot: ("name", the stems of its run of capitalised words) or ("year",
# its value).
Slot = tuple[str, frozenset[str] | float]


def _slot_value(a: Analysis, i: int) -> Slot | None:
    """The name or year that starts at token `i` of `a`; None for anything else."""
    if a.stems[i] in a.names and a.stems[i] not in CALENDAR:
        j = i
        # "Born in Memphis, Whitfield moved…": a comma ends the name, and "of" joins two
        # ("University of Oslo")
        while j < len(a.stems) and a.clauses[j] == a.clauses[i]:
            if a.tokens[j] in _JOINING and j + 1 < len(a.stems) and a.stems[j + 1] in a.names:
                j += 1
            elif a.stems[j] not in a.names:
                break
            j += 1
        return "name", frozenset(s for s in a.stems[i:j] if s in a.names)
    year = next((n for n in a.numbers if n.at == i and n.is_year), None)
    return ("year", year.value) if year else None


def _same_name(a: Slot, b: Slot) -> bool:
    """Are two slots' names one (`_one_name`)?"""
    return isinstance(a[1], frozenset) and isinstance(b[1], frozenset) and _one_name(a[1], b[1])


def _one_name(a: frozenset[str], b: frozenset[str]) -> bool:
    """Is one run of names part of the other ("New Orleans", "Orleans"; "the Nebula", "the
    Nebula Award")? Sharing a word is not enough: "University of Oslo" and "University of
    Cambridge" are two, and so are "Northern Premier League" and "Northern Counties East
    League"."""
    return a <= b or b <= a


def _values(a: Analysis) -> list[tuple[int, Slot]]:
    """Each name or year `a` writes, where it starts."""
    out = []
    for j in range(len(a.stems)):
        if j and a.stems[j - 1] in a.names and a.clauses[j - 1] == a.clauses[j]:
            continue
        value = _slot_value(a, j)
        if value:
            out.append((j, value))
    return out


def _listed_after(a: Analysis, j: int, value: Slot) -> bool:
    """Does `value` follow the name or year at `j` in a run of names or a list: "born in
    Honolulu, Hawaii", "a temple in Magelang, Central Java, Indonesia", "advanced in 2002 and
    2010"?"""
    for k in range(j, min(len(a.stems), j + 8)):
        if _slot_value(a, k) == value:
            return True
        if a.stems[k] not in a.names and a.tokens[k] != "and":
            return False
    return False


def _slots(a: Analysis, verb: str, prep: str) -> list[tuple[int, Slot]]:
    """Each name or year `a` writes right after `verb` and `prep` ("born in Memphis"), where."""
    out = []
    for j in range(len(a.stems) - 2):
        if a.stems[j] == verb and a.tokens[j + 1] == prep:
            start = _past_the(a, j + 2)
            value = _slot_value(a, start) if start < len(a.stems) else None
            if value:
                out.append((start, value))
    return out


def _past_the(a: Analysis, i: int) -> int:
    """Token `i`, or the one after it where it is "the": "at the Opéra de Lyon"."""
    return i + 1 if a.tokens[i] == "the" else i


def _in_a_slot_of_its_own(
    a: Analysis, value: Slot, verb: str, prep: str, subject: Collection[str]
) -> bool:
    """Does `a` write `value` after a word and preposition other than `verb` and `prep`, a word
    that is not of the claim's `subject`: "moved to New Orleans", "moved to the Corn Exchange
    building in 1958"? The claim's subject may be what the page dates: "released in 2020 for
    consoles, and its PC version in 2021" dates the PC version of "The game's PC version was
    released in 2021" (and "summer in the Southern Hemisphere" stays a slot of its own for
    "winter in the Southern Hemisphere is more common than summer")."""
    return any(
        v == value
        and p >= 1
        and a.tokens[p] in _VERB_SLOTS | {"to"}
        and a.stems[p - 1] in a.content
        and a.stems[p - 1] not in a.names
        and a.stems[p - 1] not in subject
        and (a.stems[p - 1], a.tokens[p]) != (verb, prep)
        for k, v in _values(a)
        if (p := _slot_word(a, _first_listed(a, k))) >= 0
    )


def _slot_word(a: Analysis, k: int) -> int:
    """Where the preposition before the value at `k` would stand ("in the Opéra": past "the")."""
    return k - 2 if a.tokens[k - 1 : k] == ["the"] else k - 1


def _first_listed(a: Analysis, k: int) -> int:
    """Where the list of names that the one at `k` ends starts: from "Swansea" of "before touring
    to Aberystwyth and Swansea", "Aberystwyth", whose slot Swansea shares."""
    starts = [j for j, _ in _values(a)]
    while k >= 2 and a.tokens[k - 1] == "and" and a.stems[k] in a.names:
        before = [j for j in starts if j < k - 1]
        if not before or any(a.stems[m] not in a.names for m in range(before[-1], k - 1)):
            break
        k = before[-1]
    return k


def _words_apart(claim: Analysis, i: int, mine: Slot, rival: Slot) -> list[str]:
    """What the chip names of the claim's value at token `i`: the words of its name that the
    rival lacks ("Oslo" of "University of Oslo" against "University of Cambridge"), else its
    first word."""
    if isinstance(mine[1], frozenset) and isinstance(rival[1], frozenset):
        apart = mine[1] - rival[1]
        found = list(dict.fromkeys(s for s in claim.stems[i:] if s in apart))
        if found:
            return found
    return [claim.stems[i]]


def slot_of_another_verb(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[str]:
    """The claim's name or year right after a word and its preposition ("born in New Orleans",
    "founded in 1958") where one of the best candidates puts another name or year after the same
    two words and the claim's after words of their own, and no candidate puts the claim's after
    the claim's words: "Whitfield was born in New Orleans" against "Born in Memphis, Whitfield
    moved to New Orleans as a teenager". A summary moves a place or a year onto the sentence's
    other verb. A page that writes the claim's only in another sentence may hold it in the rival
    ("born in Reading" says nothing against "born in England"), and one that follows the rival
    with it says where the rival lies ("born in Honolulu, Hawaii")."""
    out: list[str] = []
    for i in range(2, len(claim.tokens)):
        p = i - 2 if claim.tokens[i - 1] == "the" else i - 1  # "made her debut at the Opéra"
        if p < 1:
            continue
        verb, prep = claim.stems[p - 1], claim.tokens[p]
        if prep not in _VERB_SLOTS or verb not in claim.content or verb in claim.names:
            continue
        if p >= 2 and claim.stems[p - 2] in claim.names:
            continue  # "the Harbour City Rovers in 2023": the word before is part of a name
        mine = _slot_value(claim, i)
        if mine is None:
            continue
        found = [
            (rank, c.analysis, j, v)
            for rank, c in enumerate(cands)
            for j, v in _slots(c.analysis, verb, prep)
        ]
        if any(v == mine or _same_name(v, mine) for *_, v in found):
            continue
        for rank, a, j, v in found:
            if v[0] != mine[0] or rank >= near:
                continue
            if _listed_after(a, j + 1 if mine[0] == "year" else j, mine):
                continue
            # A year holds no other year as a place holds a town: the sentence's other mention
            # of the claim's is for something else, unless the same preposition leaves the verb
            # out ("released in 2020 in Japan and in 2021 in Europe")
            if (
                _in_a_slot_of_its_own(a, mine, verb, prep, claim.stems[: p - 1])
                or (
                    mine[0] == "year"
                    and any(v == mine and a.tokens[k - 1] != prep for k, v in _values(a) if k)
                )
                or (mine[0] == "year" and _dated_with_another_verb(claim, a, mine, j, verb))
            ):
                out += _words_apart(claim, i, mine, v)
                break
    return out


def _dated_with_another_verb(
    claim: Analysis, a: Analysis, year: Slot, rival: int, verb: str
) -> bool:
    """Does `a` write `year` in a clause other than that of the rival year at token `rival`, one
    that gives it a passive verb of its own, another word of the claim: "Flupyradifurone was
    introduced in 2015 as a safer alternative to neonicotinoids, three of which were banned for
    outdoor use in the EU in 2018" for "introduced in 2018 as a replacement for the banned
    neonicotinoids"? A clause without a verb of its own leaves the verb out ("released in 2020
    for consoles and its PC version in 2021"), so the year is the verb's."""
    theirs = {s for s, k in zip(a.stems, a.clauses, strict=True) if k == a.clauses[rival]}
    others = set(claim.content) - claim.names - theirs - {verb}
    for k, v in _values(a):
        if v != year or a.clauses[k] == a.clauses[rival]:
            continue
        if any(
            a.clauses[m] == a.clauses[k]
            and a.stems[m] in others
            and a.tokens[m - 1] in PASSIVE_AUXILIARIES
            for m in range(1, len(a.stems))
        ):
            return True
    return False


def _run_before(a: Analysis, j: int) -> frozenset[str]:
    """The run of names that ends right before token `j` of `a`, in its clause (the sentence's
    subject is one at its start: "Andy left…")."""
    k = j
    while k > 0 and a.clauses[k - 1] == a.clauses[j]:
        if a.stems[k - 1] not in a.names and (k > 1 or a.stems[0] != a.subject):
            break
        k -= 1
    return frozenset(a.stems[k:j])


def _opening_name(a: Analysis) -> int:
    """Where the run of names that opens `a` ends ("Tom Price left…": 2), 0 where `a` does not
    open with its subject. The first word is no name of `names`, which a capital opening a
    sentence does not make."""
    if not a.stems or a.stems[0] != a.subject:
        return 0
    end = 1
    while end < len(a.stems) and a.stems[end] in a.names:
        end += 1
    return end


def actor_of_another_verb(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5, share: float = 0.75
) -> list[str]:
    """The full name that opens the claim, right before its verb, where one of the best
    candidates, stating most of the rest of the claim, puts another name right before the same
    word and the claim's name before a verb of its own, and no candidate puts the claim's name
    before it: "Tom Price left the business in 2011 to train as a teacher" against "Andy left the
    business in 2011 to train as a teacher, and Tom ran the brewery alone". A surname either
    shares is the same person, and a name listed with the rival acts with it ("Tom and Andy
    left")."""
    end = _opening_name(claim)
    # A full name: a first word alone may be no name ("American baseball player…")
    if end < 2 or end >= len(claim.stems) or claim.stems[end] not in claim.content:
        return []
    actor, verb = frozenset(claim.stems[:end]), claim.stems[end]
    if verb in claim.names or claim.tokens[end - 1].endswith("'s"):
        return []
    rest = set(claim.content) - actor
    if len(rest) < 3:
        return []
    # The same word as written: "player" stems as "plays" does, and "starring" as "stars".
    found = [
        (rank, c, j, run)
        for rank, c in enumerate(cands)
        for j, t in enumerate(c.analysis.tokens)
        if t == claim.tokens[end] and (run := _run_before(c.analysis, j))
    ]
    if any(run & actor for *_, run in found):
        return []
    for rank, c, j, run in found:
        if rank >= near:
            continue
        a = c.analysis
        start = j - len(run)
        if actor & set(a.stems[max(0, start - 3) : start]) or a.tokens[j + 1 : j + 2] == ["by"]:
            continue  # "Tom and Andy left", "Private Practice played by Kate Walsh"
        # A page names many people who played or wrote something: the rival's sentence says the
        # rest of the claim.
        if len(rest & stems_stated([c], claim)) < share * len(rest):
            continue
        if any(
            _run_before(a, k) & actor and s in a.content and s != verb
            for k, s in enumerate(a.stems)
        ):
            return [claim.stems[0]]
    return []


# Words between a name and its verb that leave the verb the name's: "Sofie Lund also composed…".
_BESIDE_A_VERB = words("also later then subsequently originally jointly")


def agent_of_another(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5, share: float = 0.75
) -> list[str]:
    """The full name that opens the claim before its verb, where one of the best candidates,
    stating most of the rest, writes the same word followed by "by" and another name, and no
    candidate writes that word otherwise: "Sofie Lund also composed the game's soundtrack"
    against "Its soundtrack was composed by Jonas Brink". A candidate that writes the word
    without "by" ("She also composed…") may be about the claim's name."""
    end = _opening_name(claim)
    verb = end
    while verb < len(claim.tokens) and claim.tokens[verb] in _BESIDE_A_VERB:
        verb += 1
    if end < 2 or verb >= len(claim.tokens) or claim.tokens[end - 1].endswith("'s"):
        return []
    word = claim.tokens[verb]
    if claim.stems[verb] not in claim.content or claim.stems[verb] in claim.names:
        return []
    actor = frozenset(claim.stems[:end])
    # "the game's soundtrack": the owner is the page's own subject, however it names it
    rest = {
        s
        for t, s in zip(claim.tokens[verb + 1 :], claim.stems[verb + 1 :], strict=True)
        if s in claim.content and not t.endswith("'s")
    } - actor
    # One common word names nothing in particular: "played a character" against "a character …
    # played by Amy Ryan"; one name does ("directed Dangal")
    if len(rest) < 2 and not (rest and rest <= claim.names):
        return []
    rival = False
    for rank, c in enumerate(cands):
        a = c.analysis
        for j, t in enumerate(a.tokens):
            if t != word:
                continue
            after = a.tokens[j + 1 : j + 2]
            if after != ["by"] or actor & set(a.stems):
                return []  # the word said actively, or beside the claim's name
            by = _slot_value(a, j + 2) if j + 2 < len(a.tokens) else None
            if by is None or not isinstance(by[1], frozenset):
                return []
            stated = len(rest & stems_stated([c], claim)) >= share * len(rest)
            rival = rival or (rank < near and stated)
    return claim.stems[:end] if rival else []


_IS_OR_BECAME = words("is was became becomes")


def _holder(a: Analysis) -> tuple[frozenset[str], int] | None:
    """The run of names that opens `a` right before "is", "was" or "became", and where that word
    stands: ({"tamm"}, 1) of "Tamm is the chief executive"."""
    end = _opening_name(a)
    if end == 0 or end >= len(a.tokens) or a.tokens[end] not in _IS_OR_BECAME:
        return None
    return frozenset(a.stems[:end]), end


def _head_after(a: Analysis, at: int) -> str | None:
    """The first word after token `at` that is no article or owner: "chief" of "is the company's
    chief executive"."""
    for t, s in zip(a.tokens[at + 1 : at + 5], a.stems[at + 1 : at + 5], strict=False):
        if s in a.content and not t.endswith("'s"):
            return s
    return None


def holder_of_another(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5, share: float = 0.75
) -> list[str]:
    """The name that opens the claim before "is", "was" or "became", where every candidate that
    states most of what follows opens with another name before such a word, and no candidate
    that names the claim's states it: "Marek Sepp is the company's chief executive" against
    "Kroon Labs was founded by Kadri Tamm and Marek Sepp… Tamm is the chief executive". A
    sentence that opens with "He" may be about the claim's name, so it keeps the claim open."""
    held = _holder(claim)
    if held is None:
        return []
    name, at = held
    # A capital that opens a sentence names nothing by itself ("Chicken is safe once…" against
    # "Poultry is safe to eat when…"): a one-word name must be written as one on the page.
    page_names = set().union(*(c.analysis.names for c in cands))
    if len(name) < 2 and not name <= page_names:
        return []
    # "the company's chief executive": the owner is the claim's own page's, however it names it
    role = {
        s
        for t, s in zip(claim.tokens[at + 1 :], claim.stems[at + 1 :], strict=True)
        if s in claim.content and s not in name and not t.endswith("'s")
    }
    if len(role) < 2:
        return []
    least = max(2.0, share * len(role))
    stating = [rank for rank, c in enumerate(cands) if len(role & set(c.analysis.stems)) >= least]
    head = _head_after(claim, at)
    for rank in stating:
        a = cands[rank].analysis
        theirs = _holder(a)
        # "Absolute Taste is a London-based catering company" says what the company is, not who
        # owns it: the rival holds the claim's own first word ("chief" of "chief executive")
        if theirs is None or name & set(a.stems) or _head_after(a, theirs[1]) != head:
            return []
        if len(theirs[0]) < 2 and not theirs[0] <= page_names:
            return []  # "Poultry is safe…" names no rival
    return claim.stems[:at] if stating and stating[0] < near else []


# The verbs of "won the Costa Novel Award" (contrary._WON also counts "winner" and "winning")
_WON_VERBS = words("won win wins")
_WINNING = _WON_VERBS | words("winning")
# Other words for winning a prize: "was awarded the Nebula Award" backs "won the Nebula Award".
_WON_ALIKE = _WON_VERBS | words(
    "awarded received receives earned earns took takes claimed claims collected gained clinched"
    " secured captured retained defended"
)
# What may stand between a word and its name: "promoted to the Northern Premier League",
# "shortlisted for the Costa Novel Award".
_BEFORE_A_NAME = words("the to for in at of from into by")


def _names_won(a: Analysis, verbs: frozenset[str] = _WON_VERBS) -> list[frozenset[str]]:
    """Each name `a` says was won: "Northern Counties East League" of "won the Northern Counties
    East League in 2009"."""
    out = []
    for i, t in enumerate(a.tokens[:-1]):
        if t in verbs:
            value = _slot_value(a, i + 2 if a.tokens[i + 1] == "the" else i + 1)
            if value and isinstance(value[1], frozenset):
                out.append(value[1])
    return out


def _named_by_a_word_of_its_own(a: Analysis, prize: frozenset[str]) -> bool:
    """Does `a` put `prize` after a word other than one of winning: "promoted to the Northern
    Premier League", "shortlisted for the Costa Novel Award"? A list ("won the Hugo and the
    Nebula") puts it after no word of its own."""
    for k, value in _values(a):
        # The whole of the claim's name: "Game" of "Game of the Year" is no "Best Debut Game"
        if not isinstance(value[1], frozenset) or not prize <= value[1]:
            continue
        j = k - 1
        while j >= 0 and k - j <= 2 and a.tokens[j] in _BEFORE_A_NAME:
            j -= 1
        if (
            j < k - 1
            and j >= 0
            and a.stems[j] in a.content
            and a.stems[j] not in a.names
            and a.tokens[j] not in _WON_ALIKE
        ):
            return True
    return False


def won_another(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[str]:
    """The name the claim says was won, where one of the best candidates says another was won
    and puts the claim's after a word of its own, and no candidate says the claim's was won:
    "Ashgrove won the Northern Premier League in 2009" against "The club won the Northern
    Counties East League in 2009 and were promoted to the Northern Premier League"; "The Salt
    Orchard won the Costa Novel Award" against "…was shortlisted for the Costa Novel Award and
    won the Wales Book of the Year". A summary gives the sentence's verb to its other name."""
    out: list[str] = []
    for prize in _names_won(claim):
        # "…with the third season winning the Television Critics Association Award" wins it
        if any(_one_name(prize, won) for c in cands for won in _names_won(c.analysis, _WINNING)):
            continue
        if any(
            any(not _one_name(prize, won) for won in _names_won(c.analysis))
            and _named_by_a_word_of_its_own(c.analysis, prize)
            for c in cands[:near]
        ):
            out += [s for s in claim.stems if s in prize]
    return out


_RELATIONS = {
    "this": "this",
    "current": "this",
    "last": "last",
    "previous": "last",
    "past": "last",
    "next": "next",
    "coming": "next",
    "following": "next",
}
_PERIODS = words("year month week quarter season decade summer autumn fall winter spring weekend")


def _relative_times(a: Analysis) -> list[tuple[int, str, str]]:
    """Each "this year", "next month", "last year's" of `a`: where it starts, the relation
    ("previous" is "last") and the period."""
    out = []
    for i in range(len(a.tokens) - 1):
        relation = _RELATIONS.get(a.tokens[i])
        period = a.tokens[i + 1].removesuffix("'s")
        if relation and period in _PERIODS:
            out.append((i, relation, period))
    return out


def relative_time_of_another(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5, share: float = 0.6
) -> list[str]:
    """The claim's "this year" (or "next month", "last season") where the best candidates that
    give the period a relation, those stating the most of the rest of the claim's clause, give it
    another: "will close its Dayton factory by the end of this year" against "would close its
    factory in Dayton, Ohio, … by the end of next year". A news summary moves such a date more
    easily than a number."""
    out: list[str] = []
    content = set(claim.content)
    for i, relation, period in _relative_times(claim):
        clause = clause_stems(claim, claim.clauses[i]) & content
        clause -= {stem(period), stem(claim.tokens[i])}
        if len(clause) < 2:
            continue
        given = [
            (len(clause & stems_stated([c])), r)
            for c in cands[:near]
            for _, r, p in _relative_times(c.analysis)
            if p == period
        ]
        top = max((k for k, _ in given), default=0)
        if top >= share * len(clause) and relation not in {r for k, r in given if k == top}:
            out.append(" ".join(claim.tokens[i : i + 2]))
    return out


def variant_of_another(claim: Analysis, cands: Sequence[Candidate]) -> list[Number]:
    """The claim's amount that the page gives only of a longer name than the claim's, one more
    capitalised word after it ("Nimbus 5 Max" for "Nimbus 5"), while it names the shorter alone
    too; or, where the claim names the longer, only of the shorter, and of the longer another of
    its unit: "The Nimbus 5 has a 6.9-inch screen" and "The Nimbus 5 Max costs 799 euros" against
    "Its new Nimbus 5 phone … at 799 euros. A larger Nimbus 5 Max, with a 6.9-inch screen, will
    follow for 999 euros." A model's variant is another product."""
    subject = claim.subject
    if not subject or subject not in claim.stems:
        return []
    mine = _variants(claim, subject)[0]
    named = [(c, set(_variants(c.analysis, subject))) for c in cands]
    out: list[Number] = []
    for n in claim.numbers:
        if not _an_amount(n):
            continue
        owners = [v for c, v in named if any(numbers_match(n, m) for m in c.analysis.numbers)]
        if not owners:
            continue
        if mine is None:
            if all(v and None not in v for v in owners) and any(None in v for _, v in named):
                out.append(n)
        elif not any(mine in v for v in owners) and any(
            mine in v and any(_rival_amount(n, m) for m in c.analysis.numbers) for c, v in named
        ):
            out.append(n)
    return out


def _variants(a: Analysis, subject: str) -> list[str | None]:
    """Each time `a` names `subject`, the capitalised word that follows it, numbers between
    skipped ("Nimbus 5 Max" gives "max"), or None."""
    out: list[str | None] = []
    for i, s in enumerate(a.stems):
        if s != subject:
            continue
        j = i + 1
        while j < len(a.tokens) and a.tokens[j][:1].isdigit():
            j += 1
        after = a.stems[j] if j < len(a.stems) else ""
        named = after in a.names and after not in CALENDAR and j > i + 1
        out.append(after if named else None)
    return out


def age_of_another(claim: Analysis, cands: Sequence[Candidate]) -> list[Number]:
    """The bare number the claim sets between commas after a word ("Moreno, 24, broke the
    record"), where a candidate sets another after the same word and none sets the claim's:
    "Moreno, 29, was running the race" gives her age, which "2 hours 24 minutes" does not. News
    gives ages this way, and a summary that misstates one still finds its number on the page."""
    out: list[Number] = []
    for n in claim.numbers:
        if not _set_between_commas(claim, n):
            continue
        word = claim.stems[n.at - 1]
        beside = [
            m
            for c in cands
            for m in c.analysis.numbers
            if _set_between_commas(c.analysis, m) and c.analysis.stems[m.at - 1] == word
        ]
        if beside and all(m.value != n.value for m in beside):
            out.append(n)
    return out


def _set_between_commas(a: Analysis, n: Number) -> bool:
    """Is `n` a bare count, a clause of its own, after a content word and before more?"""
    at = n.at
    return (
        n.count
        and not (n.unit or n.counted or n.qualifier or n.is_year or n.listed)
        and 1 <= at < len(a.tokens) - 1
        and a.stems[at - 1] in a.content
        and a.clauses[at - 1] != a.clauses[at] != a.clauses[at + 1]
    )


CONFLICT_RULES: tuple[Rule, ...] = (
    numbers_of_another,
    year_of_another,
    year_stated_elsewhere,
    month_of_another,
    day_of_another,
    names_of_another,
    codes_unstated,
    moves_reversed,
    hour_of_another,
    hour_of_another_day,
    day_outside_span,
    bound_reversed,
    numbers_of_another_part,
    number_of_the_next_clause,
    number_stated_elsewhere,
    number_beside_another,
    name_in_the_slot_of_another,
    counted_otherwise,
    subject_of_another,
    section_of_another,
    version_of_another,
    modifier_of_another,
    nationality_of_another,
    place_of_another,
    age_of_another,
    relative_time_of_another,
    variant_of_another,
    described_of_another,
    slot_of_another_verb,
    actor_of_another_verb,
    agent_of_another,
    holder_of_another,
    won_another,
)
