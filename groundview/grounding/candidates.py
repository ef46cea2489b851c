"""The candidates a claim is read against, and what they state.

A candidate is one retrieved sentence (`Candidate`). Coverage (`support.py`) and the rules that cap a
claim (`conflicts.py`, `contrary.py`) read candidates in the same ways, kept here: the stems they state
(a claim's names among them when written abbreviated or spelled out), their numbers, the clause that
states most of some words, a sentence that opens by referring back ("He", "That year").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

from .analysis import Analysis
from .evidence import Chunk, Section
from .lexical import STOPWORDS, is_cjk, stem, words
from .models import Encoded
from .numbers import UNITS, Number


@dataclass(frozen=True)
class Candidate:
    """One retrieved sentence as coverage sees it."""

    chunk: int  # global chunk index
    analysis: Analysis
    attributes: (
        Analysis | None
    )  # its fact's attributes ("Wikipedia. Apollo 11"), part of the evidence
    encoding: Encoded | None  # None when it was not embedded (beyond the embedding budget)
    # The sentences before it in its fact, nearest first, read only when a rule needs them (who
    # "she" is in '"…," she said')
    earlier: Sequence[Chunk] = ()
    # How many items its numbered list holds, when it is one of them (`evidence.Chunk.items`)
    items: int = 0
    # The heading of the list it is an item of, among the fact's other lists (`evidence.Section`)
    section: Section | None = None


def stems_stated(cands: Sequence[Candidate], claim: Analysis | None = None) -> set[str]:
    """Every stem the candidates state, their facts' attributes included; with `claim`, also the
    claim's names they state abbreviated or spelled out (`_abbreviated`)."""
    out: set[str] = set()
    for c in cands:
        out.update(c.analysis.stems)
        if c.analysis.days:  # most sentences name no day
            out.update(c.analysis.days.stems)
        if c.attributes is not None:
            out.update(c.attributes.stems)
    if claim is not None and (claim.acronyms or claim.runs or claim.names):
        out |= _abbreviated(claim, cands)
    if claim is not None and any(n.unit for n in claim.numbers):
        out |= _units_spelled_otherwise(claim, cands)
    return out


def _units_spelled_otherwise(claim: Analysis, cands: Sequence[Candidate]) -> set[str]:
    """The claim's units that a candidate gives a number in, however it spells them: "MW" of "48
    MW" where the page says "48 megawatts", "kilometres" where it says "km"."""
    units = {n.unit for c in cands for n in c.analysis.numbers if n.unit}
    return {s for t, s in zip(claim.tokens, claim.stems, strict=True) if UNITS.get(t) in units}


def said_in(cand: Candidate, claim: Analysis) -> set[str]:
    """The stems the candidate's own sentence states, its fact's attributes (the title every
    sentence of the page carries) aside."""
    return stems_stated([replace(cand, attributes=None)], claim)


def candidates_stating(
    claim: Analysis, cands: Sequence[Candidate], content: set[str], share: float
) -> list[Candidate]:
    """The candidates that state at least `share` of the claim's `content` stems."""
    return [c for c in cands if len(content & stems_stated([c], claim)) >= share * len(content)]


def _abbreviated(claim: Analysis, cands: Sequence[Candidate]) -> set[str]:
    """The claim's names that the candidates write the other way round: "KBE" where they spell out
    "Knight Commander of the Order of the British Empire", "Asian Pacific American Network of
    Oregon" where they write "APANO"."""
    views = [c.analysis for c in cands] + [c.attributes for c in cands if c.attributes]
    out = {a for a in claim.acronyms if any(a in initials for v in views for _, initials in v.runs)}
    # Spelled out in lower case, word by word: "SSO" where they write "single sign-on"
    out |= {a for a in claim.acronyms - out if any(_spelled_out(a, v.tokens) for v in views)}
    out |= {a for a in claim.acronyms - out if any(_chief(a, v.tokens) for v in views)}
    for names, initials in claim.runs:
        if any(initials & v.acronyms for v in views):
            out |= names
    return out | _initialled_after_a_name(claim, views)


def _initialled_after_a_name(claim: Analysis, views: Sequence[Analysis]) -> set[str]:
    """Two capitalised words written as their initials after the same name: "Southampton F.C."
    where the page writes "Southampton Football Club", and the other way round. Two letters alone
    are too often someone's initials (`analysis._ACRONYM`), so the name before them must match."""
    out: set[str] = set()
    toks, stems, names = claim.tokens, claim.stems, claim.names | {claim.subject}
    # (i, the claim writes initials at i, it writes two words from i), for a name at i - 1
    wanted = [
        (i, len(toks[i]) == 2 and toks[i].isalpha(), i + 1 < len(toks) and stems[i + 1] in names)
        for i in range(1, len(toks))
        if stems[i - 1] in names and stems[i] in names
    ]
    wanted = [w for w in wanted if w[1] or w[2]]
    befores = {toks[i - 1] for i, _, _ in wanted}
    for v in views if wanted else ():
        for k in range(1, len(v.tokens)):
            if v.tokens[k - 1] not in befores or v.stems[k] not in v.names:
                continue
            for i, short, two in wanted:
                if v.tokens[k - 1] != toks[i - 1]:
                    continue
                spelled = k + 1 < len(v.tokens) and v.stems[k + 1] in v.names
                if short and spelled and v.tokens[k][0] + v.tokens[k + 1][0] == toks[i]:
                    out.add(stems[i])
                if two and len(v.tokens[k]) == 2 and v.tokens[k] == toks[i][0] + toks[i + 1][0]:
                    out |= {stems[i], stems[i + 1]}
    return out


def _chief(acronym: str, tokens: Sequence[str]) -> bool:
    """Is `acronym` a chief officer's title that `tokens` write without the officer: "CEO" where
    they write "chief executive Mei-Lin Zhou", "CFO" for "chief financial"?"""
    if len(acronym) != 3 or acronym[0] != "c" or acronym[2] != "o":
        return False
    return any(
        t == "chief" and u in _CHIEF_OF and u[0] == acronym[1]
        for t, u in zip(tokens, tokens[1:], strict=False)
    )


_CHIEF_OF = words("executive financial operating technology technical information marketing")


_VOWEL = re.compile(r"[aeiouy]")


# Words an acronym leaves out between the ones it takes a letter from: "MMR" for "measles, mumps
# and rubella", "DfE" for "Department for Education".
_LEFT_OUT = frozenset(["and", "of", "the", "for", "&"])


def _spelled_out(acronym: str, tokens: Sequence[str]) -> bool:
    """Do consecutive words of `tokens` begin with the acronym's letters, a word of `_LEFT_OUT`
    skipped at most twice? At most one of the letters taken from a stopword ("sign on"), the others
    from words of three letters or more, so that any three short words in a row do not spell
    "USA"."""
    n = len(acronym)
    for i in range(len(tokens) - n + 1):
        taken: list[str] = []
        skipped = 0
        for t in tokens[i:]:
            if len(taken) == n:
                break
            if t[:1] == acronym[len(taken)]:
                taken.append(t)
            elif taken and t in _LEFT_OUT and skipped < 2:
                skipped += 1
            else:
                break
        if len(taken) < n:
            continue
        content = [t for t in taken if t not in STOPWORDS]
        # A word without a vowel is an abbreviation itself ("crsv annual reports" spells no "CAR")
        if len(content) >= n - 1 and all(len(t) >= 3 and _VOWEL.search(t) for t in content):
            return True
    return False


def numbers_in(cands: Sequence[Candidate]) -> list[Number]:
    return [n for c in cands for n in c.analysis.numbers]


PRONOUNS = frozenset(["he", "she", "it", "they", "his", "her", "its", "their", "this", "these"])


def opens_with_pronoun(cand: Candidate) -> bool:
    """Does the sentence's subject come first as a pronoun, after any date it opens with ("On 3
    January 1927 she ran aground")?"""
    a = cand.analysis
    for t, s in zip(a.tokens, a.stems, strict=True):
        if t in _DATE_LEADS or s in CALENDAR or t[:1].isdigit():
            continue
        return t in PRONOUNS
    return False


_DATE_LEADS = frozenset(
    ["on", "in", "at", "by", "during", "after", "before", "since", "early", "late"]
)


def opens_with_reference(cand: Candidate) -> bool:
    """Does the sentence open with a pronoun or a definite common noun ("The fire broke out…",
    "The company said…"), or a participle's clause and then a pronoun ("Born in Uppsala, he…")?
    Each names what an earlier sentence named."""
    a = cand.analysis
    if opens_with_pronoun(cand):
        return True
    if a.tokens[:1] == ["the"] and len(a.tokens) > 1 and a.stems[1] not in a.names:
        return True
    # "Born in Uppsala, he trained…": after an opening participle's clause, the subject
    if a.tokens and (a.tokens[0] == "born" or a.tokens[0].endswith(("ed", "ing"))):
        after = next((i for i, k in enumerate(a.clauses) if k != a.clauses[0]), None)
        return after is not None and a.tokens[after] in PRONOUNS
    return False


def surface(claim: Analysis, stems: Sequence[str]) -> list[str]:
    """The claim's own words for these stems, in the claim's order, adjacent ones as one run ("Brad
    Pitt", "東京"): CJK characters are tokens of their own, and a chip per character reads badly."""
    wanted = set(stems)
    runs: list[list[str]] = []
    seen: set[str] = set()
    last = -2
    for i, (token, s) in enumerate(zip(claim.tokens, claim.stems, strict=True)):
        if s not in wanted or s in seen:
            continue
        seen.add(s)
        if i == last + 1 and runs:
            runs[-1].append(token)
        else:
            runs.append([token])
        last = i
    return ["".join(r) if all(is_cjk(t) for t in r) else " ".join(r) for r in runs]


def capitalised(name: str, acronyms: Collection[str] = ()) -> str:
    """A name as a chip shows it: "Brad Pitt" for the stems' "brad pitt", "CEO" for "ceo"."""
    return " ".join(w.upper() if w in acronyms else w[:1].upper() + w[1:] for w in name.split(" "))


def written_lowercase(word: str, cands: Sequence[Candidate]) -> bool:
    """Do the candidates write `word` in lower case inside a sentence? Then the capital that opens
    the claim ("Officials are offering…", Portuguese "Como a compra…") names nothing."""
    return any(word in c.analysis.lower for c in cands)


def clause_stems(a: Analysis, clause: int) -> set[str]:
    """The stems of one clause of `a` (`Analysis.clauses`)."""
    return {s for s, k in zip(a.stems, a.clauses, strict=True) if k == clause}


def stating_clauses(a: Analysis, words_: set[str], least: float) -> list[int]:
    """The clauses of `a` that state the most of `words_` (more than one on a tie), when they
    state at least `least`; in the order `a` writes them."""
    counts: dict[int, set[str]] = {}
    for s, k in zip(a.stems, a.clauses, strict=True):
        if s in words_:
            counts.setdefault(k, set()).add(s)
    most = max((len(x) for x in counts.values()), default=0)
    if not counts or most < least:
        return []
    return [k for k in counts if len(counts[k]) == most]


def stating_clause(a: Analysis, words_: set[str], least: float) -> int | None:
    """The clause of `a` that states the most of `words_`, when it states at least `least` (the
    first of a tie)."""
    return next(iter(stating_clauses(a, words_, least)), None)


# Months and weekdays are capitalised but name no one: a date is the numbers' business.
CALENDAR = frozenset(
    stem(w)
    for w in words(
        "january february march april may june july august september october november december"
        " monday tuesday wednesday thursday friday saturday sunday"
    )
)


# A rule reads a claim against its candidates and returns what it found wrong (nothing: the
# claim passes it). `conflicts.CONFLICT_RULES` and `contrary.CONTRARY_RULES` list them.
Rule = Callable[[Analysis, Sequence[Candidate]], Sequence[object]]
