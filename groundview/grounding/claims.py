"""Splitting text into sentences ("claims") with UTF-8 byte spans, and deciding which need a check.

The same splitter chunks facts into sentences, so answer claims and evidence chunks agree on what a
sentence is. Spans are computed on characters and converted to UTF-8 byte offsets at the end, so they can
never fall inside a multi-byte character.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import accumulate

from .lexical import is_cjk, words

# Words that end with a dot without ending a sentence. Lower-case, without the dot.
ABBREVIATIONS = words(
    """mr mrs ms dr prof sr jr st mt vs fig figs no nos vol vols approx inc ltd co corp jan feb mar apr
    jun jul aug sep sept oct nov dec est dept univ gen col lt sgt capt rev gov sen rep pres ph phd
    al cf ed eds pp op ca a.m p.m e.g i.e u.s u.k u.n etc
    sra srta dra nr bzw usw vgl ca mme mlle gral u.a z.b d.h p.ej mio mrd tsd rd aprox env séc dic"""
)
# "am 3. Oktober", "im 20. Jahrhundert": German writes an ordinal with a dot before these. Only
# the names English does not share ("It scored 7. September was its best month." is two).
_ORDINAL_NOUNS = words(
    "januar februar märz mai juni juli oktober dezember jahrhundert jahrhunderts"
)
# Characters that separate like a space without being one to str.isspace().
_INVISIBLE_SPACE = "\u200b\u2060\ufeff"
# "Brown v. Board of Education", "dates from c. 1491".
_ALWAYS_CONTINUE = frozenset(["e.g", "i.e", "cf", "vs", "v", "approx", "ca", "c"])

_CJK_END = "。！？｡"
_WESTERN_END = ".!?…"
_END_MARK_RE = re.compile(f"[{re.escape(_WESTERN_END + _CJK_END)}]")
# Emphasis closes after a sentence's end as a quote does: "*It is 333 m tall.* It opened…".
_CLOSERS = "\"'”’»)]}」』）】*_"
_OPENERS = "\"'“‘«([{「『（【"
# Markdown emphasis or code may open a sentence: "…tall. **Fun fact:** it…", "…tall. _Note_ that…".
_EMPHASIS = "*_`~"
_BULLET_RE = re.compile(
    r"[ \t]*(?:[-*•‣◦▪▸►–—]|\d{1,3}[.)]|\(\d{1,3}\)|[a-z][)]|\([a-z]\)|[ivx]{1,4}[.)])[ \t]+"
)
_LINE_SPLIT_RE = re.compile(r"\r\n|[\n\r\u2028\u2029\x0b\x0c\x1c\x1d\x1e\x85]")
_TRAILING_SYMBOLS_RE = re.compile(
    r"(?:[ \t]+[^\w\s\"'“‘«(\[{「『（【][^\w\s]*(?=\s|$))+", re.UNICODE
)
_HAS_WORD_RE = re.compile(r"[^\W_]", re.UNICODE)

# Citation markers that other pipelines write into their answers: "[1]", "[1, 3]", "[2-4]", "[^1]",
# "【4:0†source】", "[Source 2]", "[citation needed]", "(source: Wikipedia)". They cite and state
# nothing; read as words, "[1]" is a count and "Wikipedia" a name the evidence never states, and a
# supported claim would be capped for them.
_MARKER = (
    r"\[\d{1,3}(?:\s*[,;–—-]\s*\d{1,3})*\]"
    r"|\[\^[^\]\s]{1,20}\]"
    r"|【[^】]{0,60}】"
    r"|\[(?:sources?|refs?|references?|docs?|documents?|citations?|cite|context|chunk)\b[^\]]{0,40}\]"
    r"|\((?:sources?|refs?|references?|see|citations?|docs?|documents?)\b[^()]{0,60}\)"
    r"|［\d{1,3}(?:\s*[,，、–-]\s*\d{1,3})*］"
    # "tall (1).", "tall^1", "tall.¹": only where a number cannot be meant ("aged (42) years" has
    # no punctuation after it, "Article 6(1)." no space before it, "10^6", "r^2" and "km²" fewer
    # than three letters before them).
    r"|(?<=\s)\(\d{1,2}\)(?=[.,;:!?。]|\s*$)"
    r"|(?:(?<=[.,;:!?\]])|(?<=[^\W\d_]{3}))\^\d{1,3}\b"
    r"|(?:(?<=[.,;:!?\]])|(?<=[^\W\d_]{3}))[¹²³⁰⁴-⁹]+"
)
_MARKERS_RE = re.compile(rf"\s*(?:{_MARKER})", re.IGNORECASE)
# After a sentence's end, its markers are still its own: "…330 m tall.[1] It opened…", "…tall. [2]".
_TRAILING_MARKER_RE = re.compile(rf"[ \t]?(?:{_MARKER})", re.IGNORECASE)


# A link's address cites; it is no part of what a claim states, and its digits read as counts. A
# Markdown link is read as its text, and an address in brackets is left out. An address in running
# text stays: "The paper's URL is https://arxiv.org/abs/2012.15730" claims the address itself.
_MARKDOWN_LINK_RE = re.compile(
    r"\[([^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*)\]\((?:https?://|www\.)[^)\s]*\)"
)
_URL_RE = re.compile(r"\s*[(\[<](?:https?://|www\.)[^)\]>\s]*[)\]>]")


def strip_markers(text: str) -> str:
    """The text without its citation markers and link addresses (for reading it, never for its
    span): "330 m tall [[1]](https://…)" reads "330 m tall"."""
    text = _MARKDOWN_LINK_RE.sub(r"\1", text)
    text = _URL_RE.sub("", text)
    return _MARKERS_RE.sub("", text).strip()


@dataclass(frozen=True)
class Segment:
    """A sentence: character span [start, end) into the source text and the text itself."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Claim:
    start_byte: int
    end_byte: int
    text: str
    check_required: bool


def _line_spans(text: str) -> Iterator[tuple[int, int]]:
    pos = 0
    for m in _LINE_SPLIT_RE.finditer(text):
        yield pos, m.start()
        pos = m.end()
    yield pos, len(text)


def _word_before(text: str, dot: int, line_start: int) -> str:
    """The word (with internal dots, like "U.S") that ends right before text[dot]."""
    i = dot
    while i > line_start and (text[i - 1].isalnum() or text[i - 1] == "."):
        i -= 1
    return text[i:dot]


_LETTERS_AND_DOTS = re.compile(r"(?:[^\W\d_]+\.)+[^\W\d_]+")


def _is_space(ch: str) -> bool:
    return ch.isspace() or ch in _INVISIBLE_SPACE


_LETTER_DOT_AFTER = re.compile(r"[^\W\d_]\.")
_LETTER_DOT_BEFORE = re.compile(r"(?:^|\s)[^\W\d_]\.\s+$")


def _in_letter_pair(text: str, dot: int, nxt: int, line_start: int) -> bool:
    """Is the letter before text[dot] one of two abbreviating letters ("u. a.", "z. B.")?"""
    if _LETTER_DOT_AFTER.match(text, nxt):
        return True
    return bool(_LETTER_DOT_BEFORE.search(text, line_start, dot - 1))


# What follows "9 a.m." in the same sentence: a time zone or a day ("9 a.m. EST", "9 a.m. Monday").
_AFTER_CLOCK = words(
    """pacific eastern central mountain atlantic alaska hawaii local gmt utc est edt pst pdt cst cdt
    mst mdt et pt ct mt bst cet cest ist jst kst aest aedt sgt hkt time monday tuesday wednesday
    thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays
    mon tue wed thu fri sat sun january february march april may june july august september
    october november december jan feb mar apr jun jul aug sep sept oct nov dec"""
)


def _next_word(text: str, start: int, end: int) -> str:
    m = re.compile(r"[^\W\d_]+").match(text, start, end)
    return m.group(0).lower() if m else ""


def _is_boundary(text: str, idx: int, end_punct: int, line_start: int, line_end: int) -> bool:
    """Is there a sentence end after the punctuation run text[idx:end_punct]?"""
    run = text[idx:end_punct]
    if any(ch in _CJK_END for ch in run):
        # 「東京タワーは象徴だ。」と述べた: a quoted sentence inside the sentence that reports it,
        # which a particle in hiragana goes on ("他说：「很多！」好的" is two).
        quoted = run[-1] in "」』" and end_punct < line_end
        return not (quoted and "\u3041" <= text[end_punct] <= "\u309f")
    if end_punct >= line_end:
        return True
    if not _is_space(text[end_punct]):
        return False  # "3.14", "U.S.A", "example.com", "hello?!x"
    nxt = end_punct
    while nxt < line_end and _is_space(text[nxt]):
        nxt += 1
    if nxt >= line_end:
        return True
    following = text[nxt]
    while following in _EMPHASIS and nxt + 1 < line_end:
        nxt += 1
        following = text[nxt]
    # A sentence starts with something capital-like, also after "!": 'the "Kerrang!" release'
    # and "Yahoo! is" go on.
    if following.islower():
        return False
    if run in ("!", "?") or run.startswith(("?", "!")):
        return True
    # "*et al.* (2020)": emphasis closing over an abbreviation's dot does not end it either.
    if run.rstrip("*_") == ".":
        word = _word_before(text, idx, line_start)
        lw = word.lower()
        if lw in _ALWAYS_CONTINUE:
            return False
        if len(word) == 1 and word.isupper():
            return False  # an initial: "William O. Douglas"
        if len(word) == 1 and word.isalpha() and _in_letter_pair(text, idx, nxt, line_start):
            return False  # "u. a.", "z. B.", "d. h."; "Let the unknown be x. Then" ends
        if lw in ("a.m", "p.m"):
            # "closes at 5 p.m. Tickets cost $5." ends; "9 a.m. Pacific Time", "9 a.m. – 5 p.m."
            # and "9 a.m. (EST)" go on.
            return following.isupper() and _next_word(text, nxt, line_end) not in _AFTER_CLOCK
        if lw in ABBREVIATIONS and lw != "etc":
            return False
        if _LETTERS_AND_DOTS.fullmatch(word) and len(word) <= 6 and not following.isdigit():
            return False  # "U.S. Army", "Ph.D. Thesis"; a price ("$9.99.") ends its sentence
        if word.isdigit() and len(word) <= 2 and _next_word(text, nxt, line_end) in _ORDINAL_NOUNS:
            return False
    return (
        following.isupper()
        or following.isdigit()
        or following in _OPENERS
        or not following.isascii()
    )


# "Here is a summary of the article: The council approved…" is two sentences: a preamble that needs
# no check, and a claim that does. Split only after a preamble or a label, not after any colon:
# "Titanic: The film grossed $2 billion" needs its heading to be checked.
_COLON_BEFORE_SENTENCE = re.compile(
    r"[:：][*_]*(?=\s+[\"“'‘(]?[A-Z\u00c0-\u00de])|：(?=[\u3040-\u30ff\u4e00-\u9fff])"
)
_LABEL = re.compile(
    r"^(?:summary|note|answer|overview|conclusion|in (?:summary|short|brief|conclusion)|"
    r"tl;?dr|key (?:points|takeaways?))$",
    re.IGNORECASE,
)


def _after_preambles(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in spans:
        m = _COLON_BEFORE_SENTENCE.search(text, s, e)
        head = text[s : m.start()].strip().strip("*_#>` ").strip() if m else ""
        if m and (_LABEL.match(head) or _manages_the_conversation(head)):
            out += [(s, m.end()), (m.end(), e)]
        else:
            out.append((s, e))
    return out


def split_sentences(text: str) -> list[Segment]:
    """Sentences of `text` as character spans, trimmed of whitespace and bullet markers.

    Newlines always end a sentence (lists, headings); a line's leading bullet ("- ", "1. ", "•") is not
    part of its sentence. Segments with no letter or digit (an emoji, "...") are merged into the sentence
    before them on the same line.
    """
    segments: list[Segment] = []
    for line_start, line_end in _line_spans(text):
        start = line_start
        m = _BULLET_RE.match(text, start, line_end)
        if m:
            start = m.end()
        line_segments: list[tuple[int, int]] = []
        i = start
        # A page of facts is millions of characters: jump from one end mark to the next.
        while end_mark := _END_MARK_RE.search(text, i, line_end):
            i = j = end_mark.start()
            while j < line_end and (text[j] in _WESTERN_END or text[j] in _CJK_END):
                j += 1
            k = j
            while k < line_end and text[k] in _CLOSERS:
                k += 1
            while marker := _TRAILING_MARKER_RE.match(text, k, line_end):
                k = marker.end()
            if _is_boundary(text, i, k, line_start, line_end):
                # Trailing emoji/symbols ("Great! 🎉 Next") belong to the sentence they follow.
                tail = _TRAILING_SYMBOLS_RE.match(text, k, line_end)
                if tail:
                    k = tail.end()
                line_segments.append((start, k))
                start = k
            i = k
        line_segments.append((start, line_end))
        merged: list[tuple[int, int]] = []
        for s, e in _after_preambles(text, line_segments):
            while s < e and _is_space(text[s]):
                s += 1
            while e > s and _is_space(text[e - 1]):
                e -= 1
            if s == e:
                continue
            if merged and not _HAS_WORD_RE.search(text, s, e):
                merged[-1] = (merged[-1][0], e)
            else:
                merged.append((s, e))
        segments.extend(Segment(s, e, text[s:e]) for s, e in merged)
    return segments


def byte_offsets(text: str) -> list[int]:
    """offsets[i] = UTF-8 byte offset of character i (len(text)+1 entries)."""
    return [0, *accumulate(len(ch.encode("utf-8", "surrogatepass")) for ch in text)]


# --- groundingCheckRequired -------------------------------------------------------------------------

# Sentences that only manage the conversation. Matched case-insensitively at the start of the sentence.
_NO_CHECK_START = re.compile(
    r"^(?:"
    # "Based on the trading update, here is an overview."
    r"(?:(?:based on|from|according to|using) [^,]{1,60},\s*)?"
    r"here(?:'s| is| are) (?:what|some|a few|the following|my|how"
    r"|an? (?:[\w-]+,? ){0,3}?(?:overview|summary|list|few|rundown|breakdown|recap|synopsis)"
    r"|the (?:[\w-]+ ){0,2}?(?:overview|summary|rundown|breakdown|recap|synopsis)"
    r"|the (?:key|main) (?:points|highlights|takeaways|details))\b"
    # "Below is a concise summary of the passage:", as summarisers open.
    r"|(?:below is|the following is) (?:an?|the|my) (?:[\w-]+,? ){0,3}?"
    r"(?:overview|summary|rundown|breakdown|recap|synopsis)\b"
    # "Hi there, thanks for getting in touch!" greets; "Hi Maria, the store opens at 9" does not only.
    r"|(?:hi|hello|hey|dear)(?: there| all| everyone| team)?[,!.]?\s+(?:and )?"
    r"(?:thanks?|thank you|welcome|good (?:morning|afternoon|evening))\b"
    r"|(?:i'm |i am |we're |we are )?(?:happy|glad) to help\b"
    r"|(?:sure|certainly|of course|absolutely|great question|good question|okay|ok|yes|no)[,.!]?$"
    r"|(?:sure|certainly|of course|absolutely)[,!.]\s*(?:here|i|let)\b"
    r"|let me (?:know|explain|help|check|summari[sz]e)\b"
    r"|(?:i )?hope (?:this|that|it|the above)(?: (?:summary|answer|information|overview))? "
    r"(?:helps|is helpful|was helpful|is useful|clears (?:things|it|that) up|answers your question)"
    r"|have an? (?:great|good|nice|wonderful|lovely|safe) (?:day|one|week|weekend|evening|trip|"
    r"flight|stay|time|holiday|ride|journey|visit)\b"
    r"|enjoy (?:your|the) (?:trip|ride|flight|stay|day|meal|holiday|visit|weekend|journey)[!.]?$"
    r"|safe travels\b"
    # Wishes: "Good luck with your trip!" (sign-offs are `_SIGN_OFF`)
    r"|good luck (?:with|on|for|in) (?:your|the)(?: [^\s.!]+){1,4}[.!]?$"
    # Advice to ask a professional, as leaflets and support bots close: it states nothing to back.
    r"|(?!.*\d)(?:please )?(?:check|speak|talk|consult|ask) (?:with )?(?:a|your) (?:pharmacist|doctor|gp|"
    r"vet|lawyer|accountant|physician|dentist|midwife|nurse|healthcare (?:provider|professional))\b"
    r"|(?!.*\d)if you(?:'re| are) (?:worried|concerned|unsure|in doubt)\b[^,]*,\s*(?:please )?"
    r"(?:contact|call|see|ask|speak|talk|consult)\b"
    r"|(?:i'm |i am |we're |we are )?sorry to hear\b"
    # What the source leaves out cannot be backed by a citation from it.
    r"|(?:note:?\s*)?(?:the|this|these) (?:(?:provided |given |available |retrieved |above )?"
    r"(?:articles?|passages?|texts?|documents?|sources?|emails?|e-mails?|transcripts?|report|"
    r"story|stories|conversation|call|context)|(?:provided|given|available|retrieved|search) "
    r"(?:results?|information|data)) (?:does not|doesn't|"
    r"do not|don't|did not|didn't) (?:explicitly |directly |specifically )?"
    r"(?:mention|provide|specify|say|state|include|give|discuss|contain|address|detail|reveal|"
    r"indicate|clarify|elaborate|cover)\b"
    r"|there is no (?:mention|information|indication|detail)s? (?:of|about|on|regarding|as to)\b"
    r"|feel free\b"
    r"|(?:please )?let us know\b"
    r"|is there anything else\b"
    r"|(?:do|can|could|would|should|shall|may) (?:you|i|we)\b"
    r"|thank(?:s| you)\b(?! to\b)"  # "Thanks to its new engine, the car…" states a fact
    r"|as an ai\b|as a (?:large )?language model\b|as an? (?:ai )?(?:assistant|chatbot)\b"
    r"|i(?: am|'m) (?:sorry|afraid|not sure|not able|unable|an ai|happy|glad)\b"
    r"|i (?:do not|don't|cannot|can't) (?:have|know|provide|access|browse|answer|find|give|offer)\b"
    r"|i(?: am|'m) (?:not able|unable) to (?:answer|find|provide)\b"
    # The assistant reporting on its own search, as skipped answers do, asserts nothing to ground.
    r"|i (?:could not|couldn't|was unable to|did not|didn't) find\b"
    r"|(?:an? |the )?(?:summary|answer|response) (?:could not|couldn't|cannot|can't) be generated\b"
    r"|no (?:relevant )?(?:results|information|answer|content) (?:was|were|could be) found\b"
    r"|in (?:summary|conclusion)[,:]?$"
    r")",
    re.IGNORECASE,
)
# The same kinds of sentence in the other languages the UI shows: greetings and thanks, "here is what I
# found", hopes and offers of more help, apologies, and an assistant reporting that it found nothing.
_NO_CHECK_OTHER = re.compile(
    r"^(?:"
    # Spanish
    r"(?:hola|gracias|claro|por supuesto|de nada|buenas|muchas gracias)(?:[!.,]|$)"
    r"|(?:muchas )?gracias por (?:tu|su|la|el|vuestra) (?:pregunta|consulta|mensaje|inter[eé]s)"
    r"|aqu[ií] (?:est[aá]|tienes|tiene|hay|va) (?:lo que|la informaci[oó]n|un resumen|algunos|algunas)"
    r"|espero que (?:(?:esto|esta|le|te|les|os) ){1,2}(?:ayude|sirva|sea [úu]til)"
    r"|si (?:tienes|tiene|necesitas|necesita) (?:m[aá]s|otra|alguna|algo)"
    r"|(?:no|lamentablemente,? no) (?:pude|he podido|se pudo|encontr[eé]|hay resultados)"
    r"|(?:lo siento|disculpa|perd[oó]n)\b|av[ií]same\b|no dudes en\b"
    r"|con (?:mucho )?gusto (?:te|le|les) (?:ayudo|ayudamos|ayudar[eé])"
    r"|que (?:tengas|tenga|tengan|pases|pase|pasen) (?:un|una) (?:buen|buena|excelente|feliz|gran|"
    r"lindo|linda|bonito|bonita) (?:d[ií]a|tarde|noche|viaje|semana|fin de semana|estancia)\b"
    r"|(?:hasta (?:luego|pronto|la pr[oó]xima)|buen viaje|buena suerte"
    r"|feliz (?:d[ií]a|viaje|fin de semana))(?:[!.,]|$)"
    # Italian
    r"|(?:ciao|grazie|prego|buongiorno|salve)(?:[!.,]|\s+mille|$)"
    r"|spero (?:di (?:esserti|esservi|esserle) stat[oa] d'aiuto|che (?:questo|ci[oò]) (?:ti|le|vi) "
    r"(?:aiuti|sia utile))|se hai (?:altre domande|bisogno)|fammi sapere\b|(?:mi dispiace|scusa)\b"
    r"|(?:buona (?:giornata|serata|fortuna)|buon viaggio|a presto)(?:[!.,]|$)"
    # French
    r"|(?:bonjour|merci|bien s[uû]r|avec plaisir|salut)(?:\s*[!.,]|\s+beaucoup|\s+et merci|$)"
    r"|merci (?:pour|de) (?:votre|ta|cette) (?:question|message|demande)"
    r"|je reste [àa] (?:votre|ta) disposition|impossible de (?:g[ée]n[ée]rer|trouver|r[ée]pondre)"
    r"|voici (?:ce que|les informations|un r[ée]sum[ée]|quelques)"
    r"|j'esp[eè]re que (?:cela|ceci|ça)"
    r"|si vous avez (?:d'autres|des) questions|n'h[ée]sitez pas\b"
    r"|je n'ai (?:pas|trouv[ée] aucun)|(?:d[ée]sol[ée]|malheureusement)\b"
    r"|(?:aucun r[ée]sultat|un r[ée]sum[ée] n'a pas pu)"
    r"|(?:bonne (?:journ[ée]e|soir[ée]e|nuit|continuation|chance|lecture|semaine|fin de journ[ée]e)"
    r"|bon (?:voyage|week-end|s[ée]jour|courage)|au revoir|[àa] bient[ôo]t)\s*(?:[!.]|et\b|$)"
    # German
    r"|(?:hallo|danke|gerne|nat[üu]rlich|guten tag)(?:[!.,]|\s+sch[öo]n|$)"
    r"|vielen dank(?:[!.,]|$)|(?:vielen )?dank(?:e)? f[üu]r (?:ihre|deine|die) "
    r"(?:frage|anfrage|nachricht)"
    r"|bei (?:weiteren|sonstigen) fragen\b"
    r"|(?:eine |die )?(?:zusammenfassung|antwort) konnte nicht (?:erstellt|generiert|gefunden)"
    r"|hier (?:ist|sind),? (?:was|die|einige|eine)\b"
    r"|ich hoffe,? (?:das|dies|es) hilft"
    r"|wenn sie (?:weitere|noch) fragen|(?:lassen sie|sag) (?:es )?mich wissen"
    r"|ich konnte (?:keine|nichts)|(?:leider|entschuldigung|es tut mir leid)\b"
    r"|(?:es wurden keine|keine (?:relevanten )?ergebnisse)"
    r"|(?:(?:einen |ein )?sch[öo]nen (?:tag|abend|aufenthalt|urlaub|sonntag|wochenende)"
    r"|(?:eine )?gute reise|viel (?:spa[ßs]|erfolg|gl[üu]ck|vergn[üu]gen)|auf wiedersehen"
    r"|bis (?:bald|sp[äa]ter|dann)|tsch[üu]ss)(?:\s+noch)?(?:[!.]|\s+(?:beim|bei|mit|in|auf)\b|$)"
    # Portuguese
    r"|(?:ol[aá]|obrigad[oa]|com certeza)(?:[!.,]|$)"
    r"|(?:muito )?obrigad[oa] (?:pela|por) (?:sua |tua |a )?(?:pergunta|mensagem|contato)"
    r"|se (?:precisar|tiver) de (?:mais|algo|outra)"
    r"|aqui est[aá] (?:o que|a informa[cç][aã]o|um resumo)|aqui est[aã]o"
    r"|espero que (?:isso|isto) (?:ajude|seja [úu]til)"
    r"|se voc[eê] tiver (?:mais|outras)|(?:desculpe|lamento)\b"
    r"|n[aã]o (?:consegui|encontrei|foi poss[ií]vel)"
    r"|(?:tenha|tenham) (?:um|uma) (?:bom|boa|[óo]timo|[óo]tima|excelente|feliz) (?:dia|tarde|noite|"
    r"viagem|semana|fim de semana|estadia)\b"
    r"|(?:boa (?:viagem|sorte)|at[ée] (?:logo|mais|breve))(?:[!.,]|$)"
    # What the source leaves out ("The article does not mention…"), as in English.
    r"|(?:el|la|este|esta|los|las|estos|estas) (?:art[ií]culos?|textos?|documentos?|pasajes?|"
    r"fuentes?|correos?) no (?:mencionan?|especifican?|indican?|proporcionan?|dicen?|incluyen?)\b"
    r"|(?:l'|le |ce |la |les |ces )(?:articles?|textes?|documents?|passages?|sources?|courriels?) "
    r"ne (?:mentionnent|mentionne|pr[ée]cisent|pr[ée]cise|indiquent|indique|fournissent|fournit|"
    r"disent|dit|donnent|donne)\b"
    r"|(?:der|die|das|dieser|diese|dieses) (?:artikel|text|dokument|quelle|abschnitt|e-mail) "
    r"(?:erw[äa]hnt|nennt|gibt|sagt|enth[äa]lt) (?:\w+ ){0,3}(?:nicht|keine?n?)\b"
    r"|(?:o|a|este|esta|os|as|estes|estas) (?:artigos?|textos?|documentos?|passage(?:m|ns)|"
    r"fontes?) n[aã]o (?:mencionam?|especificam?|indicam?|fornecem?|fornece|diz|dizem|incluem?)\b"
    r")",
    re.IGNORECASE,
)
# A letter's sign-off, alone or with the name under it on the same line ("Best regards, Jane"):
# nothing to back, and the lines under it are its signature (`segment_claims`).
_SIGN_OFF = re.compile(
    r"^(?:(?:best |kind |warm |warmest )?regards|(?:yours )?sincerely|yours truly|all the best"
    r"|(?:un )?saludos?(?: cordiales)?|atentamente|(?:bien )?cordialement|bien [àa] vous"
    r"|(?:mit )?(?:freundlichen|herzlichen|besten|vielen|liebe|viele|beste) gr[üu](?:ß|ss)en?"
    r"|atenciosamente|abra[çc]os|cumprimentos|cordiali saluti|distinti saluti|此致敬礼|敬具)"
    r"(?:,\s*[^\W\d_][^\d,.!?]{0,40})?[,.!]?$",
    re.IGNORECASE,
)
# A signature line: a name, a team or a title, a few words without a digit ("The Support Team",
# "Jane Doe, Customer Success").
_SIGNATURE_WORDS = 6
_NO_CHECK_CJK = re.compile(
    r"^(?:以下是|这是我找到的|這是我找到的|希望(?:这|這|以上|对|對)|如果您?(?:还有|還有|有任何|有其他)|如有(?:其他|任何)"
    r"|你好|您好|谢谢|謝謝|不客气|抱歉|对不起|對不起|很抱歉|当然|當然"
    r"|(?:我)?(?:没有|沒有|未能|无法|無法)(?:找到|生成|提供)|(?:无法|無法)为您|没有找到相关|未找到"
    r"|こんにちは|ありがとう|申し訳|すみません|もちろん|お役に立て|他にご質問|ご不明な点"
    r"|以下は|見つかりませんでした|(?:要約|回答)を生成できませんでした|該当する(?:情報|結果)は"
    r"|(?:文章|原文|该文|該文|文中|材料|资料|資料|文档|文檔|文件)(?:中)?(?:没有|沒有|并未|並未|未)"
    r"(?:提到|提及|说明|說明|指出)"
    r"|(?:我)?找不到"
    r"|(?:很遗憾|很遺憾)[，,]?\s*(?:我)?(?:没有|沒有|未能|无法|無法|找不到)"
    r"|感[谢謝](?:您|你)|希望(?:能|可以)?(?:帮|幫)"
    r"|(?:还有|還有)(?:其他|任何)(?:问题|問題)|随时(?:问我|联系)|隨時(?:問我|聯繫)"
    r"|承知(?:しました|いたしました)|他に(?:ご不明な点|ご質問)"
    r"|(?:記事|本文|文書|資料)(?:で|に|では|には)は?.{0,12}(?:言及|記載|説明)(?:されていません|がありません|はありません)"
    r"|(?:好的|是的|好|はい|了解(?:しました)?|(?:分|わ)かりました|네|알겠습니다)[。！!，,、.]?$"
    r"|(?:好的|是的|当然|當然)[，,、]\s*(?:以下是|这是|這是|我来|我來)"
    r"|(?:情報|結果|回答)が見つかりません|ご質問ありがとう|参考になれば|お役に立てれば"
    r"|(?:要約|回答)を生成できません"
    # Wishes and goodbyes: "祝您有美好的一天", "良い一日をお過ごしください", "頑張ってください"
    r"|祝(?:您|你|大家)|再见|再見|(?:良い|よい|素敵な|すてきな)[^。！!]{0,8}を(?:お過ごしください|お楽しみください)?[。！!]?$"
    r"|(?:頑張|がんば)ってください|お大事に|さようなら|よろしくお願い(?:します|いたします)"
    # Korean
    r"|안녕하세요|감사합니다|고맙습니다|죄송합니다|죄송하지만|도움이 되었기를|도움이 되셨기를"
    r"|(?:관련 )?(?:정보|결과)를 찾을 수 없|다음은|추가 질문이"
    r")"
)
# Lead-ins that frame a statement rather than replace it: "Please note that refunds take 10 days"
# and "If you need more storage, the Pro plan offers 2 TB" state what their source must back, and
# skipping the sentence for its opening had left a wrong fact unchecked (`_framed`).
_NOTE_THAT = re.compile(
    r"^(?:(?:please )?note that|it(?:'s| is) (?:important|worth|essential|crucial|good) to "
    r"(?:note|remember|mention|know|keep in mind)(?: that)?"
    r"|(?:please )?(?:keep|bear) in mind(?: that)?|(?:please )?(?:remember|be aware) that"
    # "I'm sorry, but monthly plans can be refunded within 60 days" states a policy.
    r"|i(?:'m| am) (?:sorry|afraid),? but)\s+",
    re.IGNORECASE,
)
_ADVICE = re.compile(
    r"^it(?:'s| is) (?:important|worth|essential|crucial|advisable|best|always a good idea) to\s+",
    re.IGNORECASE,
)
_CONDITION = re.compile(r"^if you (?:have|need|want|would like)\b([^,]*,\s*)?", re.IGNORECASE)
# What a reader who still "has questions" or "needs help" is offered is more conversation.
_ASKING = re.compile(
    r"(?:any |further |more |other |additional |some )*(?:questions?|help|assistance|support|"
    r"information|info|details|anything|clarification|concerns?|queries|query|problems?|issues?)\b",
    re.IGNORECASE,
)
_RECOMMEND = re.compile(r"^i(?: would|'d)? (?:recommend|suggest|advise)\b", re.IGNORECASE)
# A framed statement that hedges or speaks of the conversation ("Please note that prices may
# vary", "…that I'm not a lawyer", "…that these are general guidelines") asserts nothing to
# ground unless it names something.
_HEDGE = re.compile(
    r"^(?:i|i'm|i’m|we|you|this|these|that|it|results)\b"
    r"|\b(?:may|might|could|vary|varies|depend|depends|subject to change|general|generally)\b",
    re.IGNORECASE,
)
_MORE_INFO = re.compile(
    r"^for (?:more|further|the most up-to-date)\b.*\b(?:information|details)\b.*"
    r"\b(?:recommend|visit|check|refer|consult|see)\b",
    re.IGNORECASE,
)
# A recommendation is checkable when it gives a reason that names something ("…the Pro plan,
# which includes 2 TB"), not "…customer service, as they can help".
_GROUNDS = re.compile(r"\b(?:which|because|since|as it|as they|with)\b", re.IGNORECASE)


def _framed(s: str) -> str | None:
    """The statement a lead-in frames ("" when it frames none), or None when `s` opens with none."""
    m = _NOTE_THAT.match(s)
    if m:
        rest = s[m.end() :]
        return "" if _HEDGE.search(rest) and not _SPECIFIC_RE.search(rest) else rest
    m = _ADVICE.match(s)
    if m:
        # "It's best to back up your data" is advice; "…to update to 3.2 first" names something,
        # and "…to take them with or after food" gives a step its occasion, as a step alone does.
        rest = s[m.end() :]
        return rest if _SPECIFIC_RE.search(rest) or _OCCASION_RE.search(rest) else ""
    m = _CONDITION.match(s)
    if m:
        # "If you need more storage, the Pro plan offers 2 TB" states a plan, and "If you have an
        # egg allergy, you'll need to have the vaccine in hospital" a rule; "If you have
        # questions, please reach out" and "…, I'm here to help" close the conversation.
        rest = s[m.end() :]
        if not m.group(1):
            return ""
        if _ASKING.match(m.group(1).strip()):
            return rest if _SPECIFIC_RE.search(rest) else ""
        return rest
    m = _RECOMMEND.match(s) or _MORE_INFO.match(s)
    if m:
        return s if _GROUNDS.search(s) and _SPECIFIC_RE.search(s, m.end()) else ""
    return None


# Generic advice ("Compare the quotes offered by each decorator.") asserts nothing checkable; a step
# that names something specific ("Open Settings > Billing and click Cancel.") can be checked against
# the source, so it is.
_IMPERATIVE = words(
    """add apply ask avoid be call check choose click compare consider consult contact create determine
    discuss do don't enable ensure enter find follow go install keep look make note open pick press
    read remember research run see select set shortlist start stop take talk try turn type use visit
    wait write"""
)
# A quote names something; an apostrophe inside a word ("Don't", "I'm") does not.
_SPECIFIC_RE = re.compile(
    r"\d|[>»→/\"“”`]|(?<!\w)['‘’]|['‘’](?!\w)|(?<=\w )[A-Z]|(?<![\w-])--?[a-z]"
    # A setting or a file ("log.level", "config.yaml") and a command ("npm install groundctl")
    r"|[a-z_]{2,}\.[a-z_]{2,}|\b(?:npm|pip|pipx|apt|apt-get|brew|git|docker|kubectl|yarn|cargo"
    r"|conda|curl|sudo) [a-z]"
)
# A step with its occasion or a warning is the source's instruction to check: "Take the tablets
# after a meal", "Do not drive after taking this medicine". Generic advice has neither ("Compare
# the quotes…", "Don't hesitate to ask").
_OCCASION_RE = re.compile(
    r"\b(?:after|before|within|during|until|while|without|on an empty stomach|every \w+ hours?"
    # ... or its place ("Keep in a dry place", "Keep out of the reach of children"), or the control
    # it names ("Use the import command", "Click the Export button")
    r"|in a (?:\w+ )?(?:place|container|room|fridge|refrigerator)|out of (?:the )?reach|away from"
    r"|at room temperature|the \w+ (?:command|button|option|menu|tab|setting|field|flag|endpoint))\b",
    re.IGNORECASE,
)
_WARNING_RE = re.compile(
    r"^(?:do not|don't|don’t|never) (?!hesitate|forget|worry|miss|be afraid|wait)\w"
    # "Avoid alcohol" warns; "Avoid rushing" advises
    r"|^avoid (?!\w+ing\b)\w",
    re.IGNORECASE,
)


# A reaction to what was said ("That's so cool!", "Yeah, it really is.", "Yes, he is.", "I can
# agree with that.") appraises or agrees and names nothing a source could back. A chatbot's turn
# often opens or closes with one, and read as a claim it found no support and failed the whole
# answer. Only sentences made wholly of these words count, so "That's a lot of moons" (moons) is
# still checked.
_REACTION_WORDS = words(
    "yes yeah yep yup no nope oh ah wow ha haha hmm well indeed really so very quite pretty too sure"
    " true right correct exactly absolutely definitely totally agree agreed same also just"
    " i me you it that this they we is was are were be been can could would will do does did not"
    " must have has had sounds seems seem a an the with of course lot what how"
    " cool awesome great nice good interesting amazing terrible awful sad funny crazy neat"
    " fascinating impressive shame pity love like think know guess bet hear heard see wonderful"
    " fantastic horrible strange weird surprising believe glad happy fun lovely beautiful"
    " incredible unbelievable scary insane he she him his her them"
)
_REACTION_MAX_WORDS = 8


def _is_reaction(text: str) -> bool:
    # Contractions as BEGIN and chat logs write them: "that's", "that 's", "don't", "do n't".
    plain = re.sub(r"\s*['’]\s*(?:s|re|m|ve|ll|d)\b|n\s*['’]\s*t\b", " ", text.lower())
    found = re.findall(r"[^\W\d_]+|\d", plain)
    return 0 < len(found) <= _REACTION_MAX_WORDS and all(w in _REACTION_WORDS for w in found)


def _manages_the_conversation(text: str) -> bool:
    """Greetings, "here is what I found", hopes, apologies, statements of absence (any UI language)."""
    # "I’m sorry" as typographers write it; "¡Espero que…!" as Spanish does.
    text = text.replace("’", "'").lstrip("¡¿ ")
    return bool(
        _NO_CHECK_START.search(text) or _NO_CHECK_OTHER.search(text) or _NO_CHECK_CJK.search(text)
    )


# A Markdown heading ("## Overview", "**Key facts**" on a line of its own) titles what follows and
# states nothing of its own; read as a claim it found no support and failed the whole answer. A
# heading as long as a sentence is read as one.
_HEADING_RE = re.compile(
    r"^ {0,3}(?:#{1,6}[ \t]+(?P<atx>.+?)(?:[ \t]+#+)?|(?P<em>\*\*|__)(?P<bold>[^*_\n]+)(?P=em):?)$"
)
_HEADING_WORDS = 8
# The row under a Markdown table's header: "|---|:---:|".
_SETEXT_RULE_RE = re.compile(r"^(?:=+|-+)$")
_TABLE_RULE_RE = re.compile(r"^\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?$")


def is_table_rule(line: str) -> bool:
    """Is this the row under a Markdown table's header ("|---|:---:|")?"""
    return _TABLE_RULE_RE.match(line.strip()) is not None


def _is_heading(sentence: str) -> bool:
    m = _HEADING_RE.match(sentence.strip())
    if not m:
        return False
    title = m.group("atx") or m.group("bold") or ""
    if m.group("bold") and title.rstrip().endswith((".", "。", "!", "！")):
        return False  # "**The tower is red.**" is a sentence set in bold
    return len(re.findall(r"[^\W_]+", title)) <= _HEADING_WORDS


_SHORT_FORMULAS = words(
    """hello hi hey thanks thank welcome bye goodbye cheers congratulations congrats great perfect
    noted understood done okay ok sure hola bonjour salut hallo ciao olá oi"""
)
# A date or time as a stamp writes it: "2024-05-01", "3 March 2021", "May 3, 2024", "May 2024",
# "05/03/2024", "10:42 UTC", a date with a time.
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_TIME = r"\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?(?:\s[A-Z]{2,4})?"
_DATE = (
    rf"(?:(?:\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}[/.]\d{{1,2}}[/.]\d{{2,4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s{_MONTH}\s\d{{4}}|{_MONTH}\s\d{{1,2}}(?:st|nd|rd|th)?,?\s\d{{4}}"
    rf"|{_MONTH}\s\d{{4}})(?:,?\s(?:at\s)?{_TIME})?|{_TIME})"
)
# Lines that cite rather than state: a footnote or link definition ("[^1]: Wikipedia, https://…",
# "[1]: https://… \"Title\""), an HTML comment, a stamp of when the answer or its source was made
# ("*Last updated: 2024-05-01*", "Retrieved May 2024"), or an item that is only an address or a link.
_CITING_LINE_RE = re.compile(
    r"^(?:\[\^?[^\]\n]{1,40}\]:"
    r"|<!--.*-->$"
    r"|[*_]*(?:last (?:updated|modified|reviewed)|updated|generated|retrieved|accessed)"
    r"(?::|\s+on|\s+at)?\s+" + _DATE + r"\.?[*_]*$"
    r"|<?(?:https?://|www\.)\S+>?$"
    r"|\[[^\]\n]*\]\((?:https?://|www\.)[^)\s]*\)$)",
    re.IGNORECASE,
)
# A section of sources after an answer: its items are references, not claims.
_SOURCES_HEADING_RE = re.compile(
    r"^[#*_ \t]*(?:sources?|references?|citations?|further reading|links|bibliography|quellen|"
    r"fuentes|referencias|références|fontes|参考|参考文献|出典|来源|來源)[*_ \t]*[:：]?[*_ \t]*$",
    re.IGNORECASE,
)
_FENCE_RE = re.compile(r"^ {0,3}(?:```|~~~)")


def _quiet_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges whose sentences need no check: fenced code (fences included) and the
    items of a sources section, up to the next blank line or heading."""
    ranges: list[tuple[int, int]] = []
    fence_start: int | None = None
    sources_start: int | None = None
    sources_items = 0
    for start, end in _line_spans(text):
        line = text[start:end]
        if fence_start is not None:
            if _FENCE_RE.match(line):
                ranges.append((fence_start, end))
                fence_start = None
            continue
        # A fence opens a block; "```pip install x``` installs it" is inline code.
        if _FENCE_RE.match(line) and not re.search(r"```|~~~", line.strip()[3:]):
            fence_start = start
            continue
        if sources_start is not None:
            blank = not line.strip()
            # Blank lines between the heading and its first item belong to the section.
            if (blank and sources_items) or line.lstrip().startswith("#"):
                ranges.append((sources_start, start))
                sources_start = None
            elif not blank:
                sources_items += 1
        if sources_start is None and _SOURCES_HEADING_RE.match(line):
            sources_start, sources_items = start, 0
    for open_start in (fence_start, sources_start):
        if open_start is not None:
            ranges.append((open_start, len(text)))
    return ranges


_EMPHASIS_RE = re.compile(r"(?<![\w*])[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}(?![\w*])")


def needs_check(sentence: str) -> bool:
    """Heuristic groundingCheckRequired: False for chit-chat, questions, list intros, hedges, generic
    advice, headings and an assistant's reports on its own search, in EN, ES, FR, DE, PT, ZH and JA."""
    if _is_heading(sentence) or _CITING_LINE_RE.match(sentence.strip()):
        return False
    # "é" written as "e" and a combining accent (NFD) is the same word to every pattern below
    if not unicodedata.is_normalized("NFC", sentence):
        sentence = unicodedata.normalize("NFC", sentence)
    # Emphasis is markup, not words: "Call *Dr.* Smith" names someone as "Call Dr. Smith" does.
    s = _EMPHASIS_RE.sub("", strip_markers(sentence)).strip("#>` ").strip()
    if not _HAS_WORD_RE.search(s):
        return False
    if s.endswith(("?", "？")) or s.startswith("¿"):
        return False
    if s.endswith((":", "：")):
        return False  # "Some reasons for this include:" introduces, the list items carry the claims
    framed = _framed(s)
    if framed is not None:
        # A recommendation with its grounds is checked as written, a framed statement as itself.
        return framed == s or (bool(framed) and needs_check(framed))
    if _manages_the_conversation(s) or _is_reaction(s) or _SIGN_OFF.match(s):
        return False
    first = re.split(r"[\s,]+", s, maxsplit=1)[0].lower()
    if (
        first in _IMPERATIVE
        and not re.search(r"\b(?:is|are|was|were|has|have|had)\b", s, re.I)
        and not _SPECIFIC_RE.search(s, len(first))
        and not _OCCASION_RE.search(s)
        and not _WARNING_RE.match(s)
    ):
        return False
    words = re.findall(r"[^\W_]+", s)
    # Very short exclamations ("Great!", "Hello there.", "太好了！") carry no checkable content; two
    # words of a statement ("Smith resigned.", "Prices doubled.") do. Chinese and Japanese write no
    # spaces, so there a word is a character and three make an exclamation ("はい！").
    if any(ch.isdigit() for ch in s):
        return True
    letters = [ch for ch in s if ch.isalpha()]
    if all(is_cjk(ch) for ch in letters):
        return not (len(letters) <= 3 and s.endswith(("!", "！")))
    short = len(words) <= 2
    return not (short and (s.endswith(("!", "！")) or words[0].lower() in _SHORT_FORMULAS))


def segment_claims(answer: str) -> list[Claim]:
    """The answer's claims with UTF-8 byte spans (end exclusive) and groundingCheckRequired."""
    offsets = byte_offsets(answer)
    quiet = _quiet_ranges(answer)
    segments = split_sentences(answer)
    claims = [
        Claim(
            offsets[seg.start],
            offsets[seg.end],
            seg.text,
            needs_check(seg.text) and not any(s <= seg.start < e for s, e in quiet),
        )
        for seg in segments
    ]
    # A table's header row names its columns ("| City | Population |"); its data rows are claims.
    # A line right over "===" or "---" is a heading (Markdown's setext form); after a blank line,
    # "---" is a rule between sections, and the sentence above it a claim.
    for i in range(len(claims) - 1):
        between = answer[segments[i].end : segments[i + 1].start]
        if len(_LINE_SPLIT_RE.findall(between)) != 1 or between.strip(" \t\r\n"):
            continue
        header = "|" in claims[i].text and _TABLE_RULE_RE.match(claims[i + 1].text)
        setext = _SETEXT_RULE_RE.match(claims[i + 1].text) and _is_heading(f"# {claims[i].text}")
        if header or setext:
            claims[i] = replace(claims[i], check_required=False)
    return _without_signature(answer, segments, claims)


def _without_signature(answer: str, segments: list[Segment], claims: list[Claim]) -> list[Claim]:
    """The claims with the lines under a sign-off ("Best regards,\nThe Support Team") unchecked:
    a signature names who wrote, and no source backs it."""
    for i, claim in enumerate(claims[:-1]):
        between = answer[segments[i].end : segments[i + 1].start]
        if not (_SIGN_OFF.match(claim.text.strip()) and _LINE_SPLIT_RE.search(between)):
            continue
        for j in range(i + 1, len(claims)):
            text = claims[j].text
            if len(text.split()) > _SIGNATURE_WORDS or any(ch.isdigit() for ch in text):
                break
            claims[j] = replace(claims[j], check_required=False)
        break
    return claims
