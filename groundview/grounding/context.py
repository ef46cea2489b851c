"""Claims read in context: a leading pronoun or "the company" takes its referent from the claim before.

"It was based on the sinking of the RMS Titanic" cannot be checked alone: retrieval and the verifier need
"Titanic". Only the text that is *scored* changes; the claim's byte span and claimText stay as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .claims import strip_markers
from .lexical import words

_WESTERN_PRONOUN = re.compile(
    r"^(?P<p>it|its|they|their|he|his|she|her|"
    r"(?:the|this|that) (?:company|firm|film|movie|book|novel|band|group|city|town|country|"
    r"organi[sz]ation|team|club|show|series|song|album|game|school|university|college|river|"
    r"building|project|product|app|application|service|device|model|law|act|war|team|player|"
    r"author|artist|singer|actor|actress|president|state|region|language|disease|drug|species|"
    r"plant|animal|event|program|programme|system|platform|tool|library|feature|plan|policy)|"
    r"él|ella|ellos|ellas|il|elle|ils|elles|er|sie|es|ele|ela|eles|elas)\b(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_CJK_PRONOUN = re.compile(
    r"^(?P<p>它们|他们|她们|它|他|她|该公司|这家公司|その|彼女|彼|これ|それ)(?P<rest>.*)$",
    re.DOTALL,
)
_POSSESSIVE = frozenset(["its", "their", "his", "her"])
# The subject ends at its verb. Enough verbs to cut "Titanic is a 1997 film" after "Titanic".
_VERB = re.compile(
    r"\s(?:is|was|are|were|has|had|have|will|would|can|could|became|becomes|began|begins|"
    r"remains|remained|includes|included|won|wins|released|founded|created|developed|"
    r"produced|directed|wrote|written|stars|starred|received|made|makes|employs|employed|"
    r"offers|offered|uses|used|provides|provided|announced|launched|opened|started|"
    r"reported|reports|said|says|posted|rose|fell|grew|plans|planned|agreed|approved|signed|lost|"
    r"raised|expects|expected|faces|faced|hired|sold|bought|acquired|closed|warned|unveiled|"
    r"es|fue|era|est|était|ist|war|é|foi)\s",
    re.IGNORECASE,
)
_CJK_VERB = re.compile(r"[是在有于將将被位成由为為の]")


# A summary talks about its source ("The passage discusses the discovery of…", "According to the
# article, …"): the source never says "passage" or "discusses", so only what follows the frame is
# scored. "It" counts as the source only before "that" ("It also notes that…").
_SOURCE = (
    r"(?:the|this) (?:passage|article|text|document|excerpt|paragraph|summary|e-?mail|transcript|"
    r"report|story|source|conversation|call|post|piece|letter|message|review|author|writer)"
)
_SAYS = (
    r"(?:discusses|describes|mentions|states|says|reports|notes|highlights|explains|outlines|"
    r"emphasi[sz]es|stresses|suggests|indicates|details|covers|focuses on|talks about|is about|"
    r"revolves around|centers on|presents|reveals|claims|argues|concludes|shows|tells us|"
    r"provides (?:information|details) (?:about|on))"
)
_FRAME = re.compile(
    # An answer's "Yes," or "No," agrees or disagrees with the question: what follows is the claim
    # ("No, monthly plans cannot be refunded"), and the page never says "no" of it. "OK," or "Oh,"
    # only acknowledges it (read as a name, "OK" had failed the claim). "Not really," is a "No,":
    # read as the claim's negation, it had failed "Not really, Python is a programming language".
    r"^(?:(?:yes|yeah|yep|yup|no|nope|nah|not really|not exactly|ok|okay|oh|well|right|hmm|wow"
    r"|s[ií]|oui|non|ja|nein|sim|n[aã]o)\s*[,!—–]\s*)?"
    # "I think" and "I heard that" give the speaker's grounds for what follows, which is the claim
    # ("I think the library opens at 9"); "I read the book" is no frame, so "read" needs its "that".
    r"(?:i (?:really |also |just |actually )?(?:(?:think|believe|guess|suppose)(?: that)?"
    r"|(?:know|heard|read|learned|learnt|understand|remember) that)\s+)?"
    # So do a pleasantry and a reminder ("Good news, the Starter plan is free", "Please note
    # that SSO is an Enterprise feature"): the page says neither "news" nor "note".
    r"(?:(?:good news|great news|great question|sure|of course|certainly|absolutely|unfortunately"
    r"|just so you know|for your information|fyi)\s*[,!:—–]\s*)?"
    r"(?:(?:please )?(?:note|remember|be aware) that\s+|(?:please )?(?:keep|bear) in mind that\s+"
    r"|it(?:'s| is) (?:important|worth noting|good) (?:to (?:note|know|remember) )?that\s+)?"
    r"(?:(?:overall|in summary|in short|in conclusion|to summari[sz]e|in brief)\s*,?\s*)?"
    rf"(?:according to {_SOURCE}\s*,\s*|{_SOURCE} (?:also |further )?{_SAYS}(?: that)?\s+|"
    rf"it (?:also |further )?{_SAYS} that\s+)?",
    re.IGNORECASE,
)


def strip_frame(text: str) -> str:
    """The claim without the words a summary uses about its source ("The article reports that the
    company lost money" -> "The company lost money"), or an answer's "Yes," / "No," and lead-ins
    ("Please note that…"). The text itself when nothing would be left."""
    rest = _FRAME.sub("", text.strip(), count=1)
    return rest[:1].upper() + rest[1:] if rest.strip(" .!?") else text


_CONNECTIVE = re.compile(r"^(?:but|and|so|yet|however|also|then|there|later)[, ]+", re.IGNORECASE)


def needs_antecedent(text: str) -> bool:
    """Whether a sentence opens with a pronoun ("He married…", "But it…", "它…"), so that it says
    nothing checkable without the sentence before it."""
    text = _CONNECTIVE.sub("", text.strip().lstrip("\"'“‘(["))
    return bool(_WESTERN_PRONOUN.match(text) or _CJK_PRONOUN.match(text))


def subject_of(text: str) -> str | None:
    """The leading noun phrase of a sentence, or None when it is not short enough to trust."""
    found = _subject(text)
    return found[0] if found else None


# A verb that says its subject is one thing, or several.
_SINGULAR_VERB = re.compile(
    r"is|was|has|becomes|begins|remains|includes|wins|stars|makes|employs|offers|uses|provides|"
    r"es|fue|era|est|était|ist|é",
    re.IGNORECASE,
)
_PLURAL_VERB = re.compile(r"are|were|have", re.IGNORECASE)
# Words that open a phrase before the subject ("For children under 12, the dose is…"), or a
# sentence with no subject to refer to ("Here's a summary").
_OPENERS = words(
    "in on at for after before during since by with under over from despite although when while as"
    " here there what how why"
)
# A clause inside the phrase: "Bramwell Water acknowledges that its performance was…" has no
# subject ending at "was".
_CLAUSE_INSIDE = re.compile(r"\b(?:that|who|which|whose|whom)\b", re.IGNORECASE)
# Words a name may hold uncapitalised: "Bank of England", "Procter & Gamble".
_NAME_JOINERS = frozenset(["of", "the", "and", "&", "de", "la", "von", "van", "du", "der"])


def _subject(text: str) -> tuple[str, str] | None:
    """The leading noun phrase and its number: "one", "many" or "" when the verb does not say."""
    text = text.strip()
    if _CJK_VERB.search(text[:12]) and re.match(r"[\u3040-\u30ff\u4e00-\u9fff]", text):
        m = _CJK_VERB.search(text)
        head = text[: m.start()] if m else ""
        return (head, "") if 1 <= len(head) <= 8 else None
    m = _VERB.search(" " + text)
    if not m:
        return None
    head = (" " + text)[: m.start()].strip(" ,")
    first = head.split()[0].lower().strip("'’") if head else ""
    if first.endswith(("'s", "’s")):
        first = first[:-2]
    if first in _OPENERS:
        # "For children under 12, the dose…": the subject follows the opening phrase
        head = head.rsplit(",", 1)[1].strip() if "," in head else ""
    elif "," in head:
        # "Novak, a 19-year-old ranked 142nd, won…": the name before the aside
        head = head.split(",", 1)[0].strip()
    if not head or len(head.split()) > 8 or _WESTERN_PRONOUN.match(head):
        return None
    parts = head.split()
    # "Brannock joined the National League in 1995": a verb the list lacks ran on past the subject
    if _CLAUSE_INSIDE.search(head) or any(w.endswith("ed") and w.islower() for w in parts[1:]):
        return None
    verb = m.group(0).strip()
    number = (
        "one" if _SINGULAR_VERB.fullmatch(verb) else "many" if _PLURAL_VERB.fullmatch(verb) else ""
    )
    if not number and (" and " in f" {head} " or _plural_noun(head)):
        number = "many"
    # "Officials hope calmer winds expected Thursday will…": a plural noun and its verb open it
    if len(parts) > 1 and _plural_noun(parts[0]) and parts[1].islower():
        number = "many"
    return head, number


def _plural_noun(head: str) -> bool:
    """Is the phrase a plural common noun: one capitalised word opening the sentence ("Officials")
    or a phrase ending in a lowercase plural ("Rising costs")? A name that ends in "s" ("Kestrel
    Foods") is one thing."""
    parts = head.split()
    last = parts[-1]
    if not last.endswith("s") or last.endswith(("ss", "us", "is", "'s", "’s")):
        return False
    return last[:1].isupper() if len(parts) == 1 else last[:1].islower()


def _is_name(head: str) -> bool:
    """Does the phrase name something ("Harlow Appliance", "The Caldwell Street Bridge")?"""
    parts = head.split()
    if parts and parts[0].lower() in ("the", "a", "an"):
        parts = parts[1:]
    return bool(parts) and all(w[:1].isupper() or w.lower() in _NAME_JOINERS for w in parts)


def resolve(texts: Sequence[str]) -> list[str]:
    """Each claim's text for scoring: without citation markers or a frame about its source, and
    with a leading pronoun replaced by the previous subject that agrees with it: "it" takes no
    "Officials", "they" no "The bridge", and "the company" only a name."""
    out: list[str] = []
    one: str | None = None  # the last subject that is one thing (or may be)
    many: str | None = None  # the last subject that is several
    for text in texts:
        text = strip_frame(strip_markers(text) or text)
        resolved = text
        m = _WESTERN_PRONOUN.match(text.strip()) or _CJK_PRONOUN.match(text.strip())
        if m:
            pronoun = m.group("p")
            plural = pronoun.lower() in _PLURAL_PRONOUNS
            referent = (many or one) if plural else one
            if referent and " " in pronoun and not _is_name(referent):
                referent = None  # "The company" is better read as written than as "The dose"
            if referent:
                suffix = "'s" if pronoun.lower() in _POSSESSIVE else ""
                resolved = f"{referent}{suffix}{m.group('rest')}"
        else:
            found = _subject(text)
            if found and found[1] == "many":
                many = found[0]
            elif found:
                one = found[0]
        out.append(resolved)
    return out


_PLURAL_PRONOUNS = frozenset(
    ["they", "their", "ellos", "ellas", "ils", "elles", "eles", "elas", "它们", "他们", "她们"]
)
