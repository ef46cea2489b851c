"""The rules that find the evidence contradicting a claim in its own words (`neg_mismatch`).

A negation the page does not make (or makes where the claim does not), an opposite word, two names
related the other way round, a hedge or an intention stated as done, "all" or "the largest" the page
narrows, words the page quotes from someone else, a speaker telling of themselves. Each rule reads a
claim against its candidates and returns what it found; any finding caps the claim
(`support.consistency_cap`); `bench/rules.py` counts each rule's fires by human label on the shared
sets.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence

from .analysis import AUXILIARIES, FAIL, Analysis, is_negation
from .candidates import (
    CALENDAR,
    PRONOUNS,
    Candidate,
    Rule,
    candidates_stating,
    capitalised,
    clause_stems,
    opens_with_pronoun,
    stating_clause,
    stating_clauses,
    stems_stated,
    surface,
    written_lowercase,
)
from .lexical import DETERMINERS, EXCEED, MONTHS, PASSIVE_AUXILIARIES, STOPWORDS, stem, words
from .numbers import Number, is_ordinal, is_participle, numbers_match
from .opposites import (
    COMPASS,
    DIRECTIONS,
    is_move,
    key,
    kin,
    move_direction,
    negative_base,
    opposites,
)


def negated_against(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """The stems the claim negates that the evidence states without a negation: "He did not
    recommend the Gold plan" where every candidate that mentions recommending says it plainly. A
    word the candidates never mention is left to coverage."""
    out = []
    for word in sorted(claim.negates):
        stating = [c for c in cands if word in c.analysis.stems]
        if _phrase_negated_elsewhere(claim, word, cands):
            continue
        if _negative_word_stated(claim, word, cands):
            continue
        if stating and not any(
            word in c.analysis.negates
            or _denied(c.analysis, word)
            or _negation_in_clause(c.analysis, word)
            or _negated_earlier_in_clause(c.analysis, word)
            or _set_apart_after(c.analysis, word)
            or _subject_of_a_denial(c.analysis, word)
            for c in stating
        ):
            out.append(word)
    return out


_RELATIVES = words("who whom whose which that")
_NEW_SUBJECT = PRONOUNS | DETERMINERS | words("there")


def _subject_of_a_denial(text: Analysis, word: str, reach: int = 8) -> bool:
    """Does `text` write `word` in the subject of a denied verb, the first auxiliary in the
    `reach` - 1 words after it followed by a negation: "Agency workers and independent
    contractors are not covered by this policy" denies the agency workers the policy. A negation
    without an auxiliary ("never", "aren't") is not read here: "I'm Not There", a title, would
    deny."""
    toks, clauses = text.tokens, text.clauses
    for i, s in enumerate(text.stems):
        if s != word:
            continue
        for j in range(i + 1, min(len(toks) - 1, i + reach)):
            # The subject may list ("Agency workers and independent contractors are not…"), but
            # "…had significant influence and it was not until…" opens another clause.
            joined = toks[j] in ("and", "or") and toks[j + 1] not in _NEW_SUBJECT
            if clauses[j] != clauses[j - 1] and not joined:
                break
            # "…the old exoskeleton after growing a new one that is not yet hardened": the
            # denial is another verb's
            if toks[j] in _RELATIVES or toks[j] in _SUBORDINATORS:
                break
            if toks[j] in AUXILIARIES:
                if _denies(toks, j + 1):
                    return True
                break
    return False


def _negative_word_stated(claim: Analysis, word: str, cands: Sequence[Candidate]) -> bool:
    """Does a candidate say `word` negated in one word, stating more of the rest of the claim than
    any candidate that writes the word plainly? "Her debut album was not successful" agrees with
    "…her debut album, which was commercially unsuccessful", whatever another candidate says of
    her later success."""
    content = {s for s in claim.content if s != word and not is_negation(s)}
    own = key(word)
    negative = plain = 0
    for c in cands:
        stated = len(content & stems_stated([c]))
        # A name negates nothing: the "Unlimited Plus" plan says nothing against "limited"
        if any(
            negative_base(t) == own and st not in c.analysis.names
            for t, st in zip(c.analysis.tokens, c.analysis.stems, strict=True)
        ):
            negative = max(negative, stated)
        elif word in c.analysis.stems:
            plain = max(plain, stated)
    return negative > plain and negative >= 0.5 * len(content)


def _phrase_negated_elsewhere(claim: Analysis, word: str, cands: Sequence[Candidate]) -> bool:
    """Does a candidate that never writes `word` negate a word beside it that the claim negates
    with it, or the words that follow it in the claim? "A request without a valid API key" negates
    the key however the page names it: "Requests without a valid key" denies it, and "include an
    API key" states no "API" it denies."""
    at = [i for i, s in enumerate(claim.stems) if s == word]
    beside = {
        s
        for i in at
        for s in claim.stems[max(0, i - 2) : i + 3]
        if s != word and s in claim.negates
    }
    if any(beside & c.analysis.negates and word not in c.analysis.stems for c in cands):
        return True
    # "did not find any water vapour" against "found no sign of water vapour": what the claim
    # does not find, the candidate negates
    content = {s for s in claim.content if not is_negation(s)}
    after = [s for i in at[:1] for s in claim.stems[i + 1 : i + 4] if s in content]
    return bool(after) and any(
        word not in c.analysis.stems
        and _negation_in_clause(c.analysis, after[0], reach=3, after=False)
        and len(content & stems_stated([c])) >= 0.5 * len(content)
        for c in cands
    )


def _negated_earlier_in_clause(text: Analysis, word: str) -> bool:
    """Some time `text` writes `word`, a negation stands before it in its clause, however far:
    "does not yet have a distributor in North America" states no North American distributor, and
    "neither of whom had acted professionally before" no professional actors."""
    toks, clauses = text.tokens, text.clauses
    return any(
        s == word and any(clauses[j] == clauses[i] and _denies(toks, j) for j in range(i))
        for i, s in enumerate(text.stems)
    )


def _set_apart_after(text: Analysis, word: str) -> bool:
    """Does `text` set something apart after `word` with an elided negation? "paid the new wage
    to civil servants in other departments but not to teachers" denies some the payment, and
    "power had been restored to all but 8,000 homes" leaves 8,000 without it."""
    toks = text.tokens
    for i, s in enumerate(text.stems):
        if s == word and any(
            toks[j : j + 2] in (["but", "not"], ["all", "but"])
            or toks[j] in ("except", "excluding")
            for j in range(i + 1, len(toks))
        ):
            return True
    return False


def _negation_in_clause(text: Analysis, word: str, reach: int = 4, after: bool = True) -> bool:
    """Some time `text` writes `word`, a negation stands within `reach` tokens of it in its clause
    (before it only, without `after`: "found no sign of water vapour"). Where the negation stands
    varies with the sentence's shape, not its meaning: "A trial date has not been set" says what
    "no trial date has been set" says, and "We do not charge overdue fines" what "there are no
    overdue fines". "non-" negates only its own word, and "cannot help but notice" nothing."""
    toks, clauses = text.tokens, text.clauses
    for i, s in enumerate(text.stems):
        if s != word:
            continue
        for j in range(max(0, i - reach), min(len(toks), i + (reach + 1 if after else 0))):
            if j != i and clauses[j] == clauses[i] and _denies(toks, j):
                return True
    return False


def _denies(tokens: Sequence[str], i: int) -> bool:
    """Is token `i` a negation of what stands beside it? "non-" negates only its own word, "failed"
    only what follows as "failed to" ("a failed request is retried" denies nothing), and "not
    only", "cannot help but notice" and "No. 15" nothing."""
    t, after = tokens[i], tokens[i + 1 : i + 3]
    if not is_negation(t) or t == "non" or after[:1] == ["only"] or after == ["help", "but"]:
        return False
    if t in FAIL and after[:1] != ["to"]:
        return False
    if after[:1] and after[0] in EXCEED:  # "must not exceed 7 kg" bounds the weight
        return False
    return not (t == "no" and after[:1] and after[0][:1].isdigit())


# Verbs that deny what follows them without a negation cue: "refuses to make dramas" says what
# "does not make dramas" says, and "removes support for Python 3.7" what "no longer supports" it;
# "his failure to pay for repairs" what "he had been unable to pay for repairs" says.
_DENYING = frozenset(
    stem(w)
    for w in words(
        "refuse decline avoid stop quit cease deny reject remove discontinue withdraw revoke"
        " deprecate cancel eliminate abolish prohibit forbid ban lose lost failure inability"
    )
)


_CONTRASTS = words("but except unlike only instead whereas while although though none nobody")


def affirmed_against(claim: Analysis, cands: Sequence[Candidate], reach: int = 4) -> list[str]:
    """The claim's content stems that every candidate mentioning them negates, beside a word the
    claim states next to them that the candidate states plainly: "a 30-day trial at cost" against
    "a 30-day trial at no cost", "Turing married in 1941" against "Turing never married". Without
    such a neighbour the negation is likely about something else ("the investigation has not
    concluded" says nothing of a tour that "concluded his relationship with Pepsi"; "non-sci-fi
    fans" negates "fi" with "sci"). A candidate that states the word more than once may state it
    plainly too, so it counts as stating it plainly."""
    out: list[str] = []
    # Most candidates negate nothing: only a word some candidate negates needs a closer look, and
    # this runs for every claim.
    negated = frozenset().union(*(c.analysis.negates for c in cands))
    if not negated:
        return out
    content = claim.content
    set_aside = _set_aside(claim)
    for i, word in enumerate(content):
        if word in claim.negates or word in set_aside or word in out:
            continue
        # "The ferry ran" against "the ferry did not run": a page denies with the base form
        page_word = word if word in negated else _PAST_TO_BASE.get(word, "")
        if page_word not in negated:
            continue
        if _denied_in(claim, word) or _negation_in_clause(claim, word, reach=8):
            continue
        beside = {content[j] for j in (i - 1, i + 1) if 0 <= j < len(content)} - {word}
        stating = [c for c in cands if page_word in c.analysis.stems]
        if stating and all(
            (
                _negated_beside(c.analysis, page_word, beside, reach)
                or _negated_after_the_same_modal(claim, c.analysis, page_word)
                or _none_at_all(c.analysis, page_word)
            )
            and not _denied_of_another(claim, c.analysis, page_word)
            for c in stating
        ):
            out.append(word)
    return out


def _denied_of_another(claim: Analysis, text: Analysis, word: str) -> bool:
    """Does `text` deny `word` of someone its clause names before it, not named by the claim,
    while it names the claim's own elsewhere? "Okafor did not win the award, which went to
    Lindqvist" denies nothing of "Lindqvist won the award"."""
    mine = (claim.names | {claim.subject}) - {""}
    theirs = text.names | {text.subject}
    if not mine & theirs:
        return False
    for i in (i for i, s in enumerate(text.stems) if s == word):
        before = {
            text.stems[j]
            for j in range(i)
            if text.stems[j] in theirs and (not text.clauses or text.clauses[j] == text.clauses[i])
        }
        if before and not before & mine:
            return True
    return False


# Irregular past tenses and the base form that "did not" takes; those that are as often another
# word ("left", "found", "rose", "fell", "saw", "led", "lay") are left out.
_IRREGULAR_PAST = {
    "ran": "run",
    "won": "win",
    "lost": "lose",
    "went": "go",
    "came": "come",
    "gave": "give",
    "took": "take",
    "made": "make",
    "sold": "sell",
    "paid": "pay",
    "met": "meet",
    "held": "hold",
    "kept": "keep",
    "began": "begin",
    "wrote": "write",
    "told": "tell",
    "built": "build",
    "bought": "buy",
    "brought": "bring",
    "caught": "catch",
    "taught": "teach",
    "fought": "fight",
    "knew": "know",
    "grew": "grow",
    "drew": "draw",
    "broke": "break",
    "chose": "choose",
    "spoke": "speak",
    "stole": "steal",
    "flew": "fly",
    "drove": "drive",
    "rode": "ride",
    "sang": "sing",
    "swam": "swim",
    "struck": "strike",
    "stood": "stand",
    "sent": "send",
    "spent": "spend",
    "lent": "lend",
    "sank": "sink",
    "threw": "throw",
    "wore": "wear",
    "became": "become",
    "forgot": "forget",
    "forgave": "forgive",
    "understood": "understand",
}
_PAST_TO_BASE = {stem(past): stem(base) for past, base in _IRREGULAR_PAST.items()}


def _none_at_all(text: Analysis, word: str) -> bool:
    """`text` opens by denying `word` of anyone, and writes it nowhere else: "No deaths have been
    reported, but two firefighters were treated for burns" against "Two firefighters died". What
    follows a contrast in another clause is a second fact, and sets nobody apart from the
    first."""
    return (
        text.tokens[:1] == ["no"]
        and text.stems[1:2] == [word]
        and text.stems.count(word) == 1
        and not any(
            t in _CONTRASTS
            for i, t in enumerate(text.tokens)
            if not text.clauses or text.clauses[i] == 0
        )
    )


_VERB_MODALS = words("will would can could should shall must may might")


def _negated_after_the_same_modal(claim: Analysis, text: Analysis, word: str) -> bool:
    """`text` writes `word` once, right after the modal the claim writes right before it and a
    negation, and sets nobody apart: "said he would stand again" against "said he would not stand
    again". A modal ties the negation to the claim's own verb where no other word of the claim
    stands beside it."""
    mine = [claim.tokens[i - 1] for i, s in enumerate(claim.stems) if s == word and i]
    if len(mine) != 1 or mine[0] not in _VERB_MODALS:
        return False
    if text.stems.count(word) != 1 or _CONTRASTS.intersection(text.tokens):
        return False
    at = text.stems.index(word)
    return at >= 2 and text.tokens[at - 2] == mine[0] and _denies(text.tokens, at - 1)


def negated_for_another(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """A word the claim states plainly that one sentence states plainly of one thing and another
    negates of what the claim names with it: "Photography without flash is allowed in temporary
    exhibitions" against "Photography without flash is allowed in the permanent collection.
    Photography is not allowed in temporary exhibitions." `affirmed_against` wants every sentence
    that states the word negated, and the plain one is about something else. The plain sentences
    must state every word of the claim the negating one lacks, and none of those it adds, so the
    two sentences tell apart only what the claim chose; one opening with a pronoun may be about
    anything, so it ends the search."""
    out: list[str] = []
    for word in claim.content:
        # "native Indian ancestry" against "a non-Indian": "non-" makes a word of its own
        if word not in claim.lower or word in claim.negates or word in out:
            continue
        if _denied_in(claim, word):
            continue
        stating = [c for c in cands if word in c.analysis.stems]
        negating = [c for c in stating if _negated_once(c.analysis, word)]
        plain = [c for c in stating if word not in c.analysis.negates]
        if not negating or not plain or any(opens_with_pronoun(c) for c in plain):
            continue
        if any(_told_apart(claim, plain, c) and not _of_others(claim, plain, c) for c in negating):
            out.append(word)
    return out


def opposed_for_another(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5
) -> list[tuple[str, str]]:
    """A word the claim states that one sentence states of one thing, where one of the best says
    its opposite of what the claim names with it, each with that opposite as written:
    ("common", "rarely") for "Dizziness is a common side effect" against "Common side effects
    include headache and nausea. Rarely, it can cause dizziness." The same test as
    `negated_for_another`, with an opposite for the negation."""
    out: list[tuple[str, str]] = []
    done: set[str] = set()
    content = set(claim.content)
    for i, (word, token) in enumerate(zip(claim.stems, claim.tokens, strict=True)):
        if word not in content or word not in claim.lower or word in claim.negates:
            continue
        against = opposites(key(word))
        # "brothers and sisters", "partially paralyzed … a full recovery": both said, of two things
        if word in done or not against or any(key(s) in against for s in claim.stems):
            continue
        plain = [c for c in cands if word in c.analysis.stems and word not in c.analysis.negates]
        if not plain or any(opens_with_pronoun(c) for c in plain):
            continue
        thing, before = _thing(claim, i, content)
        for c in cands[:near]:
            a = c.analysis
            if word in a.stems or _CONTRASTS.intersection(a.tokens):
                continue
            said = [t for t, s in zip(a.tokens, a.stems, strict=True) if key(s) in against]
            added = (
                _told_apart(claim, plain, c) if said and not _of_others(claim, plain, c) else set()
            )
            # Told apart by a name alone, the opposite must be said of the claim's thing: "the
            # only public university" against "Northwestern is a private university".
            if added and (
                _common(claim, added, cands)
                or (thing and _said_of(a, against, thing, reach=4, before=before))
            ):
                out.append((token, said[0]))
                done.add(word)
                break
    return out


def _told_apart(claim: Analysis, plain: Sequence[Candidate], other: Candidate) -> set[str]:
    """The words of the claim `other` states and `plain` do not, when `plain` state all the rest;
    then the two tell apart what the claim joins. Empty when they do not."""
    content = set(claim.content)
    said = stems_stated(plain, claim)
    added = (content & set(other.analysis.stems)) - said
    return added if content <= said | added else set()


def _of_others(claim: Analysis, plain: Sequence[Candidate], other: Candidate) -> bool:
    """Do `plain` name everyone the claim names, and `other` none of them but someone else? Then
    `other` says its word of others: "Alicia Moreno won the women's race" against "Alicia Moreno won the women's
    title … In the men's race, Tomas Lind won"."""
    names = claim.names | ({claim.subject} - {""})
    said = stems_stated(plain, claim)
    if not names or not names <= said or names & set(other.analysis.stems):
        return False
    # and names someone else: "Neither policy covers earthquake damage" is about every policy
    return bool(other.analysis.names - names)


def _common(claim: Analysis, added: set[str], cands: Sequence[Candidate]) -> bool:
    """Is one of `added` a word, not a name? A name alone tells nothing apart: an article about
    Larkspur names it in some sentences only, so "Quarterly profit rose to $312 million" and
    "Larkspur now expects sales … down" do not set apart "Larkspur's quarterly profit rose"."""
    return any(s in claim.lower or written_lowercase(s, cands) for s in added)


def _participle(token: str) -> bool:
    """Does `token` look like a verb's past participle ("killed"), or "dead"? Not "last" in "was
    last given", nor a noun or an adjective after "was" ("was full of water", "was women")."""
    return token.endswith("ed") or token == "dead"


def _thing(claim: Analysis, i: int, content: set[str], reach: int = 4) -> tuple[str | None, bool]:
    """What the claim's word at `i` is said of: the next content word within `reach`, or, with
    nothing after it ("Net income rose 12%."), the content word before it; and whether it stands
    before. A passive is said of what comes before it: "Two cyclists were killed on Mill Road" of
    the cyclists, not the road."""
    if i and claim.tokens[i - 1] in PASSIVE_AUXILIARIES and _participle(claim.tokens[i]):
        preceding = reversed(claim.stems[max(0, i - 1 - reach) : i - 1])
        found = next((f for f in preceding if f in content), None)
        if found is not None:
            return found, True
    # An owner is not the thing: "doubled the brewery's capacity" is said of the capacity
    after = range(i + 1, min(len(claim.stems), i + 1 + reach))
    thing = next(
        (claim.stems[k] for k in after if claim.stems[k] in content and not _owner(claim, k)),
        None,
    )
    if thing is not None:
        return thing, False
    preceding = reversed(claim.stems[max(0, i - reach) : i])
    return next((f for f in preceding if f in content), None), True


def _owner(a: Analysis, k: int) -> bool:
    """Is token `k` of `a` a possessive before another word ("the brewery's capacity")?"""
    return a.tokens[k].endswith(("'s", "’s")) and k + 1 < len(a.tokens)


def _negated_once(a: Analysis, word: str) -> bool:
    """`a` writes `word` once, negated, and sets nobody apart ("Jones did not sign, but Smith
    did")."""
    if word not in a.negates or a.stems.count(word) != 1 or _CONTRASTS.intersection(a.tokens):
        return False
    at = a.stems.index(word)
    return not (at and a.tokens[at - 1] == "non")


def excluded(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """The claim's words that every candidate stating them sets apart after "but not", "except"
    or "excluding", where the candidate states the rest of the claim before it: "The warranty
    covers water damage" against "covers manufacturing defects but not accidental damage, water
    damage or normal wear", "Even in an emergency, the landlord must give notice" against "must
    give 24 hours' notice before entering, except in an emergency". "including but not limited
    to" excludes nothing."""
    if _excluded_from(claim) or claim.negated:
        return []
    content = set(claim.content)
    out: list[str] = []
    for word in claim.content:
        stating = [c for c in cands if word in c.analysis.stems]
        if not stating or word in out:
            continue
        for c in stating:
            apart = _excluded_from(c.analysis)
            if word not in apart:
                break
            rest = content - apart
            if not rest or not rest <= set(c.analysis.stems[: c.analysis.stems.index(word)]):
                break
        else:
            out.append(word)
    return out


_NOT_EXCLUDING = words("limited least exclusively necessarily only always just")


def _excluded_from(a: Analysis) -> set[str]:
    """The stems `a` sets apart after "but not", "except" or "excluding", to the end of the list
    that follows: "but not accidental damage, water damage or normal wear". A clause that opens
    with a stopword after "and" or "or" ("…, and should be taken with food") ends the list."""
    toks = a.tokens
    out: set[str] = set()
    for i, t in enumerate(toks):
        if t in ("except", "excluding"):
            start = i + 1
        elif t == "but" and toks[i + 1 : i + 2] == ["not"] and toks[i + 2 : i + 3] != []:
            if toks[i + 2] in _NOT_EXCLUDING:
                continue
            start = i + 2
        else:
            continue
        clause = a.clauses[i]
        for j in range(start, len(toks)):
            if a.clauses[j] != clause:
                k = j + 1 if toks[j] in ("and", "or") else j
                if k >= len(toks) or toks[k] in STOPWORDS or toks[j] == "but":
                    break
                clause = a.clauses[j]
            out.add(a.stems[j])
    return out - STOPWORDS


def _set_aside(claim: Analysis, reach: int = 4) -> set[str]:
    """The stems a claim sets aside with "rather than" or "instead of": "per API key rather than
    per IP address" agrees with "per key, not per IP address". Not a negation: "instead of
    attending Teaneck High School he enrolled at…" says nothing against the page's "attended"."""
    out: set[str] = set()
    for i in range(1, len(claim.tokens)):
        if (claim.tokens[i - 1], claim.tokens[i]) in (("rather", "than"), ("instead", "of")):
            out.update(claim.stems[i + 1 : i + 1 + reach])
    return out


def _denied_in(claim: Analysis, word: str) -> bool:
    """Every time the claim writes `word`, a denying verb stands within three tokens before it."""
    at = [i for i, s in enumerate(claim.stems) if s == word]
    return all(any(s in _DENYING for s in claim.stems[max(0, i - 3) : i]) for i in at)


def _denied(text: Analysis, word: str) -> bool:
    """Some time the text writes `word`, a denying verb stands within three tokens of it, before
    or, passive, after ("Subletting is prohibited")."""
    at = [i for i, s in enumerate(text.stems) if s == word]
    return any(any(s in _DENYING for s in text.stems[max(0, i - 3) : i + 4]) for i in at)


def _negated_beside(text: Analysis, word: str, beside: set[str], reach: int) -> bool:
    """`text` states `word` once, negated, with one of `beside` stated plainly within `reach`
    tokens of it, and sets nobody apart: "No one but Smith signed", "Jones did not sign, but Smith
    did" and "Unlike Apple, Nokia never released one" negate the word of someone else."""
    if word not in text.negates or text.stems.count(word) != 1:
        return False
    at = text.stems.index(word)
    near = range(max(0, at - reach), min(len(text.stems), at + reach + 1))
    found = [i for i in near if text.stems[i] in beside and text.stems[i] not in text.negates]
    # A contrast sets apart from the denial only beside it, a clause away at most ("Jones did not
    # sign, but Smith did"); "did not show that it was more harmful, but that its safety had been
    # overestimated by regulators, who tested it only on honeybees" sets a second finding beside
    # the denied one, and nobody apart.
    set_apart = {
        t
        for i, t in enumerate(text.tokens)
        if t in _CONTRASTS
        and (not text.clauses or abs(text.clauses[i] - text.clauses[at]) <= 1)
        and not (t == "but" and text.tokens[i + 1 : i + 2] == ["that"])
    }
    if found and set_apart == {"unlike"} and text.tokens[0] == "unlike":
        # "Unlike its predecessor, the Nimbus 5 does not come with a charger" sets apart only what
        # its opening clause names: it denies the charger of the Nimbus 5.
        opening = clause_stems(text, 0)
        return text.clauses[at] != 0 and not beside & opening
    if found and set_apart and set_apart <= _YET:
        # "called the walkout disappointing but said the government would not intervene": the
        # contrast comes before the denial and what it denies, so sets no one apart from it
        denial = max((i for i in range(at) if is_negation(text.tokens[i])), default=-1)
        last = max(i for i, t in enumerate(text.tokens) if t in set_apart)
        return last < denial and min(found) > last
    return bool(found) and not set_apart


_YET = words("but although though while whereas")


def opposed(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5, reach: int = 4
) -> list[tuple[str, str]]:
    """The claim's words that no candidate states while one of the best candidates states their
    opposite beside a word that stands beside them in the claim, each with that opposite as
    written: ("inflexible", "flexible") for "suggests inflexible payment options" against "offers
    flexible payment options". Soft coverage would count the antonym as a match. An opposite
    elsewhere in the sentence is of something else: "a small increase in sales" against "moved to
    its larger facilities", "went unnoticed for five weeks" against "the team noticed unusual
    transfers"."""
    stated = {key(s) for s in stems_stated(cands)}
    content = set(claim.content)
    # Most claims state nothing the candidates lack: then there is nothing to look up.
    unstated = [
        (i, t, s)
        for i, (t, s) in enumerate(zip(claim.tokens, claim.stems, strict=True))
        # "not cheap" against "expensive" agrees: a negated word's opposite is what the claim says
        if s in content and key(s) not in stated and s not in claim.negates
    ]
    out: list[tuple[str, str]] = []
    for i, token, s in unstated:
        against = opposites(token, of_a_thing=False)
        beside = {f for f in claim.stems[max(0, i - reach) : i + 1 + reach] if f in content} - {s}
        for c in cands[:near]:
            word = _opposite_beside(c.analysis, key(s), against, beside, reach)
            if word:
                out.append((token, word))
                break
    return out


def _opposite_beside(
    a: Analysis, own: str, against: frozenset[str], beside: set[str], reach: int
) -> str:
    """The word of `a`, not negated there, whose key is among `against` or that negates `own`
    with a prefix ("inflexible" of "flexible"), with one of `beside` within `reach` words; "" when
    there is none."""
    for k, (token, s) in enumerate(zip(a.tokens, a.stems, strict=True)):
        # "will not reduce battery life" states no opposite of "increases battery life"
        opposite = key(s) in against and s not in a.negates
        if opposite and a.tokens[k + 1 : k + 2] == ["school"]:
            continue  # "Hillview High School" says nothing against "low"
        # A name negates nothing: the "Unlimited Plus" plan says nothing against "limited"
        negating = s not in a.names and negative_base(token) == own
        if (opposite or negating) and beside & set(a.stems[max(0, k - reach) : k + 1 + reach]):
            return token
    return ""


def opposed_here(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5, reach: int = 4
) -> list[tuple[str, str]]:
    """The claim's words whose opposite the best candidates state of the same thing, while none
    states the word of it: ("increase", "reduce") for "increase project completion time" against
    "reduce project completion time … and increase productivity". `opposed` misses these: the
    page states both words, each of something else. The thing is the claim's next content word;
    a word the claim negates is left alone ("did not reduce its workforce" agrees with "increased
    its workforce")."""
    content = set(claim.content)
    out: list[tuple[str, str]] = []
    for i, (token, s) in enumerate(zip(claim.tokens, claim.stems, strict=True)):
        stated = (s in content or token in DIRECTIONS) and s not in claim.negates
        against = opposites(token) if stated else frozenset()
        if not against:
            continue
        thing, before = _thing(claim, i, content, reach)
        if thing is None:
            continue
        if any(_said_of(c.analysis, kin(token), thing, reach, before) for c in cands):
            continue
        # "fell to $3.2 billion in 2022" is backed by "after falling to $3.2 billion in 2022",
        # beside "Sales rose to $4.1 billion in 2023"
        if _moved_to_the_same(claim, i, cands):
            continue
        # A clause that says the word of the thing further off ("was convicted on Monday of 14
        # counts") backs it, unless the opposite's clause states more of the claim. Not "first"
        # or "after", which a clause may say of anything in it.
        own = -1
        if token not in DIRECTIONS:
            own = max(_clause_share(c.analysis, kin(token), thing, content - {s}) for c in cands)
            # So does one that says the word of something else with none of its opposites, when it
            # states more of the word's clause in the claim: "won the women's race" against "won
            # the women's title at the Brightwater Marathon … In the men's race, Lind won".
            mine = clause_stems(claim, claim.clauses[i]) & content - {s}
            own = max(own, *(_plain_share(c.analysis, kin(token), against, mine) for c in cands))
        # The claim says the opposite of the same thing too, and denies something: it sets the
        # two apart itself ("partial card numbers were exposed, but full card numbers were not";
        # not "a discount on your first and last purchase").
        if claim.negated and _said_of(claim, against, thing, reach, before):
            continue
        # "Arcadius ruled the East, and Honorius ruled the West": each clause has its own point
        # of the compass. Not so other opposites: "increase project completion time, … reducing
        # costs" says each of its own thing, which the page may give the other way round.
        if token in COMPASS and any(
            key(t) in against and claim.clauses[j] != claim.clauses[i]
            for j, t in enumerate(claim.tokens)
        ):
            continue
        for c in cands[:near]:
            # "will not reduce battery life" is no opposite of "increases battery life"
            keys = against - {key(n) for n in c.analysis.negates}
            word = _said_of(c.analysis, keys, thing, reach, before)
            if word and _clause_share(c.analysis, keys, thing, content - {s}) > own:
                out.append((token, word))
                break
    return out


def _clause_share(a: Analysis, keys: Collection[str], thing: str, content: set[str]) -> int:
    """How many of `content` the clause of `a` states that writes a word whose key is among
    `keys` and names `thing`, however far apart (the most over such clauses); -1 when none does.
    "was convicted on Monday of 14 counts of fraud" convicts of counts."""
    return max(
        (
            len(clause_stems(a, k) & content)
            for s, k in zip(a.stems, a.clauses, strict=True)
            if key(s) in keys and thing in clause_stems(a, k)
        ),
        default=-1,
    )


def _plain_share(
    a: Analysis, keys: Collection[str], against: Collection[str], content: set[str]
) -> int:
    """How many of `content` the clause of `a` states that writes a word whose key is among `keys`
    and none whose key is among `against` (the most over such clauses); -1 when none does."""
    found = -1
    for k in {k for s, k in zip(a.stems, a.clauses, strict=True) if key(s) in keys}:
        stems = clause_stems(a, k)
        if not any(key(s) in against for s in stems):
            found = max(found, len(stems & content))
    return found


def _said_of(
    a: Analysis, keys: Collection[str], thing: str, reach: int, before: bool = False
) -> str:
    """The word of `a` whose key is among `keys` and that `thing` follows within `reach` words (or
    precedes, `before`), or "" when there is none."""
    for k, s in enumerate(a.stems):
        if key(s) not in keys:
            continue
        near = a.stems[max(0, k - reach) : k] if before else a.stems[k + 1 : k + 1 + reach]
        if thing in near:
            return a.tokens[k]
    return ""


# Relations that hold both ways round ("Smith met Jones" is "Jones met Smith"), and words that put
# two names side by side rather than one acting on the other ("and", "with" are stopwords, so
# never a relation).
_SYMMETRIC = frozenset(
    stem(w)
    for w in words(
        """meet met marry married wed play played face faced fight fought tie tied draw drew
    debate partner merge collaborate compete talk spoke speak chat date dated duet alongside together
    divorce split befriend resemble equal border neighbour neighbor rival versus vs"""
    )
)


# "sent letters to Jones", "bought it from Smith": a preposition says which way it goes, and the
# page may say it from the other side ("Jones received letters from Smith").
_DIRECTED = frozenset(["to", "from", "for", "into", "onto"])


# Verbs that relate a work to who is in it either way round: "X stars in Y" is "Y stars X".
_CASTING = frozenset(
    stem(w) for w in words("star stars starred starring feature features featured")
)


_COMPARATIVES = frozenset(["more", "less", "fewer"])


# "defeated by Smith", "the father of Obama": the relation read the other way round. A copula ("is a
# female justice") relates nothing in a direction.
_INVERTING = frozenset(["by", "of"])


_COPULA = frozenset(["is", "was", "are", "were", "be", "been", "being"])


# What may stand between a name and the verb that relates it to the next one.
_AUXILIARIES = words("has have had will would did does agreed agrees plans planned wants to")


def _actors(a: Analysis) -> list[tuple[int, int]]:
    """Spans [start, end) of the runs of name tokens ("Jane Doe"), the text's subject included even
    at the start of a sentence, where `names` leaves it out."""
    actor = [(s in a.names or s == a.subject) and s not in CALENDAR for s in a.stems]
    spans: list[tuple[int, int]] = []
    for i, is_actor in enumerate(actor):
        if not is_actor:
            continue
        if spans and spans[-1][1] == i:
            spans[-1] = (spans[-1][0], i + 1)
        else:
            spans.append((i, i + 1))
    return spans


def _in_order(
    cand: Analysis, first: set[str], relation: set[str], second: set[str], reach: int
) -> bool:
    """Does the candidate say that `first` relates to `second` by a `relation` word, within `reach`
    tokens: "Smith defeated Jones", or in the passive, "Jones was defeated by Smith"? "The father
    of Obama" relates them the other way round."""
    for j, k in _spans(cand, first, relation, second, reach):
        if not _INVERTING.intersection(cand.tokens[j:k]):
            return True
    # "Jones was defeated (twice) by Smith", not "Jones defeated the team coached by Smith"
    return any(
        "by" in cand.tokens[j:k]
        and (cand.tokens[j + 1] == "by" or j > 0 and cand.tokens[j - 1] in _COPULA)
        for j, k in _spans(cand, second, relation, first, reach)
    )


def _spans(
    cand: Analysis, first: set[str], relation: set[str], second: set[str], reach: int
) -> Iterator[tuple[int, int]]:
    """(relation word, second) positions of each place where the candidate writes `first`, a
    `relation` word and `second` in that order, within `reach` tokens."""
    stems = cand.stems
    for i, s in enumerate(stems):
        if s not in first:
            continue
        for j in range(i + 1, min(len(stems), i + reach)):
            if stems[j] not in relation:
                continue
            for k in range(j + 1, min(len(stems), i + reach + 1)):
                if stems[k] in second:
                    yield j, k


def swapped(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[tuple[str, str]]:
    """Two names the best candidates relate the other way round: ("Smith", "Jones") for "Smith
    defeated Jones" (or "Jones was defeated by Smith") against "Jones defeated Smith". Only where
    the claim relates the two in a few words, no candidate states them in the claim's order, and
    the relation is not one that holds both ways ("met", "married"). Coverage finds every word of
    such a claim on the page."""
    spans = _actors(claim)
    out: list[tuple[str, str]] = []
    for (a0, a1), (b0, b1) in zip(spans, spans[1:], strict=False):
        # "Acme has agreed to acquire Globex" relates them as "Acme acquires Globex" does.
        v0 = a1 + next(
            (i for i, t in enumerate(claim.tokens[a1:b0]) if t not in _AUXILIARIES), b0 - a1
        )
        between = claim.tokens[v0:b0]
        first, second = set(claim.stems[a0:a1]), set(claim.stems[b0:b1])
        # "Jones was defeated by Smith" relates them as "Smith defeated Jones" does.
        passive = 3 <= len(between) <= 4 and between[0] in _COPULA and between[-1] == "by"
        if passive:
            first, second = second, first
        # "Ford stars in Blade Runner" says what "Blade Runner stars Ford" and "Ford starred in
        # Blade Runner" both say: either order on the page backs it.
        if len(between) == 2 and between[1] == "in" and stem(between[0]) in _CASTING:
            continue
        verb = slice(v0 + 1, b0 - 1) if passive else slice(v0, b0)
        # The relation is the verb, the first word that is not a stopword: "Acme sells software to
        # Globex" relates them by "sells", and "software" is no relation ("Globex buys software").
        verb_stem = next(
            (
                st
                for t, st in zip(claim.tokens[verb], claim.stems[verb], strict=True)
                if t not in STOPWORDS and any(ch.isalpha() for ch in t)  # no "3-1" relates them
            ),
            None,
        )
        relation = {verb_stem} if verb_stem else set()
        # "Silver costs more than Gold": the comparative is the relation, and the page must use the
        # same one ("Gold costs less than Silver" says the same thing).
        than = between.index("than") if "than" in between[1:] else 0
        if than:
            compared = [t for t in between[:than] if t in _COMPARATIVES or t.endswith("er")]
            relation = {stem(compared[-1])} if compared else set()
        if not between or len(between) > (6 if than else 4 if passive else 3) or first & second:
            continue
        # "Whitby folk group The Lanternmen": an article before the second name makes the words
        # between a title for it, not a relation
        if not (passive or than) and between[-1] in ("the", "a", "an"):
            continue
        if not relation or relation & _SYMMETRIC or _DIRECTED.intersection(between):
            continue
        if _INVERTING.intersection(between) and not passive:
            continue
        if _COPULA.intersection(between) and not (passive or than):
            continue
        reach = len(between) + 5
        if any(_in_order(c.analysis, first, relation, second, reach) for c in cands):
            continue
        if any(_in_order(c.analysis, second, relation, first, reach) for c in cands[:near]):
            pair = (" ".join(claim.tokens[a0:a1]), " ".join(claim.tokens[b0:b1]))
            out.append((capitalised(pair[0]), capitalised(pair[1])))
    return out


# Verbs that give what someone said, as news writes them; and the words before a speaker that give
# what follows as theirs ("according to", "según", "selon", "laut").
_SAYING = words(
    "said says told warned warns called calls described describes argued argues stated claimed"
    " saying arguing warning claiming insisting"
    " claims insisted insists admitted predicted urged criticised criticized praised explained"
    " suggested acknowledged conceded stressed emphasised emphasized dijo afirmó aseguró declaró"
    " explicó señaló recordó calificó advirtió déclaré affirmé expliqué averti souligné sagte"
    " erklärte betonte warnte disse afirmou explicou alertou"
)


_ACCORDING = words("according según selon laut")


_SPEAKERS = frozenset(["he", "she", "they", "we", "i"])


def _speaker_and_words(claim: Analysis) -> tuple[set[str], set[str], set[str]]:
    """Who the claim says said something, the content stems of what they said, and of those the
    ones in the verb's own clause: ({"priya", "shah"}, {"comparable", "scheme", ...}, …) for
    "Council leader Priya Shah warned that comparable schemes had overrun by up to 40%". Empty
    when the claim gives no one's words."""
    tokens, stems = claim.tokens, claim.stems
    names = claim.names | {claim.subject}  # a name that opens the claim is no `names`'
    for i, t in enumerate(tokens):
        if t in _SAYING:
            # the run of names right before the verb: "Council leader Priya Shah warned" is
            # Priya Shah's, not the council's
            start = i
            # in the verb's clause: "voting for Trump, saying that…" is not Trump's
            while (
                start > max(0, i - 5)
                and stems[start - 1] in names
                and claim.clauses[start - 1] == claim.clauses[i]
            ):
                start -= 1
            speaker = set(stems[start:i])
            # what they said, as far as the clause after it: "Crestmoor said it was disappointed
            # and is considering an appeal, and it could restart the process, which would take four
            # months" may give the four months to someone else on the page
            said = [
                s
                for s, k in zip(stems[i + 1 :], claim.clauses[i + 1 :], strict=True)
                if k <= claim.clauses[i] + 1
            ]
            own = [
                s
                for s, k in zip(stems[i + 1 :], claim.clauses[i + 1 :], strict=True)
                if k == claim.clauses[i]
            ]
        elif t in _ACCORDING:
            start = i + 2 if tokens[i + 1 : i + 2] == ["to"] else i + 1
            end = start
            while end < len(tokens) and stems[end] in names:
                end += 1
            speaker, said = set(stems[start:end]), stems[end:]
            own = said
        else:
            continue
        if not speaker:
            break
        content = set(claim.content)
        return speaker, set(said) & content - speaker, set(own) & content - speaker
    return set(), set(), set()


def said_by_another(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """The speaker the claim gives someone's words to, when the candidate that states those words
    best gives them to someone else and no candidate naming the speaker states them as well:
    "Priya Shah warned that similar projects had overrun by 40%" against "Priya Shah said the
    vote was a turning point. Gareth Lyle warned that similar projects had run over budget by as
    much as 40 percent." A sentence whose speaker is a pronoun, or that opens with a possessive ("His
    article…"), may be quoting the claim's speaker, so it tells nothing. What the verb's own clause says is read alone too: "Brenner called the
    strike disproportionate and warned of more strikes" may join Brenner's warning to another
    one's words."""
    speaker, said, own = _speaker_and_words(claim)
    # "Coach Alina Petrova said": the page writes "coach" of everyone, and names no one with it
    speaker = {s for s in speaker if not written_lowercase(s, cands)}
    if not speaker:
        return []
    each = [stems_stated([c]) for c in cands]
    if len(said) >= 3 and _words_of_another(speaker, said, cands, each):
        return sorted(speaker)
    if own != said and len(own) >= 2 and _words_of_another(speaker, own, cands, each):
        return sorted(speaker)
    return []


def _words_of_another(
    speaker: set[str], said: set[str], cands: Sequence[Candidate], each: Sequence[set[str]]
) -> bool:
    """Does the candidate that states most of `said` give it to someone other than `speaker`,
    while no candidate naming the speaker states half as much of it?"""
    overlap = [len(said & stems) for stems in each]
    best = max(range(len(cands)), key=lambda i: overlap[i], default=None)
    if best is None or overlap[best] < max(2, len(said) / 2):
        return False
    tokens = set(cands[best].analysis.tokens)
    if speaker & each[best] or not _SAYING & tokens:
        return False
    # "His 1889 article called on the rich…" may be the claim's speaker's as well
    if _SPEAKERS & tokens or opens_with_pronoun(cands[best]):
        # '"…," she said' quotes whoever the sentences before it name as speaking
        quoting = _earlier_speaker(cands[best])
        if not quoting or quoting & speaker:
            return False
    naming = [o for o, stems in zip(overlap, each, strict=True) if speaker & stems]
    # a speaker no candidate names is `name_missing`'s
    return bool(naming) and max(naming) * 2 <= overlap[best]


def _earlier_speaker(cand: Candidate) -> set[str]:
    """The names beside a verb of saying in the nearest sentence before `cand` that has one:
    {"desai"} for '"Nothing in that case is worth a life," she said' after "Desai said her staff
    did exactly what they had been trained to do." Empty when none names a speaker."""
    for chunk in cand.earlier:
        a = chunk.analysis
        at = [i for i, t in enumerate(a.tokens) if t in _SAYING]
        if not at:
            continue
        near = {s for i in at for s in a.stems[max(0, i - 3) : i + 4]}
        # "Chief executive Sara Lind, who joined from a rival in March, said…": the subject
        # speaks however far its clause keeps it from the verb
        opening = {s for s, k in zip(a.stems, a.clauses, strict=True) if k == a.clauses[0]}
        return ((near | opening) & a.names | {a.subject}) - CALENDAR - {""}
    return set()


# Verbs of an intention or a request: "is studying a new route to Tokyo" has launched none.
_INTENT = words("sought seeking requested demanded intends studying weighing exploring")

# Verbs that ask someone to do a thing, which is then not done: "had asked the council to delay
# the vote" delayed nothing. Only with "to" after whom they ask ("asked about the plan" asks a
# question).
_ASKING = words("asked asking urged urging pressed pressing")
# A claim that someone told others to do a thing reports the asking: "Northern told passengers to
# travel only if necessary" is what "urged passengers to travel only if necessary" says.
_TELLING = _ASKING | words(
    "ask asks urge urges told tells tell advised advises advise instructed warned called calls"
    " recommended recommends"
)


_HEDGES = (
    words(
        "may might possibly perhaps likely probably reportedly allegedly apparently appeared appears"
        " seems seemed hoped hopes suggest suggests suggested whether unclear unconfirmed rumoured"
        " rumored speculated could expected considering proposed estimated potential possible"
        " tentative preliminary unverified"
    )
    | _INTENT
    | _ASKING
)


# What stands between an intention and a fact it is no part of: "is exploring options after
# revenue fell 12%" states the fall.
_SUBORDINATORS = words("after before because since when while as following until although")


_PUT_FORWARD = words("proposed suggested")

_HOPING = words("hoped hopes")

# A claim that reports a rumour or an allegation keeps the page's hedge: "There are rumours that
# Livia poisoned him" is what "there were unconfirmed rumours that his wife Livia poisoned him" says.
_REPORTED = words("rumor rumors rumour rumours alleged allegation allegations speculation")


# An estimate hedges an amount: "an estimated 20.9 million people are victims of human
# trafficking" hedges nothing of "Human trafficking involves forced labour".
_QUANTIFYING = words("estimated")


# Hedges only before "to" or "that" ("appears to be", "it appeared that"): otherwise the verb of
# being seen, as help pages and biographies use it.
_SEEMING = words("appeared appears")


# A claim that says what is foretold keeps the page's hedge: "More rain is forecast for
# Wednesday" is what "Forecasters said more rain was expected on Wednesday" says.
_FORETELLING = words(
    "forecast forecasts forecasted predicted predicts predict projected projects anticipated"
    " anticipates"
)


# A claim that says what someone can, could or is allowed to do reads "may" as permission.
_MODALS = words("can could may might able allowed permitted")


def _hedges_in(a: Analysis, words_: set[str], least: float, telling: bool = False) -> set[str]:
    """The hedges of the clause of `a` that states the most of `words_`, when it states at least
    `least` of them ("may" of a month, and "you may read", aside; and verbs of asking, where the
    claim reports `telling` someone). Where two clauses state as much, the page states it plainly
    if either does: "Revenue could rise to $5 billion next year, after reaching $5 billion this
    year" hedges no "Revenue reached $5 billion"."""
    found = [_clause_hedges(a, k, words_, telling) for k in stating_clauses(a, words_, least)]
    return set().union(*found) if found and all(found) else set()


def _clause_hedges(a: Analysis, clause: int, words_: set[str], telling: bool) -> set[str]:
    out = set()
    tokens = [t for t, k in zip(a.tokens, a.clauses, strict=True) if k == clause]
    if any(tokens[j : j + 3] == ["be", "ruled", "out"] for j in range(len(tokens))):
        out.add("not ruled out")  # "further restrictions cannot be ruled out"
    for i, (t, k) in enumerate(zip(a.tokens, a.clauses, strict=True)):
        if k != clause or t not in _HEDGES:
            continue
        if t == "may" and any(
            u[0].isdigit() or (u in MONTHS and u != "may") for u in a.tokens[max(0, i - 3) : i + 2]
        ):
            continue  # "10 May", "between March and May"
        if i and a.tokens[i - 1] in ("you", "we", "i"):
            continue  # "as you may read in the documentation": the reader's, not the fact's
        if t in _PUT_FORWARD and a.tokens[i + 1 : i + 2] == ["by"]:
            continue  # "a solar farm proposed by Sunpath" names who put it forward
        if t in _SEEMING and a.tokens[i + 1 : i + 2] not in (["to"], ["that"]):
            continue  # "A banner appears at the top", "appeared in 40 films": seen, not seeming
        if t == "possible" and "as" in a.tokens[max(0, i - 3) : i]:
            continue  # "in as few strokes as possible" hedges nothing
        if t == "could" and a.tokens[i + 1 : i + 2] in (["not"], ["never"]):
            continue  # "could not inspire hashtags" says it did not, as plainly as "did not"
        if t in _HOPING and not _hoped_for(a, i, words_):
            continue
        if t in _INTENT and not _intends(a, i, words_):
            continue
        if t in _ASKING and telling:
            continue
        if t in _ASKING:
            to = next((j for j in range(i + 1, i + 5) if a.tokens[j : j + 1] == ["to"]), None)
            if to is None or not _intends(a, to, words_):
                continue
        out.add(t)
    return out


def _hoped_for(a: Analysis, i: int, words_: set[str]) -> bool:
    """Is what was hoped for at `i` a deed the claim names? "had hoped to beat Ruiz in the final,
    but she lost" hedges nothing of "Kovac lost to Ruiz", only of a claim that she beat her. A hope
    without "to" ("hoped that…", "hopes are high") is read as a hedge of its clause."""
    if a.tokens[i + 1 : i + 2] != ["to"]:
        return True
    deed = next(
        (s for t, s in zip(a.tokens[i + 2 :], a.stems[i + 2 :], strict=True) if t not in STOPWORDS),
        "",
    )
    return deed in words_


def _intends(a: Analysis, i: int, words_: set[str], reach: int = 6) -> bool:
    """Is what the intention at `i` is for ("is studying a new route", "sought eight years") the
    claim's: one of `words_` within `reach` words after it, and no subordinator before that?"""
    for t, s in zip(a.tokens[i + 1 : i + 1 + reach], a.stems[i + 1 : i + 1 + reach], strict=True):
        if t in _SUBORDINATORS:
            return False
        if s in words_:
            return True
    return False


_FREE = words("free gratuit gratuite gratuits gratuites gratis gratuito gratuita kostenlos")


_MONEY = frozenset(["dollars", "euros", "pounds", "yen", "yuan"])


def priced(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5, share: float = 0.5
) -> list[tuple[str, str]]:
    """A claim's "free" that the best candidates stating much of the rest of it give a price
    instead, none of them saying "free": ("free", "£5") for "Next-day express delivery is free for
    lost cards" against "Express delivery (next working day) is available for a £5 fee"."""
    free = [t for t in claim.tokens if t in _FREE]
    if not free or any(n.unit in _MONEY for n in claim.numbers):
        return []
    content = set(claim.content) - {stem(t) for t in free}
    if len(content) < 2:
        return []
    best = candidates_stating(claim, cands[:near], content, share)
    if any(_FREE.intersection(c.analysis.tokens) for c in best):
        return []
    prices = [
        m.text
        for c in best
        for m in c.analysis.numbers
        if m.unit in _MONEY and m.count and not m.qualifier
    ]
    return [(free[0], prices[0])] if prices else []


def hedged(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[str]:
    """The hedges with which every best candidate states what the claim states as certain: "The
    trust said predation was the proven main cause" against "The trust said the main causes were
    likely to be predation…", "Engineers have decided to replace the bridge" against "Engineers
    will decide whether to replace the bridge". The hedge must stand in the clause that states the
    claim's words, half of them at least: "It may reopen in May; the museum holds 200 works"
    hedges nothing of the works."""
    if (_HEDGES | _FORETELLING | _REPORTED).intersection(claim.tokens) or _MODALS.intersection(
        claim.tokens
    ):
        return []
    content = set(claim.content)
    tops = _best_stating(claim, cands[:near], content)
    telling = bool(_TELLING.intersection(claim.tokens))
    found = [_hedges_in(c.analysis, x, 0.5 * len(content), telling) for c, x in tops]
    if not claim.numbers:
        found = [f - _QUANTIFYING for f in found]
    if tops and all(found):
        return sorted(set().union(*found))
    return []


# What a page reports someone would do, which is not done yet: "said he would publish a new
# plan". Not "will": a dated page's "will be joining forces late this summer" is read as done
# (WiCE's annotators call "joined" supported).
_TO_COME = words("would")
# Words that promise a deed with "to": "has promised to build", "pledged to cut".
_PROMISING = words("promised promises pledged pledges vowed vows plans planned intends intended")
# Words that may stand between the future and its verb: "will also publish", "would soon publish".
_BETWEEN_FUTURE = words("also soon then still now later first finally be")


def _done(claim: Analysis, i: int) -> bool:
    """Does the claim state its word at `i` as done: "has published", "was published" (not "would
    be published", nor "is expected to be published")?"""
    if not is_participle(claim.tokens[i]) or i == 0:
        return False
    before = claim.tokens[max(0, i - 4) : i]
    return not _TO_COME.intersection(before) and "to" not in before and before[-1] != "be"


def _only_to_come(a: Analysis, word: str) -> str:
    """How `a` writes `word` when it writes it only as something to come, right after "would" or
    a promise's "to" (or one of `_BETWEEN_FUTURE` after them): "would publish", "promised to
    build"; "" otherwise."""
    said = ""
    for i in (i for i, s in enumerate(a.stems) if s == word):
        j = i - 1
        while j >= 0 and a.tokens[j] in _BETWEEN_FUTURE:
            j -= 1
        if j >= 1 and a.tokens[j] == "to" and a.tokens[j - 1] in _PROMISING:
            j -= 1  # "has promised to build 500 affordable homes"
        # "I would recommend our Gold plan" recommends it now
        elif j < 0 or a.tokens[j] not in _TO_COME or a.tokens[j - 1 : j] in (["i"], ["we"]):
            return ""
        said = said or " ".join(a.tokens[j : i + 1])
    return said


def done_where_to_come(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[str]:
    """How the best candidates write the claim's deed, where every one stating most of the claim
    says it is still to come and none says it is done: "Health Minister Mike Nesbitt has published a new plan" against
    "Mike Nesbitt said he would publish a new plan to cut waiting lists before the summer". A
    summary turns a promise into a deed; a claim that keeps the future ("will publish") is
    `hedged`'s to read."""
    if claim.negated or _TO_COME.intersection(claim.tokens) or "will" in claim.tokens:
        return []
    content = set(claim.content)
    tops = _best_stating(claim, cands[:near], content)
    if not tops:
        return []
    for i, s in enumerate(claim.stems):
        if s not in content or not _done(claim, i):
            continue
        # "figures published on Thursday" says nothing of the plan
        said = [
            _only_to_come(c.analysis, s)
            for c in cands
            if s in c.analysis.stems and len(content & stems_stated([c], claim)) * 2 >= len(content)
        ]
        if said and all(said) and all(s in x for _, x in tops):
            return said[:1]
    return []


# What an amount may come to: "a fee of €32 million, which could rise to €40 million". Not
# "would": a sales call's "that would be $40 a month" is the price.
_MAY_COME_TO = words("could may might")
# Verbs of reaching an amount after such a modal: "could rise to", "may reach".
_REACHING = words("rise reach climb increase grow go top hit exceed total")


def hedged_amount(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """The modal with which every candidate writing the claim's amount says it only may come to
    be, where the claim states it as certain: "Ashford United paid €40 million for Caio Ramos"
    against "for a fee of €32 million, which could rise to €40 million with add-ons"."""
    if (_MODALS | _HEDGES | _FORETELLING | _MAY_COME_TO).intersection(claim.tokens):
        return []
    out: list[str] = []
    for n in claim.numbers:
        if n.is_year or n.ordinal:
            continue
        found = [
            _modal_before(c.analysis, m.at)
            for c in cands
            for m in c.analysis.numbers
            if numbers_match(n, m)
        ]
        if found and all(found):
            out.append(found[0])
    return out


def _modal_before(a: Analysis, at: int) -> str:
    """The modal of `_MAY_COME_TO` that a verb of `_REACHING` follows ("could rise to"), in the
    clause of token `at` and at most six tokens before it."""
    return next(
        (
            a.tokens[j]
            for j in range(max(0, at - 6), at - 1)
            if a.tokens[j] in _MAY_COME_TO
            and a.tokens[j + 1] in _REACHING
            and a.clauses[j] == a.clauses[at]
        ),
        "",
    )


def _best_stating(
    claim: Analysis, cands: Sequence[Candidate], content: set[str], least: int = 3
) -> list[tuple[Candidate, set[str]]]:
    """The candidates that state the most of `content` (`least` words at least), each with what
    it states, when the best states 60% of it; none otherwise."""
    if len(content) < least or not cands:
        return []
    stated = [content & stems_stated([c], claim) for c in cands]
    best = max(len(x) for x in stated)
    if best < 0.6 * len(content):
        return []
    return [(c, x) for c, x in zip(cands, stated, strict=True) if len(x) == best]


_SETTING_APART = words("but except unlike instead whereas none nobody")


def _denies_anything(claim: Analysis) -> bool:
    """Does the claim negate anything, a word in a negation's scope or a negation word at all?
    The rules that read what a claim states plainly leave such a claim alone."""
    return bool(claim.negates) or any(is_negation(t) for t in claim.tokens)


def denied_outright(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[str]:
    """The negations with which every best candidate states, in one clause, most of what the claim
    states plainly with no negation anywhere: "The court granted Lindahl's request to be released
    on bond" against "The court did not address Lindahl's separate request to be released on
    bond". Where the negated verb is the claim's own, `negated_against` and `affirmed_against`
    say more; this reads a denial in other words."""
    # "refuses to make dramas" denies as "doesn't make dramas" does
    if _denies_anything(claim) or _DENYING & set(claim.stems):
        return []
    content = set(claim.content)
    tops = _best_stating(claim, cands[:near], content)
    if not tops:
        return []
    found = []
    for c, x in tops:
        a = c.analysis
        clause = stating_clause(a, x, 0.5 * len(content))
        # "Jones did not sign the treaty, but Smith did" denies it of someone else
        if clause is None or _SETTING_APART.intersection(a.tokens):
            return []
        # "Okafor did not receive the award, which went to Lindqvist" denies it of another
        if (claim.names | {claim.subject}) & x - clause_stems(a, clause):
            return []
        # "will not reduce battery life" agrees with "increases battery life"
        denied = clause_stems(a, clause) & a.negates
        if any(key(d) in opposites(t) for d in denied for t in claim.tokens):
            return []
        # "charge in 15 minutes without forming dendrites" denies only what follows "without"
        cues = [
            t
            for i, (t, k) in enumerate(zip(a.tokens, a.clauses, strict=True))
            if k == clause
            and _denies(a.tokens, i)
            and (t != "without" or x & set(a.stems[i + 1 : i + 3]))
            and not _denies_only_its_relative_clause(a, i, x)
        ]
        if not cues:
            return []
        found += cues
    return sorted(set(found))


def _denies_only_its_relative_clause(a: Analysis, i: int, x: set[str]) -> bool:
    """Does the negation at `i` stand in a relative clause that follows every word of the claim
    its clause states, so that it denies something of its own? "Pets can give companionship to
    elderly adults who do not have adequate social interaction" denies the adults company, not
    the pets' companionship."""
    k = a.clauses[i]
    if any(s in x for s, c in zip(a.stems[i + 1 :], a.clauses[i + 1 :], strict=True) if c == k):
        return False
    last = max((j for j in range(i) if a.stems[j] in x and a.clauses[j] == k), default=-1)
    return last >= 0 and bool(_RELATIVES.intersection(a.tokens[last + 1 : i]))


_UNIVERSALS = words("all always")
# Words that say "all" of the word after them: "every system was working" says "all systems were
# working", but "each team plays 16 games" nothing of "always been an NFL game".
_EVERY = words("every each entire whole")


# "all over the world", "all about robots", "in all", "at all": no claim about every one of them
_NOT_UNIVERSAL = words("over about around along time star")


_BEFORE_NO_UNIVERSAL = words(
    "in at after above us them you we of among nearly almost virtually practically not"
)


def universal_unstated(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[str]:
    """The claim's "all" or "always" where no best candidate that states most of the claim says
    it of all: "All schools in the county were closed" against "Schools in the Aran and Teifion
    valleys were closed", "Replacement cards are always free" against "Your first replacement
    card in any 12-month period is free". A summary widens a scope this way more often than a
    page leaves its "all" unsaid."""
    toks = claim.tokens
    said = {
        t
        for i, t in enumerate(toks)
        if t in _UNIVERSALS
        and not (toks[i + 1 : i + 2] and toks[i + 1] in _NOT_UNIVERSAL)
        # "in all", "at all", "after all", "for us all", "40% of all goods", "among all players",
        # "nearly all", "not all"
        and not (i and toks[i - 1] in _BEFORE_NO_UNIVERSAL)
    }
    if not said:
        return []
    content = set(claim.content)
    if len(content) < 2:
        return []
    stating = candidates_stating(claim, cands[:near], content, 0.6)
    if not stating or any(_says_all(c.analysis, content) for c in stating):
        return []
    return sorted(said)


_SHORT_OF_ALL = words("nearly almost virtually practically not")


def _says_all(a: Analysis, content: set[str]) -> bool:
    """Does `a` say "all" or "always", or "every" (or "each"…) of a word of the claim's `content`
    right after it ("every system" for "all systems")?"""
    toks = a.tokens
    if any(
        t in _UNIVERSALS
        # "restored to all but 8,000 homes", "nearly all of them": not all
        and toks[i + 1 : i + 2] != ["but"]
        and not (i and toks[i - 1] in _SHORT_OF_ALL)
        for i, t in enumerate(toks)
    ):
        return True
    return any(
        t in _EVERY and a.stems[i + 1 : i + 2] and a.stems[i + 1] in content
        for i, t in enumerate(a.tokens)
    )


# A word that ranks its subject first or last among others: "the largest", "its first", "the
# best-selling", "the most popular" (a rank written with "most" or "least" is the pair).
_RANKED = re.compile(r"[a-z]{2,}est|first|last|best|worst|most|least")


# Words ending in "-est" that rank nothing.
_NOT_RANKED = words(
    """interest forest request west test protest guest contest harvest arrest suggest invest quest
    rest nest chest priest honest modest digest manifest conquest pest vest crest fest everest
    budapest bucharest midwest southwest northwest"""
)


_RANK_LEADS = words("the its their his her our my")


# "one of the largest", "among the best": one of several
_ONE_OF = (("one", "of"), ("among",))


def _ranks(toks: Sequence[str]) -> Iterator[tuple[int, tuple[str, ...]]]:
    """Each rank word's index and its words ("largest",) or ("most", "popular"), where a
    determiner or a possessive stands within the two words before it."""
    for i, t in enumerate(toks):
        if not _RANKED.fullmatch(t) or t in _NOT_RANKED:
            continue
        if t in ("most", "least"):
            if i + 1 >= len(toks) or not toks[i + 1].isalpha():
                continue
            phrase: tuple[str, ...] = (t, toks[i + 1])
        else:
            phrase = (t,)
        before = toks[max(0, i - 2) : i]
        if any(w in _RANK_LEADS or w.endswith(("'s", "’s")) for w in before):
            yield i, phrase


def _one_of_several(toks: Sequence[str], i: int) -> bool:
    """Does "one of" or "among" stand within the four words before the rank at `i`?"""
    before = tuple(toks[max(0, i - 4) : i])
    return any(before[k : k + len(lead)] == lead for lead in _ONE_OF for k in range(len(before)))


def ranked_alone(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[str]:
    """The claim's "the largest" (or "its first", "the most popular") where the best candidates
    that state most of the claim say "one of the largest" (or "the fourth largest"), and none says
    it without: "It was the largest wildfire in the state's recorded history" against "…one of the
    largest in the state's recorded history". A summary drops the "one of" more often than a page
    leaves it out."""
    toks = claim.tokens
    ranked = [(i, p) for i, p in _ranks(toks) if not _one_of_several(toks, i)]
    content = set(claim.content)
    if not ranked or len(content) < 2:
        return []
    stating = candidates_stating(claim, cands[:near], content, 0.6)
    out = []
    for i, phrase in ranked:
        # "the fourth largest" ranks below "the largest", unless the claim gives a place too
        placed = i > 0 and is_ordinal(toks[i - 1])
        several = alone = False
        for c in stating:
            ctoks = c.analysis.tokens
            for j in range(len(ctoks) - len(phrase) + 1):
                if tuple(ctoks[j : j + len(phrase)]) == phrase:
                    lower = not placed and j > 0 and is_ordinal(ctoks[j - 1])
                    if lower or _one_of_several(ctoks, j):
                        several = True
                    else:
                        alone = True
        if several and not alone:
            out.append(" ".join(phrase))
    return out


def roles_swapped(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5
) -> list[tuple[str, str]]:
    """The claim's names whose clauses one of the best candidates states of each other: "Orr
    will lead the combined company, while Feld will join the board" against "Feld will lead the
    combined company, and Orr will join Brightline's board". Each of two clauses of the claim,
    a name and at least two other words, must find its words in a clause of that candidate that
    names the other clause's name and not its own."""
    names = claim.names | ({claim.subject} - {""})
    by_clause: dict[int, set[str]] = {}
    for s, k in zip(claim.stems, claim.clauses, strict=True):
        if s in names:
            by_clause.setdefault(k, set()).add(s)
    if len(by_clause) != 2:
        return []
    content = set(claim.content)
    (k1, n1), (k2, n2) = by_clause.items()
    if n1 & n2:
        return []
    p1 = (clause_stems(claim, k1) & content) - names
    p2 = (clause_stems(claim, k2) & content) - names
    if len(p1) < 2 or len(p2) < 2:
        return []
    for c in cands[:near]:
        a = c.analysis
        if _stated_with(a, p1, n2, n1) and _stated_with(a, p2, n1, n2):
            # the last name of each clause is its actor's: "Corvan chief executive Janet Orr"
            first, second = (
                capitalised(re.split(r"['’]s ", surface(claim, sorted(n))[-1])[-1])
                for n in (n1, n2)
            )
            return [(first, second)]
    return []


def _stated_with(a: Analysis, words_: set[str], other: set[str], own: set[str]) -> bool:
    """Does the clause of `a` that states the most of `words_` (two, and most of them) name
    `other` more than `own`? ("Orr will join Brightline's board" names Orr's company too.)"""
    clause = stating_clause(a, words_, max(2, 0.6 * len(words_)))
    if clause is None:
        return False
    there = clause_stems(a, clause)
    return len(other & there) > len(own & there)


_WON = words("won win wins winning winner winners")


_SHORT_OF_WINNING = words(
    "nominated nomination nominations nominee nominees shortlisted shortlist finalist finalists"
    " runner-up runners-up longlisted"
)


def won_where_nominated(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[str]:
    """The nomination with which every best candidate states the prize that the claim says was
    won: "The Glass Orchard won the 2011 Harcourt Prize" against "…was shortlisted for the 2011
    Harcourt Prize". A summary inflates an award this way; a page that says both backs it."""
    at = [i for i, t in enumerate(claim.tokens) if t in _WON]
    if not at or _SHORT_OF_WINNING.intersection(claim.tokens):
        return []
    won = {stem(w) for w in _WON}
    content = (clause_stems(claim, claim.clauses[at[0]]) & set(claim.content)) - won
    if len(content) < 2:  # "Karim's debut, Low Tide, won the prize in 2018": the whole claim
        content = set(claim.content) - won
    tops = _best_stating(claim, cands[:near], content, least=2)
    if not tops:
        # A claim that joins the prize to more than one sentence states ("won the Mercury Prize
        # in 2002 for their second album"): the sentences that name the prize say it all.
        prize = _prize(claim, at[0])
        tops = [
            (c, prize)
            for c in cands[:near]
            if len(prize) >= 2 and prize <= stems_stated([c], claim)
        ]
        content = prize
    # "It won the prize after being shortlisted": any sentence that says it was won backs it
    if not tops or any(
        _WON.intersection(c.analysis.tokens)
        and len(content & stems_stated([c], claim)) >= 0.5 * len(content)
        for c in cands[:near]
    ):
        return []
    if all(_SHORT_OF_WINNING.intersection(c.analysis.tokens) for c, _ in tops):
        return sorted(_SHORT_OF_WINNING.intersection(tops[0][0].analysis.tokens))
    return []


_UNANIMOUS = words("unanimous unanimously unanimity")
# Words of a vote, one of which stands beside a tally: "voted 7-4", "approved by 31 votes to 18",
# "ruled 5-4".
_VOTING = frozenset(
    stem(w) for w in words("vote voted votes ruled passed approved rejected backed")
)


def split_vote(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[tuple[str, str]]:
    """The claim's "unanimously" where one of the best candidates gives the vote a tally with
    votes on both sides, in a clause that states more of the claim: "The council voted
    unanimously in favour of the scheme" against "The council voted 7-4 on Tuesday to approve
    the scheme". Each with the tally as written. A page that calls it unanimous anywhere backs
    it, "5-0" is unanimous, and another body's tally is another vote ("The committee voted 9-0
    …, and the full council approved it 12-3")."""
    said = [t for t in claim.tokens if t in _UNANIMOUS]
    if not said or any(_UNANIMOUS.intersection(c.analysis.tokens) for c in cands):
        return []
    rest = set(claim.content) - {stem(t) for t in said}
    for c in cands[:near]:
        a = c.analysis
        for tally, at in _tallies(a):
            if len(rest & clause_stems(a, a.clauses[at])) >= min(2, len(rest)):
                return [(said[0], tally)]
    return []


def _tallies(a: Analysis) -> Iterator[tuple[str, int]]:
    """Each vote's tally with votes against, as "7-4", and where it starts: two counts side by
    side ("7-4", "52 to 48", "31 votes to 18"), the first the larger, with a word of voting
    beside them; or a part of a body that voted ("Six of the nine members of the committee voted
    to hold": "6-3")."""
    # Written in words too ("Six of the nine"), but no year, no amount
    plain = [n for n in a.numbers if not (n.unit or n.is_year) and n.at >= 0]
    for n, m in zip(plain, plain[1:], strict=False):
        if a.tokens[n.at + 1 : m.at] not in (["of", "the"], ["of"]) or not 0 < n.value < m.value:
            continue
        after = range(m.at + 1, min(len(a.stems), m.at + 9))
        if any(a.stems[k] in _VOTING and a.clauses[k] == a.clauses[m.at] for k in after):
            yield f"{n.value:g}-{m.value - n.value:g}", n.at
    counts = [n for n in a.numbers if n.count and not n.unit and n.at >= 0 and n.value.is_integer()]
    for n, m in zip(counts, counts[1:], strict=False):
        between = a.tokens[n.at + 1 : m.at]
        if len(between) > 2 or not set(between) <= {"to", "votes", "against"}:
            continue
        if not 0 < m.value < n.value:
            continue
        if _VOTING.intersection(a.stems[max(0, n.at - 4) : m.at + 2]):
            yield f"{n.value:g}-{m.value:g}", n.at


_WHOLE = words("whole entire entirely wholly fully completely")
# A share of a thing: "half" and "partly" as they stand, the rest before "of" ("part of the
# money"), since "the third time" and "most people" share nothing out.
_HALF = words("half partly partially")
_SHARE_OF = words("part portion third quarter fraction most majority minority")


def whole_where_part(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5, share: float = 0.5
) -> list[tuple[str, str]]:
    """The claim's "whole" (or "entire", "fully"…) where one of the best candidates gives a share
    of it in a clause that states most of the rest of the claim: "The whole scheme is funded by a
    national active travel grant" against "Half of the money comes from a national active travel
    grant; the rest will be borrowed". Each with the share as written. `opposites` reads "half"
    against "whole" of the same word; a summary says the whole of what the page shares out in
    other words. A candidate that says the claim's word itself backs it."""
    said = [t for t in claim.tokens if t in _WHOLE]
    if not said or any(_WHOLE.intersection(c.analysis.tokens) for c in cands[:near]):
        return []
    rest = set(claim.content) - {stem(t) for t in said}
    if len(rest) < 2:
        return []
    for c in cands[:near]:
        a = c.analysis
        for i, t in enumerate(a.tokens):
            if not (t in _HALF or (t in _SHARE_OF and a.tokens[i + 1 : i + 2] == ["of"])):
                continue
            if len(rest & clause_stems(a, a.clauses[i])) >= max(2, share * len(rest)):
                return [(said[0], t)]
    return []


def _prize(claim: Analysis, at: int) -> set[str]:
    """The stems of what the claim says was won at token `at`, up to the next stopword: "Mercury
    Prize" of "won the Mercury Prize in 2002", "BAFTA" of "won the BAFTA for Best Debut Game"."""
    out: set[str] = set()
    for t, s in zip(claim.tokens[at + 1 :], claim.stems[at + 1 :], strict=True):
        if (t in DETERMINERS and not out) or t[:1].isdigit():  # "the", "the 2011"
            continue
        if t in STOPWORDS:
            break
        out.add(s)
    return out


# How far after a rise or a fall the amount it ends at may stand: "fell for the third month in a
# row in October, to 212,000".
_MOVE_REACH = 12


def _moves_to(a: Analysis) -> list[tuple[int, Number]]:
    """Each rise or fall `a` states with the amount it ends at ("rose 8% to 9.1 billion kroner";
    "Turnout was 63%, up from 58%"), as (the move's token, the amount); a move the text negates
    ends nowhere."""
    out = []
    for i, t in enumerate(a.tokens):
        if not is_move(t) or a.stems[i] in a.negates:
            continue
        for n in a.numbers:
            if not i < n.at <= i + _MOVE_REACH or a.tokens[n.at - 1] != "to":
                continue
            if not any(is_move(w) for w in a.tokens[i + 1 : n.at]):
                out.append((i, n))
            break
    for k, n in enumerate(a.numbers):
        if n.at < 0:
            continue
        end = a.numbers[k + 1].at if k + 1 < len(a.numbers) else len(a.tokens) - 1
        for j in range(n.at + 1, min(n.at + 4, end)):
            if a.tokens[j] in ("up", "down") and a.tokens[j + 1] == "from":
                out.append((j, n))
                break
    return out


def _direction(token: str) -> str:
    """ "rise" or "fall" for a word of a move, "up" and "down" of "up from 58%" among them."""
    return {"up": "rise", "down": "fall"}.get(token) or move_direction(token)


# Words that keep an amount where it was: "held its main interest rate at 4.25%", "revenue was
# broadly flat at £912 million".
_HOLDING = words(
    "held hold holds kept keep keeps unchanged remained stayed steady maintained flat stable"
)


def _held_at(a: Analysis) -> list[tuple[int, Number]]:
    """Each amount `a` says was kept where it was ("held … at 4.25%"), with the holding word's
    token: a holding word at most six tokens before "at" and the amount."""
    return [
        (j, n)
        for n in a.numbers
        if n.at >= 1 and a.tokens[n.at - 1] == "at"
        for j in range(max(0, n.at - 7), n.at - 1)
        if a.tokens[j] in _HOLDING and a.stems[j] not in a.negates
    ]


def _moved_to_the_same(claim: Analysis, i: int, cands: Sequence[Candidate]) -> bool:
    """Does a candidate move as the claim's word at `i` does, to the amount it moves to?"""
    ends = [n for j, n in _moves_to(claim) if j == i]
    mine = _direction(claim.tokens[i])
    return any(
        _direction(c.analysis.tokens[j]) == mine and numbers_match(n, m)
        for n in ends
        for c in cands
        for j, m in _moves_to(c.analysis)
    )


def moved_the_other_way(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5
) -> list[tuple[str, str]]:
    """The claim's rise or fall to an amount where one of the best candidates moves the other way
    to the same amount, or keeps it there, and none moves the claim's way: "The number of
    patients waiting more than 18 weeks rose to 212,000 in October" against "fell for the third
    month in a row in October, to 212,000", "Turnout fell to 63%" against "Turnout was 63%, up
    from 58%"; "cut its main interest rate to 4.25%" against "held its main interest rate at
    4.25%". The amount, and often both words, are on the page, and
    `opposed_here` finds no thing both are said of: what moved is too far from the word."""
    out: list[tuple[str, str]] = []
    for i, n in _moves_to(claim):
        mine = _direction(claim.tokens[i])
        found = [
            (rank, c.analysis.tokens[j])
            for rank, c in enumerate(cands)
            for j, m in _moves_to(c.analysis)
            if numbers_match(n, m)
        ]
        if _moved_to_the_same(claim, i, cands):
            continue
        word = next(
            (t for rank, t in found if rank < near and _direction(t) not in ("", mine)), None
        )
        if word is None:
            held = (
                c.analysis.tokens[j]
                for c in cands[:near]
                for j, m in _held_at(c.analysis)
                if numbers_match(n, m)
            )
            word = next(held, None)
        if word is not None:
            out.append((claim.tokens[i], word))
    return out


# "X is a …" says what X is; "X will be a …" and "X has been a …" say when
_COPULAS = _COPULA - {"be", "been", "being"}


_KIND_LEADS = words("a an")


def _kind(a: Analysis) -> tuple[set[str], list[str]] | None:
    """What a sentence says its subject is, when it says "X is a <kind>": the subject's content
    stems, and the content stems of the noun phrase after "a" or "an", its head noun last ("Raja
    Hindustani is a 1996 comedy film": {"raja", "hindustani"}, ["comedy", "film"]). None for a
    phrase of one word: "X is a film" names no kind to differ from."""
    toks, stems, content = a.tokens, a.stems, set(a.content)
    for i, t in enumerate(toks[:-2]):
        if t in _COPULAS and toks[i + 1] in _KIND_LEADS:
            break
    else:
        return None
    subject = {s for s in stems[:i] if s in content}
    phrase: list[str] = []
    rest = toks[i + 2 :]
    for j, (t, s) in enumerate(zip(rest, stems[i + 2 :], strict=True)):
        if t in STOPWORDS or not t[:1].isalnum():
            break
        # "a film directed by", "a band formed in": a participle after the noun ends the phrase
        after = rest[j + 1] if j + 1 < len(rest) else "."
        if phrase and t.endswith(("ed", "ing")) and (after in STOPWORDS or not after[:1].isalnum()):
            break
        if s in content:
            phrase.append(s)
    return (subject, phrase) if len(phrase) >= 2 else None


def kind_unstated(claim: Analysis, cands: Sequence[Candidate], near: int = 5) -> list[str]:
    """The words of "X is a <kind>" that no candidate states, where one of the best says what X is
    with the same head noun: "Raja Hindustani is a 1996 comedy film" against "Raja Hindustani is a
    1996 Indian romantic drama film". The page says what kind of film it is, and it is not that
    one; in a long claim one unstated word is often a paraphrase, but not the word that says what
    a thing is."""
    kind = _kind(claim)
    if kind is None or not kind[0]:
        return []
    subject, phrase = kind
    stated = stems_stated(cands, claim)
    unstated = [s for s in phrase[:-1] if s not in stated and s not in claim.names]
    if not unstated:
        return []
    for c in cands[:near]:
        theirs = _kind(c.analysis)
        if theirs is None or theirs[1][-1] != phrase[-1]:
            continue
        if subject <= stems_stated([c], claim) or opens_with_pronoun(c):
            return surface(claim, unstated)
    return []


# Who speaks: "I'm from Los Angeles, where they formed in 1985" tells of the speaker, whom no page
# is about, though every other word of it is on the page (a chat reply written in the page's
# words). Words that open a reply before it ("Me too, I…", "Same. I…") are passed over, and a
# speaker who frames a statement ("I'd recommend the Pro plan, which includes 2 TB", "I can
# confirm that…") is no speaker to back: what is framed is the claim.
_SPEAKER = frozenset(
    ["i", "i'm", "i’m", "i've", "i’ve", "i'd", "i’d", "i'll", "i’ll", "my", "mine"]
)


_BEFORE_A_SPEAKER = words("and but so also well actually same too me personally honestly")


# "I can confirm that", "I do know that", "I also think": the verb after its helpers
_SPEAKER_HELPERS = words(
    "would will can could must should do did does also just really actually personally"
    " definitely honestly"
)


_FRAMING = words(
    "think believe guess suppose know knew heard hear read learned learnt understand found find"
    " see saw noticed checked recommend suggest advise confirm say said mean note agree"
)


def about_the_speaker(claim: Analysis, cands: Sequence[Candidate]) -> list[str]:
    """The claim's "I" or "my" where the claim tells of the one who speaks ("I like Hound Dog by
    Jerry Leiber", "Mine is dense and white") and no candidate speaks so."""
    toks = claim.tokens
    i = 0
    while i < len(toks) and toks[i] in _BEFORE_A_SPEAKER:
        i += 1
    if i == len(toks) or toks[i] not in _SPEAKER:
        return []
    # "Mine safety improved" speaks of a mine
    after = toks[i + 1] if i + 1 < len(toks) else ""
    if toks[i] == "mine" and after not in _COPULAS:
        return []
    j = i + 1
    while j < len(toks) and toks[j] in _SPEAKER_HELPERS:
        j += 1
    if toks[i] not in ("my", "mine") and j < len(toks) and toks[j] in _FRAMING:
        return []
    if any(_SPEAKER.intersection(c.analysis.tokens) for c in cands):
        return []
    return [toks[i]]


# In the order `support.claim_features` asks them; one that finds anything sets `neg_mismatch`.
def role_of_another(claim: Analysis, cands: Sequence[Candidate]) -> list[tuple[str, str]]:
    """The word that says what someone is, written between "the" (or "her", "a") and their name
    ("the sculptor David Reyes"), where no candidate states it and one writes another word so
    before the same name, each with that word: ("sculptor", "painter") against "She lives with
    her husband, the painter David Reyes." A summary's "the critic" or "the actor" is the page's
    or it is wrong; a verb before a name ("married David Reyes") may be said in other words."""
    stated = stems_stated(cands, claim)
    out: list[tuple[str, str]] = []
    for i in range(2, len(claim.stems)):
        role = claim.stems[i - 1]
        if claim.stems[i] not in claim.names or claim.tokens[i - 2] not in DETERMINERS:
            continue
        if role in stated or role not in claim.lower or role not in claim.content:
            continue
        other = next((w for c in cands for w in _roles(c.analysis, claim.stems[i])), None)
        if other:
            out.append((claim.tokens[i - 1], other))
    return out


def _roles(a: Analysis, name: str) -> Iterator[str]:
    """The words `a` writes between a determiner and `name`, as written."""
    for j in range(2, len(a.stems)):
        role = a.stems[j - 1]
        if (
            a.stems[j] == name
            and a.tokens[j - 2] in DETERMINERS
            and role in a.lower & set(a.content)
        ):
            yield a.tokens[j - 1]


# Comparatives that favour what follows them over what follows "than".
_MORE_OR_LESS = words("more less fewer higher lower greater larger smaller bigger")


def compared_the_other_way(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5
) -> list[tuple[str, str]]:
    """(the claim's word, the page's) where the claim favours with a comparative what a best
    candidate stating most of it puts after its "than": "Migraine is more common in men" against
    "more common in women than in men". A claim that keeps the "than" is `swapped`'s to read."""
    toks = claim.tokens
    content = set(claim.content)
    if "than" in toks or len(content) < 3:
        return []
    stating = candidates_stating(claim, cands[:near], content, 0.6)
    for i, t in enumerate(toks):
        if t not in _MORE_OR_LESS:
            continue
        mine = {s for s in claim.stems[i + 1 : i + 6] if s in content}
        for c in stating:
            a = c.analysis
            for j in (j for j, u in enumerate(a.tokens) if u == t):
                than = next((k for k in range(j + 1, j + 8) if a.tokens[k : k + 1] == ["than"]), 0)
                if not than:
                    continue
                favoured = a.stems[j + 1 : than]
                turned = [s for s in a.stems[than + 1 : than + 5] if s in mine]
                instead = [
                    j + 1 + n
                    for n, s in enumerate(favoured)
                    if s not in content and s not in STOPWORDS and s.isalpha()
                ]
                if turned and not mine.intersection(favoured[-1:]) and instead:
                    word = toks[claim.stems.index(turned[0], i)]
                    return [(word, a.tokens[instead[-1]])]
    return []


_DEATHS = words("died dead killed deaths death die")
_HURT = words("injured injury injuries hurt hospital hospitalised hospitalized wounded")


def died_where_hurt(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5
) -> list[tuple[str, str]]:
    """(the claim's word of death, the page's of harm) where the claim counts deaths and every best
    candidate stating most of it gives the same count as hurt, and tells of no death: "Two people
    died when a roof collapsed" against "Two other people were taken to hospital with minor
    injuries after a roof collapsed". Only a count: a life's death against an injury years before
    is no contradiction."""
    if _denies_anything(claim):
        return []
    toks = claim.tokens
    counted = [
        (n, next(t for t in toks[n.at + 1 : n.at + 4] if t in _DEATHS))
        for n in claim.numbers
        if n.at >= 0 and not n.is_year and _DEATHS.intersection(toks[n.at + 1 : n.at + 4])
    ]
    if not counted:
        return []
    content = set(claim.content) - {stem(t) for t in _DEATHS}
    stating = candidates_stating(claim, cands[:near], content, 0.6)
    if len(content) < 2 or not stating:
        return []
    for n, death in counted:
        hurt = []
        for c in stating:
            a = c.analysis
            if _DEATHS.intersection(a.tokens):
                return []
            hurt += [
                t
                for m in a.numbers
                if numbers_match(n, m) and m.at >= 0
                for t in a.tokens[m.at + 1 : m.at + 10]
                if t in _HURT
            ][:1]
        if len(hurt) == len(stating):
            return [(death, hurt[0])]
    return []


# A claim's comparison, and what a study finds when it finds none.
_DIFFERING = words("lower higher more less fewer greater better worse smaller larger")
_NONE_FOUND = words("difference differences link association effect")


def difference_where_none(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5
) -> list[tuple[str, str]]:
    """(the claim's comparative, "no difference") where a best candidate stating half of the
    claim finds no difference in what the claim compares: "Long commuters also reported lower job
    satisfaction" against "the study found no difference in reported job satisfaction between
    the groups"."""
    if _denies_anything(claim):
        return []
    said = [t for t in claim.tokens if t in _DIFFERING]
    content = set(claim.content) - {stem(t) for t in _DIFFERING}
    if not said or len(content) < 3:
        return []
    for c in candidates_stating(claim, cands[:near], content, 0.5):
        toks, stems = c.analysis.tokens, c.analysis.stems
        for i in (i for i, t in enumerate(toks) if t == "no"):
            found = next(
                (j for j in range(i + 1, i + 4) if toks[j : j + 1] and toks[j] in _NONE_FOUND), 0
            )
            if found and len(content.intersection(stems[found + 1 : found + 7])) >= 2:
                return [(said[0], " ".join(toks[i : found + 1]))]
    return []


# Winning and losing, and standing above or below: converses ("United lost to City" is "City won",
# "Rovers are below City" is "City are above Rovers"), so read only of the same subject. Beating
# someone is winning, and being beaten losing ("Kovac beat Ruiz", "Kovac was beaten by Ruiz"); the
# nouns "defeat" and "beating" are left out, as what they say depends on who suffered them.
_PLACED = words("above below")
_HAVING = words("has have had")
_BEING_OR_HAVING = PASSIVE_AUXILIARIES | _HAVING
_BEATING = words("beat beats beaten defeated defeats")
_CONVERSES = (
    (words("win wins won winning") | _BEATING, words("lose loses lost losing")),
    (words("above"), words("below")),
)


def converse_of_the_subject(
    claim: Analysis, cands: Sequence[Candidate], near: int = 5
) -> list[tuple[str, str]]:
    """(the claim's word, the page's converse) where a best candidate stating most of the claim
    says the converse of the claim's subject, and none says the claim's word of it: "City have won
    their last three games" against "City, who are two divisions above Rovers, have now lost three
    games in a row"; "Labour won six seats" against "the Greens won 14 seats, while Labour lost
    six" (the Greens' win is theirs); "Kovac lost to Ruiz" against "Kovac beat Ruiz". Above and
    below also need the same thing after them ("above Rovers"), so "above average" is no "below"
    anything else."""
    if _denies_anything(claim) or not claim.subject:
        return []
    titles = claim.names | {claim.subject}  # "Lost is an American drama": a title is no loss
    for pair in _CONVERSES:
        for mine, theirs in (pair, pair[::-1]):
            at = [
                i
                for i in range(len(claim.tokens))
                if _means(claim, i, pair) == mine and claim.stems[i] not in titles
            ]
            if not at:
                continue
            content = set(claim.content) - {stem(t) for t in mine | theirs}
            if len(content) < 2:
                continue
            stating = candidates_stating(claim, cands[:near], content, 0.6)
            if any(_said_of_the_subject(claim, at[0], c.analysis, mine, pair) for c in stating):
                continue
            found = (_said_of_the_subject(claim, at[0], c.analysis, theirs, pair) for c in stating)
            said = next((t for t in found if t), "")
            if said:
                return [(claim.tokens[at[0]], said)]
    return []


def _means(
    text: Analysis, i: int, pair: tuple[frozenset[str], frozenset[str]]
) -> frozenset[str] | None:
    """Which of the pair the word at `i` says, read as written: "was beaten", "beaten" and
    "defeated by" lose; "to beat" says nothing yet ("hoped to beat Ruiz")."""
    one, other = pair
    tokens = text.tokens
    t = tokens[i]
    if t in other:
        return other
    if t not in one:
        return None
    if t not in _BEATING:
        return one
    before = tokens[i - 1] if i else ""
    after = tokens[i + 1] if i + 1 < len(tokens) else ""
    if before == "to":
        return None
    if before in PASSIVE_AUXILIARIES or after == "by" or (t == "beaten" and before not in _HAVING):
        return other
    return one


def _said_of_the_subject(
    claim: Analysis,
    at: int,
    text: Analysis,
    which: frozenset[str],
    pair: tuple[frozenset[str], frozenset[str]],
) -> str:
    """The word of the pair that `text` states plainly of the claim's subject and that says
    `which` of it; for a word with an object ("above Rovers"), only with the claim's next content
    word after it. Beating someone says the converse of whoever it names after it: "Jones
    defeated Smith" is Smith's loss, "Ruiz, beaten by Kovac" Kovac's win."""
    after = next((s for s in claim.stems[at + 1 :] if s in claim.content), "")
    for j, t in enumerate(text.tokens):
        meant = _means(text, j, pair)
        if meant is None or text.stems[j] in text.negates | text.names:
            continue
        if claim.subject not in _doers(text, j):
            if t not in _BEATING or claim.subject not in _beaten_party(text, j):
                continue
            meant = pair[1] if meant == pair[0] else pair[0]  # the other party's side
        if meant != which:
            continue
        if t in _PLACED:
            following = next((s for s in text.stems[j + 1 :] if s in text.content), "")
            if not after or following != after:
                continue
        return t
    return ""


def _beaten_party(text: Analysis, j: int) -> set[str]:
    """The names right after the word at `j`, or after its "by" ("defeated twice by Smith"): who
    was beaten, or who beat."""
    known = text.names | {text.subject}
    near = text.tokens[j + 1 : j + 3]
    k = j + 2 + near.index("by") if "by" in near else j + 1
    found: set[str] = set()
    for s in text.stems[k : k + 4]:
        if s not in known:
            break
        found.add(s)
    return found


def _doers(text: Analysis, j: int) -> set[str]:
    """Who the word at `j` is said of: the names and the subject its clause gives before it, else
    those the sentence opens with, before its first verb of being or having ("Council leader Amy
    Roth, of Labour, lost her seat"; "Low Tide was shortlisted for the Mercury Prize but lost" is
    said of Low Tide, not of the prize)."""
    known = text.names | {text.subject}
    clauses = text.clauses or (0,) * len(text.tokens)
    mine = {s for i, s in enumerate(text.stems[:j]) if clauses[i] == clauses[j] and s in known}
    if mine or clauses[j] == 0:
        return mine
    opening: set[str] = set()
    for i, (t, s) in enumerate(zip(text.tokens[:j], text.stems, strict=False)):
        if clauses[i] != 0 or t in _BEING_OR_HAVING:
            break
        if s in known:
            opening.add(s)
    return opening


CONTRARY_RULES: tuple[Rule, ...] = (
    negated_against,
    affirmed_against,
    negated_for_another,
    opposed_for_another,
    excluded,
    opposed,
    opposed_here,
    swapped,
    compared_the_other_way,
    died_where_hurt,
    difference_where_none,
    converse_of_the_subject,
    hedged,
    done_where_to_come,
    hedged_amount,
    denied_outright,
    universal_unstated,
    ranked_alone,
    roles_swapped,
    won_where_nominated,
    split_vote,
    whole_where_part,
    moved_the_other_way,
    said_by_another,
    priced,
    kind_unstated,
    about_the_speaker,
    role_of_another,
)
