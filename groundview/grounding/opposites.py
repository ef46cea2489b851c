"""Words that state the opposite of another word: "inflexible" / "flexible", "increase" / "decrease".

Soft coverage matches words by their contextual embeddings, and an antonym sits right beside its word
there: "The plan is inflexible" scores as well backed by "The plan is flexible" as the claim that says
"flexible". So a claim word no candidate states, whose opposite a candidate does state, is a claim that
contradicts its evidence (`contrary.opposed`). Two sources of opposites, both general English and
fitted to no data set (SummEdits' antonym edits were read before the list was written; the project
README says what that means for its numbers):

* a negative prefix or suffix: un-, in- (im-, il-, ir-), dis-, non-, and -less against -ful;
* a short list of common antonym pairs.

Everything here works on `key`s: stems (`lexical.stem`) without a final "e", since the stemmer keeps
it in "improve" and drops it with the ending of "improved".
"""

from __future__ import annotations

import functools
import re

from .lexical import stem, words

# in- and its assimilated forms make opposites of adjectives ("inactive", "impossible", "illegal",
# "irregular"), but as often begin words whose rest is another word ("install", "invent", "import"):
# the rest must look like an adjective. Not "-ed": "informed", "improved" and "installed" are no
# opposites of "formed", "proved" and "stalled".
_LATIN_PREFIX = re.compile(r"^(?:in|im|il|ir)(?=[a-z]{4,}$)")
_ADJECTIVE_END = re.compile(r"(?:ible|able|ent|ant|ive|al|ate|ar|ete|ect|ure|ite|id|ous|ic)$")
_PLAIN_PREFIX = re.compile(r"^(?:un|dis|non-?)(?=[a-z]{4,}$)")
# Words whose rest is an unrelated word ("discount" is not the opposite of "count").
_NOT_OPPOSITES = words(
    "discover discount display dispatch dissent dispose disease dismiss distract discharge disclose"
    " dissolve dispense disperse distribute dispute discuss disposition discourse disgrace distress"
    " instate inmate intent invent indent"
)

# Common English antonyms, as any thesaurus gives them. Left out: converses, where one fact can be
# said with either word ("A defeated B" / "B lost to A", "older" / "younger", "husband" / "wife",
# "buy" / "sell", "above" / "below", "import" / "export", "gain" / "lose", "input" / "output"),
# words with a frequent other sense ("fall" the season, "left" the verb, "high school", "General"
# the rank, "first" and "last" (opposed below, of the same thing), "top", "open" of "opened" against
# "closed", which may be two events, "morning" and "evening", which name newspapers and shows), and
# words whose stem another common word shares ("later" is "late", "no longer" has "long", "lower"
# is "low", "partly" is "part", "complete" is "completed", "summer" stems as "sum", "inner" as
# "inn").
_PAIRS = """
increase decrease | increase reduce | grow shrink | maximum minimum | largest smallest
highest lowest | best worst | oldest youngest | cheap expensive | easy difficult | simple complex
simple complicated | basic advanced | accept reject | approve reject | allow prohibit | allow forbid
permit prohibit | include exclude | internal external | public private | manual automatic
manual automated | success failure | succeed fail | positive negative | strong weak | fast slow
quick slow | permanent temporary | mandatory optional | required optional | guilty innocent
rural urban | domestic foreign | domestic international | true false | present absent | alive dead
majority minority | profit loss | improve worsen | improve deteriorate | full empty | ancient modern
support oppose | confirm deny | praise criticize | praise criticise | acquit convict
good bad | online offline | minimize maximize | minimise maximise | minimal maximal | large small | big small
wide narrow | thick thin | deep shallow | hot cold | wet dry | safe dangerous | common rare
rich poor | happy sad | love hate | add remove | inside outside | male female
arrive depart | enter exit | expand shrink | high low | ahead behind
"""
# Opposites only when said of the same thing (`contrary.opposed_here`): a page that mentions "North
# America" says nothing against "born in South Africa", nor "the second half of 2004" against "her
# entire career", but "half of the building" does against "the whole building". So too a rise and
# a fall, which markets report of the same thing ("Shares rose 3%" against "Shares fell 3%"), while
# "fell" elsewhere is a felled tree or a fallen city; and two multiples ("had tripled since 2015"
# against "has doubled since 2015"), and the medals ("won Olympic bronze in the 200 metres"
# against "won Olympic silver in the 200 metres"), whose metals are said of much else. Where a
# thing stands ("stop making onshore turbines" against "offshore turbines"), and what befell people
# ("Two cyclists were seriously injured" against "were killed"), and what a rule lets through and
# what it bans ("Electric cars … will still be allowed" against "will also be banned"), which a
# report says of many things and people at once.
_PAIRS_OF_A_THING = """
east west | north south | eastern western | northern southern | northeast southwest
northwest southeast | partial full | partially fully | half whole | half entire | earliest latest
upstream downstream | inbound outbound | weekday weekend | asleep awake
onshore offshore | indoor outdoor | killed injured
allowed banned | permitted banned
man woman | men women | boy girl | son daughter | father mother | brother sister | uncle aunt
nephew niece
rise fall | rose fell | rising falling | risen fallen | rise drop | rose dropped | rise decline
rose declined | gain decline | gained declined | climb fall | climbed fell
raise lower | raise cut | hike cut | up down | before after | first last
halve double | halved doubled | double triple | doubled tripled | double quadruple
doubled quadrupled | triple quadruple | tripled quadrupled
gold silver | gold bronze | silver bronze
"""
# Every word of a rise against every word of a fall, said of the same thing: "revenue rose 1% year
# over year" against "down 1% year over year" is a pair no thesaurus lists. Not "gain" / "lose",
# converses (above), nor "higher" / "lower", whose stems are "high" and "low"; not "boost", a
# noun as often ("productivity boost software" against "cutting-edge … software"), nor "up", which
# ends as many verbs ("sign up") and keeps its one opposite, "down".
_RISES = "rise rose risen rising increase increased grow grew grown gain gained climb climbed jump"
_RISES += " jumped surge surged soar soared raise raised hike hiked"
_FALLS = "fall fell fallen falling decrease decreased decline declined drop dropped shrink shrank"
_FALLS += " slide slid slip slipped plunge plunged tumble tumbled sink sank dip dipped cut down"
# Stopwords (and "first", a number) that still state a direction, so may be opposed when said of
# the same thing: "were down 3% on Monday" against "were up 3% on Monday", "apply within 30 days
# after the leave starts" against "at least 30 days before the leave starts", "the first 3 months"
# against "the last 3 months".
DIRECTIONS = frozenset(["up", "down", "before", "after", "first"])
# The points of the compass: a claim may give one to each of two things ("Arcadius ruled the East,
# and Honorius the West").
COMPASS = words(
    "east west north south eastern western northern southern northeast southwest northwest"
    " southeast"
)


def key(stem_: str) -> str:
    """A stem as this module compares them: "improve" and "improv" (from "improved") are one."""
    return stem_[:-1] if stem_.endswith("e") and len(stem_) > 3 else stem_


@functools.cache
def _antonyms(of_a_thing: bool) -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    pairs = _PAIRS + _PAIRS_OF_A_THING if of_a_thing else _PAIRS
    for pair in re.split(r"[|\n]", pairs):
        if not pair.strip():
            continue
        a, b = (key(stem(w)) for w in pair.split())
        table.setdefault(a, set()).add(b)
        table.setdefault(b, set()).add(a)
    if of_a_thing:
        rises, falls = _moves()
        for a in rises:
            table.setdefault(a, set()).update(falls)
        for b in falls:
            table.setdefault(b, set()).update(rises)
    return {k: frozenset(v) for k, v in table.items()}


@functools.lru_cache(maxsize=65536)
def negative_base(word: str) -> str | None:
    """The key of the word a negative word negates ("inflexible" -> "flexible", "careless" ->
    "careful"), or None when the word is not a negative one."""
    w = word.lower()
    if w in _NOT_OPPOSITES:
        return None
    # "-ment" makes nouns, whose in- is no negation: "imprisonment", "involvement", "investment"
    adjective = _ADJECTIVE_END.search(w) and not w.endswith("ment")
    m = _PLAIN_PREFIX.match(w) or (_LATIN_PREFIX.match(w) if adjective else None)
    if m:
        return key(stem(w[m.end() :]))
    if w.endswith("less") and len(w) >= 8:
        return key(stem(w[:-4] + "ful"))
    return None


@functools.cache
def _moves() -> tuple[frozenset[str], frozenset[str]]:
    return (
        frozenset(key(stem(w)) for w in _RISES.split()),
        frozenset(key(stem(w)) for w in _FALLS.split()),
    )


def is_move(word: str) -> bool:
    """Does `word` (a surface token) say a rise or a fall?"""
    return bool(move_direction(word))


def move_direction(word: str) -> str:
    """ "rise" or "fall" for a word (a surface token) that says one, else ""."""
    own = key(stem(word))
    rises, falls = _moves()
    return "rise" if own in rises else "fall" if own in falls else ""


# The words that say all of a thing: "All staff moved" says "the entire staff moved".
_WHOLE_OF = frozenset(key(stem(w)) for w in words("whole entire all"))


def kin(word: str) -> frozenset[str]:
    """The keys of the words that say what `word` says: for a rise every rise ("slipped" is said by
    "fell"), for "whole" "entire" and "all", else the word's own key."""
    own = key(stem(word))
    groups = (*_moves(), _WHOLE_OF)
    return next((group for group in groups if own in group), frozenset([own]))


def opposites(word: str, *, of_a_thing: bool = True) -> frozenset[str]:
    """The keys of the words that state the opposite of `word` (a surface token, lower case): its
    antonyms and the word it negates; without `of_a_thing`, only those that oppose it wherever the
    page says them. The words that negate it are found from their side (`negative_base` of the
    evidence's words)."""
    found = set(_antonyms(of_a_thing).get(key(stem(word)), ()))
    base = negative_base(word)
    if base is not None:
        found.add(base)
    return frozenset(found)
