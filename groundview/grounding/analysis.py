"""The lexical view of one piece of text (`analyse`): its tokens and stems, content words,
numbers, names, negations, subject and clauses, from which coverage, retrieval and the rules that
cap a claim are built.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .lexical import (
    CJK_RE,
    EXCEED,
    MONTHS,
    NEGATIONS,
    NUMBER_WORDS,
    STOPWORDS,
    TOKEN_RE,
    normalise,
    stem,
    tokenize,
    words,
)
from .numbers import (
    Number,
    number_stem,
    numeral_positions,
    read_numbers,
    signed_tokens,
    unit_symbol_positions,
)
from .weekdays import NO_DAYS, Days, read_days


@dataclass
class Analysis:
    """The lexical view of one piece of text."""

    tokens: list[str]  # lowercase surface tokens
    stems: list[str]  # crude stems of `tokens`
    content: list[str]  # stems of non-stopword, non-number tokens (order kept, duplicates kept)
    numbers: list[Number]
    names: set[str] = field(
        default_factory=set
    )  # lowercase capitalised words not at sentence start
    negated: bool = False
    # Content stems a negation applies to: "does not explain the fees" -> {"explain"}, "there are no
    # available discounts" -> {"available", "discount"}.
    negates: frozenset[str] = frozenset()
    # The stem of the first capitalised word that is not a stopword, sentence start included: what
    # the text is most likely about ("Jupiter has 95 moons"), "" when nothing is capitalised.
    subject: str = ""
    # Words of three to six capitals ("KBE", "K.B.E." read as "KBE"), lowercase: they may abbreviate
    # a name the other text spells out.
    acronyms: frozenset[str] = frozenset()
    # Runs of capitalised words: the run's name stems, and the initials that abbreviate it ("kbe"
    # among those of "Knight Commander of the Order of the British Empire").
    runs: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()
    # Per token, the number of the clause it is in, counted from 0: a comma, semicolon, colon or
    # dash, or "and", "or", "but", "while", "whereas" (not between two numbers), opens a new one.
    clauses: tuple[int, ...] = ()
    # Codes written as one word of letters then digits, as written: "FITNESS15", "BA117", "SKU-1234".
    codes: tuple[str, ...] = ()
    # Stems written all in lower case where a capital would have marked a name ("iOS" is none):
    # past the first word,
    # and all of German's, which capitalises every noun (`candidates.written_lowercase`). A capital
    # after a colon is no lower case: "Plan: Pro", a table row read with its header.
    lower: frozenset[str] = frozenset()
    # The days of the week it says, a span's every day ("Monday to Friday" is Tuesday too).
    days: Days = NO_DAYS


# Words that negate what follows beside NEGATIONS ("non-exclusive", "fails to explain", "lacks a").
_NEGATION_CUES = NEGATIONS | words("non fail fails failed unable lack lacks lacked")
# The other languages the UI shows negate with words of their own (French "ne … pas" with the
# "pas" before what it negates, German "nicht" before its adjective or participle).
_FOREIGN_NOUN_NEGATIONS = words(
    "kein keine keinen keinem keiner aucun aucune ningún ninguna ninguno nenhum nenhuma"
)
_FOREIGN_NEGATIONS = _FOREIGN_NOUN_NEGATIONS | words("não nunca nicht nie niemals pas jamais")
_NEGATION_CUES |= _FOREIGN_NEGATIONS
# Cues that take a noun phrase, so the word after the first one is negated as well ("no tie votes"),
# as a negated "have" of ownership does ("does not have tie votes", `_owns`).
_NOUN_NEGATIONS = words("no non none without lack lacks lacked") | _FOREIGN_NOUN_NEGATIONS
_DO = frozenset(["do", "does", "did"])
_HAVE = frozenset(["have", "has", "had"])


def _owns(tokens: Sequence[str], i: int, j: int) -> bool:
    """Is the cue at `i` a negated "have" of ownership, whose object starts at `j`? "does not have a
    solid surface", "didn't have children", "has not had any success" are; "could not have
    predicted strong sales" is a past tense, "does not have to pay" an obligation, and "did not
    have enough votes" still had votes."""
    cue = tokens[i].replace("’", "'")
    before = tokens[i - 1] if i else ""
    after = tokens[i + 1] if i + 1 < j else ""
    if "to" in tokens[i + 1 : j] or tokens[j] == "enough":
        return False
    if cue in ("don't", "doesn't", "didn't") or (cue in ("not", "never") and before in _DO):
        return after in ("have", "has")
    if cue in ("hasn't", "haven't", "hadn't") or (cue in ("not", "never") and before in _HAVE):
        return after == "had"
    return False


# "not only", "no doubt", "no matter", "no less": idioms, not negations.
_NOT_NEGATING = words("only just merely doubt matter less")
_BOUNDS = words("more fewer later earlier greater higher lower longer shorter")
# "fail" denies only what it fails to do: "a failed request" is a request that was made
FAIL = words("fail fails failed")


_YET_AUXILIARIES = _HAVE | frozenset(["is", "are", "was", "were"])


def _yet_to(tokens: Sequence[str], i: int) -> bool:
    """Is token `i` the "yet" of "has yet to", "is yet to"? "Brandt has yet to drop a set" says
    what "Brandt has not dropped a set" says."""
    return (
        tokens[i] == "yet"
        and tokens[i + 1 : i + 2] == ["to"]
        and i > 0
        and tokens[i - 1] in _YET_AUXILIARIES
    )


def is_negation(token: str) -> bool:
    return token in _NEGATION_CUES or token.endswith(("n't", "n’t"))


def _negated_stems(
    tokens: list[str],
    stems: list[str],
    clauses: Sequence[int] = (),
    *,
    portuguese: bool = False,
    spanish: bool = False,
) -> frozenset[str]:
    """The content stems in a negation's scope: the first content word within six tokens after the
    cue (an "-ly" adverb is skipped: "not currently insured" negates "insured"), and the word right
    after it for a cue that negates a noun phrase, as "does not have" does: "does not have a solid
    surface" is "has no solid surface" and "without a solid surface". A negation in a condition
    states nothing: "they expire if not used by 31 March" is what "they must be used by 31 March"
    says, so a cue after "if" or "unless" in its clause (`Analysis.clauses`) is passed over."""
    out: set[str] = set()

    def plain(t: str) -> bool:
        if spanish and t in _SPANISH_FUNCTION_WORDS:
            return False  # "no es apta" denies "apta"
        return t not in STOPWORDS and not is_negation(t) and not t[0].isdigit()

    for i, t in enumerate(tokens):
        idiom = i + 1 < len(tokens) and tokens[i + 1] in _NOT_NEGATING
        if not (_yet_to(tokens, i) or (is_negation(t) and not idiom)):
            continue
        if portuguese and t == "no":  # "no fim de 1896": "in the", not "not"
            continue
        if tokens[i + 1 : i + 3] == ["help", "but"]:  # "I cannot help but notice": no negation
            continue
        if "until" in tokens[i + 1 : i + 5]:  # "she did not win it until 1998": she won it
            continue
        # "no more than six tablets" bounds a number and denies nothing
        if tokens[i + 1 : i + 2] and tokens[i + 1] in _BOUNDS and tokens[i + 2 : i + 3] == ["than"]:
            continue
        if tokens[i + 1 : i + 2] and tokens[i + 1] in EXCEED:  # "must not exceed 7 kg"
            continue
        # "a failed first attempt" was an attempt; "failed to reach orbit" did not reach it
        if t in FAIL and tokens[i + 1 : i + 2] != ["to"]:
            continue
        if clauses and _in_condition(tokens, clauses, i):
            continue
        if _names_an_act(tokens, clauses, i):
            continue
        if t in ("none", "neither") and tokens[i + 1 : i + 2] == ["of"]:
            verb = _verb_of_group(tokens, i + 2, plain)
            if verb is not None:
                out.add(stems[verb])
            continue
        # "no longer" negates what follows it, as "not" does: "no longer have access"
        no_longer = t == "no" and tokens[i + 1 : i + 2] == ["longer"]
        for j in range(i + 2 if no_longer else i + 1, min(len(tokens), i + 7)):
            u = tokens[j]
            # "No, refunds take 10 days." answers a question (a help page's, a chat's): the
            # opening "No," or "Not really," ends its clause and denies nothing after it.
            if i == 0 and clauses and clauses[j] != clauses[i]:
                break
            # "the grid did not fail": a "fail" that fails to do nothing is the verb denied
            failing = u in FAIL and tokens[j + 1 : j + 2] != ["to"]
            if not (plain(u) or failing) or (u.endswith("ly") and len(u) > 4):
                continue
            out.add(stems[j])
            # "will not be able to cross" denies the crossing too
            after = tokens[j + 1 : j + 3]
            if u in _ABLE and len(after) == 2 and after[0] == "to" and plain(after[1]):
                out.add(stems[j + 2])
            # "the findings did not show that the pesticide was more harmful" denies the harm,
            # as "no evidence that it was effective" denies the effect
            if u in _SHOWING and after[:1] == ["that"]:
                verb = _verb_of_group(tokens, j + 1, plain)
                if verb is not None:
                    out.add(stems[verb])
            owned = no_longer and tokens[i + 2] in _HAVE
            # Spanish "no" negates a verb or an adjective ("no es apta para el consumo"): the
            # word after it is no noun it denies.
            nouns = t in _NOUN_NEGATIONS and not no_longer and not (spanish and t == "no")
            noun_phrase = nouns or owned or _owns(tokens, i, j)
            # "still without power, mostly in rural areas": an adverb after the noun is no part
            # of what is denied
            nxt = tokens[j + 1] if j + 1 < len(tokens) else ""
            if noun_phrase and nxt and plain(nxt) and not (nxt.endswith("ly") and len(nxt) > 4):
                out.add(stems[j + 1])
            if (
                u in _ON_OFFER
                and i > 0
                and tokens[i - 1] in _COPULAS
                # "not available without a prescription" is available with one
                and not _EXCEPT.intersection(tokens[j + 1 :])
            ):
                head = _subject_head(tokens, i - 1, plain)
                if head is not None:
                    out.add(stems[head])
            break
    # "was nearly killed", "almost won": what nearly happened did not
    for i in range(len(tokens) - 1):
        done = tokens[i + 1]
        if tokens[i] in _NEARLY and (done.endswith("ed") or done in _NEARLY_DONE) and plain(done):
            out.add(stems[i + 1])
    return frozenset(out)


_NEARLY = frozenset(["nearly", "almost"])
# Irregular forms of what nearly happens to someone or something: "was nearly sunk", "almost won".
_NEARLY_DONE = words(
    "won lost sank sunk broke broken fell fallen hit caught beat beaten ran struck shot froze"
    " frozen tore torn threw thrown blew blown"
)
_ABLE = frozenset(["able", "allowed", "permitted"])
# What a finding shows, whose "that" clause a negation denies with it.
_SHOWING = words(
    "show shows showed shown prove proves proved proven demonstrate demonstrates demonstrated"
    " suggest suggests suggested indicate indicates indicated establish established confirm"
    " confirmed find found mean evidence proof"
)
_CONDITIONS = frozenset(["if", "unless"])
AUXILIARIES = words(
    "is are was were has have had will would can could may might should must do does did"
)


def _verb_of_group(tokens: Sequence[str], start: int, plain: Callable[[str], bool]) -> int | None:
    """The verb that "none of" the group from `start` on is denied: "None of 150 untrained bees
    opened the box" denies the opening, not the bees; "none of the money was spent" the spending.
    None when no verb shows within six tokens."""
    for j in range(start + 1, min(len(tokens), start + 7)):
        u = tokens[j]
        if u in AUXILIARIES:
            return next(
                (k for k in range(j + 1, min(len(tokens), j + 4)) if plain(tokens[k])), None
            )
        if u.endswith("ed") and plain(u) and plain(tokens[j - 1]):
            return j
    return None


def _in_condition(tokens: Sequence[str], clauses: Sequence[int], i: int) -> bool:
    """Is the negation cue at `i` in a condition: "if" or "unless" before it in its clause?"""
    start = i
    while start > 0 and clauses[start - 1] == clauses[i]:
        start -= 1
    return not _CONDITIONS.isdisjoint(tokens[start:i])


# What a sentence opening "Not" and a gerund goes on to say of the act it names: "Not returning a
# fob costs £15", "Not cancelling before the renewal date means you are charged".
_SAID_OF_AN_ACT = words(
    "is are was were costs cost means meant incurs incur results leads voids will may can could"
    " might counts"
)


def _names_an_act(tokens: Sequence[str], clauses: Sequence[int], i: int) -> bool:
    """Is the "not" at `i` the start of a gerund that is the sentence's subject ("Not returning an
    access fob costs £15")? Such an act is a condition, as "if you do not return it" is, and
    states nothing. "Not knowing the answer, he guessed" does state that he did not know, and
    "criticised for not paying its suppliers" that it did not pay: only the subject is read so."""
    if i != 0 or tokens[0] != "not" or len(tokens) < 3:
        return False
    if not (tokens[1].endswith("ing") and len(tokens[1]) > 5):
        return False
    first = clauses[0] if clauses else 0
    rest = [t for k, t in enumerate(tokens[2:], 2) if not clauses or clauses[k] == first]
    return not _SAID_OF_AN_ACT.isdisjoint(rest)


# "Refunds for monthly plans are not available" says there are no refunds for them, as "no
# refunds" would; "Annual plans are not refundable" says nothing against there being annual plans.
_ON_OFFER = words("available offered possible permitted allowed provided supported")
_COPULAS = words("is are was were be been")
_OF = words("for of on in with at to from by")
_EXCEPT = words("without unless except until outside but")
_CLAUSE_OPENERS = words("and or but which who that than to")


def _subject_head(tokens: Sequence[str], copula: int, plain: Callable[[str], bool]) -> int | None:
    """The index of the head noun of the subject right before a copula: "refunds" of "Refunds for
    monthly plans are…", "delivery" of "Same-day delivery is…"; None when there is none ("…tried
    to kill himself more than once, but was not allowed")."""
    start = copula
    while start > 0 and start > copula - 5 and tokens[start - 1] not in _CLAUSE_OPENERS:
        start -= 1
    head = None
    for k in range(start, copula):
        if tokens[k] in _OF and head is not None:
            break
        if plain(tokens[k]):
            head = k
    return head


# Lowercase words a name may hold ("Bachelor of Arts", "Order of the British Empire").
_NAME_JOINERS = frozenset(["of", "the", "and", "for", "de", "del", "la", "le", "von", "van"])
# Three letters at least: two-letter initials are too often someone's ("Marloes Arts" is no "MA").
_ACRONYM = re.compile(r"[A-Z]{3,6}")
_POSSESSIVE = re.compile(r"['’]s$")


def _initials(words_: Sequence[str]) -> frozenset[str]:
    """What abbreviates a run of capitalised words: its first and last initials, with any of those
    between, three letters at least ("Knight Commander of the Order of the British Empire": "kcobe",
    "kbe", "kce", ...)."""
    letters = [w[0].lower() for w in words_]
    middle = letters[1:-1]
    out: set[str] = set()
    for mask in range(1, 1 << len(middle)):  # at least one middle initial: three letters
        picked = "".join(ch for i, ch in enumerate(middle) if mask >> i & 1)
        out.add(letters[0] + picked + letters[-1])
    return frozenset(out)


def _name_runs(
    tokens_raw: Sequence[str], is_name: Sequence[bool]
) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Runs of three to six capitalised words, lowercase joiners allowed inside ("Asian Pacific
    American Network of Oregon")."""
    runs: list[tuple[frozenset[str], frozenset[str]]] = []
    current: list[str] = []

    def close() -> None:
        if 3 <= len(current) <= 6:
            runs.append((frozenset(stem(w) for w in current), _initials(current)))
        current.clear()

    for i, tok in enumerate(tokens_raw):
        if is_name[i] and tok.isalpha() and not tok.isupper():
            current.append(tok)
        elif not (current and tok in _NAME_JOINERS):
            close()
    close()
    return tuple(runs)


_AFTER_COLON = re.compile(r"[:：]\s*")


def _may_the_month(tokens_raw: Sequence[str], after_colon: Sequence[bool]) -> set[int]:
    """The tokens that are "May" the month (or the name, "Theresa May"), not the modal: capitalised
    inside a sentence, or opening one before a day or a year ("May 4, 1935 was…"). Read as the
    stopword, "born on May 4, 1935" had stated no month against "born 4 April 1935"."""
    out: set[int] = set()
    for i, t in enumerate(tokens_raw):
        if t != "May":
            continue
        opens = i == 0 or after_colon[i]
        if not opens or (i + 1 < len(tokens_raw) and tokens_raw[i + 1][:1].isdigit()):
            out.add(i)
    return out


def _after_colon(text: str, count: int) -> list[bool]:
    """Per token of `tokenize(text)`: does it open what follows a colon ("Migration plan: Creating
    a plan…")? A capital there starts a sentence and names nothing."""
    if ":" not in text and "：" not in text:  # most sentences: `count` tokens, none after a colon
        return [False] * count
    starts = {m.end() for m in _AFTER_COLON.finditer(text)}
    flags: list[bool] = []
    for m in TOKEN_RE.finditer(text):
        opens = m.start() in starts
        flags.extend([opens] * (len(m.group(0)) if CJK_RE.search(m.group(0)) else 1))
    return flags


# Words only Portuguese writes often ("em", not Spanish "en"; "não", not "no").
_PORTUGUESE_WORDS = words(
    "em não são também pelo pela pelos pelas ao aos você isso uma foi fica às é está"
)
# Words only Spanish writes often ("el", "los", "del", not Portuguese "do", "os").
_SPANISH_WORDS = words("el los del las una por para está es son también pero muy")
_SPANISH_FUNCTION_WORDS = words(
    "es son está están era eran fue fueron ser estar se le les lo la los las el un una de del en"
    " con para por que ha han hay"
)
# Words only German writes often; "die", "was", "also" and "in" are English too.
_GERMAN_WORDS = words(
    "der das und ist nicht mit für auf dem den eine einer einen wird sind werden auch oder bei nach"
    " zum zur vom im ab bis als mehr sich wurde wurden haben hatte durch noch nur sehr über kann"
    " seit wie zwischen gegen ohne ein einem eines neue neuen neuer neues rund etwa ungefähr sie zu"
    " weniger"
)


def _subject(tokens_raw: Sequence[str], tokens: Sequence[str], clauses: Sequence[int]) -> str:
    """The stem of the first capitalised word of the first clause with a word in it ("In 2016,
    the Cubs won" is about the Cubs), "" when that clause has none: "The club, second-bottom of
    the Championship, has won…" is about no championship."""
    first = next(
        (clauses[i] for i, t in enumerate(tokens) if t not in STOPWORDS and t[0].isalpha()), None
    )
    for i, (t, k) in enumerate(zip(tokens_raw, clauses, strict=True)):
        if k != first:
            continue
        if t[0].isupper() and t.lower() not in STOPWORDS and t.lower() not in MONTHS:
            return stem(t)
        # "The win will lift her to 45th and makes her the first Nigerian…" is about the win: a
        # common noun before the clause's verb is its subject, and no name after it.
        if (
            t[0].islower()
            and t not in STOPWORDS
            and tokens[i + 1 : i + 2]
            and (tokens[i + 1] in AUXILIARIES)
        ):
            return ""
    return ""


def _stems_of(tokens: Sequence[str]) -> list[str]:
    return [number_stem(t) if t[0].isdigit() else stem(t) for t in tokens]


def index_stems(text: str) -> list[str]:
    """`analyse(text).stems` without the rest of the analysis: what retrieval indexes. A large
    request's facts hold some 20,000 sentences, of which its claims' candidates are a few
    thousand at most; only those need the whole analysis."""
    return _stems_of([t.lower() for t in tokenize(normalise(text))])


# A word that opens with a letter and holds at least two digits: a promo code, a flight, a model, an
# error code. Its digits alone are read as a number, and its letters alone as a word the page may
# use elsewhere ("fitness"), so neither tells "FITNESS15" from the page's "ELITEFIT15". A number
# with its unit after it ("15kg", "3D", "1990s") opens with a digit and is none; a period ("FY2024",
# "Q3") is often spelled out ("fiscal 2024") and is none either.
# The lookahead skips, in C, the words with no digit, which are most of a page.
_CODE = re.compile(
    r"(?<![\w-])(?=[A-Za-z][A-Za-z0-9-]*\d)[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*(?![\w-])"
)
_CODE_PARTS = re.compile(r"\d+|[A-Za-z]+")
_CODE_PERIODS = words("fy cy q h ww")
_COUNTED = re.compile(r"\d+[a-z]+")


def code_parts(code: str) -> tuple[str, ...]:
    """A code's letters and digits, lowercase, as the tokens read them: "SKU-1234" -> ("sku",
    "1234"), the same for "sku1234" and "SKU 1234"."""
    return tuple(p.lower() for p in _CODE_PARTS.findall(code))


def codes_in(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for match in _CODE.finditer(text):
        code = match.group()
        if sum(ch.isdigit() for ch in code) < 2 or code_parts(code)[0] in _CODE_PERIODS:
            continue
        if any(_COUNTED.fullmatch(part) for part in code.split("-")):
            continue  # "mid-1950s", "Su-25s": a decade, a plural, read as words and numbers
        if code not in out:
            out.append(code)
    return tuple(out)


def analyse(text: str) -> Analysis:
    normalised = normalise(text)
    tokens_raw, signs, clauses = signed_tokens(normalised)
    tokens = [t.lower() for t in tokens_raw]
    stems = _stems_of(tokens)
    numbers = read_numbers(normalised, tokens_raw, signs, clauses, tokens, stems)
    numeral = numeral_positions(tokens)
    # A unit's symbol is no name either: "447 GW" names nothing a page must mention.
    unit_symbols = unit_symbol_positions(tokens)
    # German capitalises every noun: there a capital marks no name. Read before `normalise`, which
    # writes "im Monat" as "a month".
    german = len(_GERMAN_WORDS.intersection(re.findall(r"\w+", text.lower()))) >= 2
    after_colon = _after_colon(normalised, len(tokens_raw))
    month = _may_the_month(tokens_raw, after_colon)
    content = [
        s
        for i, (t, s) in enumerate(zip(tokens, stems, strict=True))
        if (t not in STOPWORDS or i in month)
        and i not in numeral
        and not t[0].isdigit()
        and t not in NUMBER_WORDS
        and (len(t) > 1 or CJK_RE.match(t) is not None)
    ]
    is_name = [
        t[0].isupper()
        and (tokens[i] not in STOPWORDS or i in month)
        and i not in numeral
        and i not in unit_symbols
        and ((i > 0 and not after_colon[i] and not german) or (len(t) > 1 and t.isupper()))
        for i, t in enumerate(tokens_raw)
    ]
    names = {stem(t) for t, name in zip(tokens_raw, is_name, strict=True) if name}
    # Portuguese "no" is "in the"; it negates with "não".
    portuguese = len(_PORTUGUESE_WORDS.intersection(tokens)) >= 2
    negated = any(
        (t in NEGATIONS and not (portuguese and t == "no"))
        or t in _FOREIGN_NEGATIONS
        or t.endswith("n't")
        for t in tokens
    )
    subject = _subject(tokens_raw, tokens, clauses)
    spanish = len(_SPANISH_WORDS.intersection(tokens)) >= 2
    negates = _negated_stems(tokens, stems, clauses, portuguese=portuguese, spanish=spanish)
    return Analysis(
        tokens,
        stems,
        content,
        numbers,
        names,
        negated=negated,
        subject=subject,
        negates=negates,
        acronyms=frozenset(
            t.lower() for t in (_POSSESSIVE.sub("", t) for t in tokens_raw) if _ACRONYM.fullmatch(t)
        ),
        runs=_name_runs(tokens_raw, is_name),
        clauses=tuple(clauses),
        codes=codes_in(text) if any(ch.isdigit() for ch in text) else (),
        lower=frozenset(
            s
            for i, (t, s) in enumerate(zip(tokens_raw, stems, strict=True))
            if i and (german or t.islower())
        ),
        days=read_days(normalised),
    )
