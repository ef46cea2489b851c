"""Numbers as a claim and a page write them, and when one backs another.

A number is read with what it needs to be compared: its unit ("100 MB" is not "100 GB"), its
qualifier ("over 1,500"), whether it is a year, a count or a place in a row, the words it counts
and the time an amount is per (`Number`, `extract_numbers`). `numbers_match` says whether a page's
number backs a claim's: units converted, rounding as the claim writes it, spans of years.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from .lexical import (
    CJK_RE,
    DETERMINERS,
    DIGIT_WORDS,
    EXCEED,
    MONTHS,
    NUMBER_WORDS,
    STOPWORDS,
    TENS_WORDS,
    TOKEN_RE,
    is_cjk,
    stem,
    words,
)


@dataclass(frozen=True)
class Number:
    """One number of a text, with what comparing it with another needs."""

    value: float
    # "gt" (over/more than/at least), "lt" (under/less than/up to), "about", or "" (exact); for a
    # span of years, "decade" ("the 1990s": 1990) or "century" ("the 12th century": 12).
    qualifier: str
    is_year: bool
    # The unit written after it ("mb", "gb", "km", "%"), "" when none: 100 MB is not 100 GB.
    unit: str = ""
    # Written in digits and neither a year nor the day of a month: a count or an amount.
    count: bool = False
    # As written, with its scale and unit ("1.5 million", "100 MB"), for showing to a person.
    text: str = field(default="", compare=False)
    # Stems of the words right after it, which say what it counts ("four products" -> "product").
    counted: frozenset[str] = field(default=frozenset(), compare=False)
    # A count the text itself lists the items of ("two plans, Basic and Pro"): what backs it is what
    # backs each item.
    listed: bool = field(default=False, compare=False)
    # A place in a row ("12th", "twelfth"), read by `_ranges` ("the 18th and 19th centuries"). It
    # matches a count all the same: "the fifth season" is "season 5", and "9th grade" "grade 9".
    ordinal: bool = field(default=False, compare=False)
    # The time an amount is per ("$40 a month", "$299/month", "$480 annually": "month", "year"), ""
    # when none is written: "$40 a month" is not "$40 a year".
    rate: str = field(default="", compare=False)
    # The index of its first token in its text's tokens (-1 when unknown).
    at: int = field(default=-1, compare=False)
    # A year counted from another ("two years later" after 1996: 1998): the years counted, which a
    # page that writes the span as the claim does ("Two years later, …") states too.
    span: float = field(default=0.0, compare=False)
    # A decimal that names a release ("Python 3.11", "version 2.5"): it is what it is, not a measure
    # a claim rounds ("defaults to 3" is no "Python 3.11").
    version: bool = field(default=False, compare=False)


_DECADE = re.compile(r"(\d{3}0)['’]?s")
_ORDINAL_DIGITS = re.compile(r"(\d+)(?:st|nd|rd|th)", re.IGNORECASE)
_SCALES = {
    "thousand": 1e3,
    "million": 1e6,
    "millions": 1e6,
    "billion": 1e9,
    "billions": 1e9,
    "trillion": 1e12,
    "k": 1e3,
    "m": 1e6,
    "bn": 1e9,
    # The other languages the UI shows ("1,5 Mio.", "2,8 Mrd.", "1,5 millones", "3 milliards").
    **dict.fromkeys(words("mio millionen millones millón milhão milhões milione milioni"), 1e6),
    **dict.fromkeys(words("mrd milliard milliards milliarde milliarden miliardi"), 1e9),
    # "3 mil" is 3,000 in Spanish and Portuguese, and "3 mil millones" 3 billion.
    **dict.fromkeys(words("tsd tausend mil"), 1e3),
    # Chinese, Japanese and Korean count in ten thousands: "150万" is 1,500,000.
    **dict.fromkeys("万萬만", 1e4),
    **dict.fromkeys("亿億억", 1e8),
}
# "a million", "one billion", "eine Million", "un millón", "plus d'un million": the article is the
# count. Only a scale written as a word: "a k" and "a m" are nothing.
_ONE_OF_A_SCALE = words("a an one un une d'un d'une ein eine einer einen um uma uno una")
_WORD_SCALES = frozenset(k for k in _SCALES if k.isalpha() and len(k) > 3)
# "a million-dollar home" and "a thousand-year reign" say what kind, not how many.
_SCALE_AS_ADJECTIVE = words("dollar euro pound year mile")
# "499 USD" is "$499" (`_CURRENCY_SIGNS`), and a price, not a year ("1999 USD").
_CURRENCY_CODES = {
    "usd": "dollars",
    "eur": "euros",
    "gbp": "pounds",
    "jpy": "yen",
    "cny": "yuan",
    "rmb": "yuan",
    # The rest are their own unit: "NOK 4.8 billion" is an amount, not a name "NOK".
    **{c: c for c in words("nok sek dkk chf cad aud nzd inr krw brl mxn zar sgd hkd pln")},
}
# Units that change what a number means; spellings map to one name.
UNITS = {
    **{
        u: u
        for u in words("kb mb gb tb pb kbps mbps gbps hz khz mhz ghz mm cm km kg mg ml kw mw gw")
    },
    **{u: u for u in words("kwh mwh gwh percent dollars euros pounds yen yuan miles feet meters")},
    **{u: u for u in words("g l w v minutes hours days weeks months years seconds")},
    "%": "percent",
    "percents": "percent",
    "am": "am",
    "pm": "pm",
    # A symbol and the word it abbreviates are one unit: "330 m" is "330 metres".
    "m": "meters",
    "meter": "meters",
    "metre": "meters",
    "metres": "meters",
    **{u: "cm" for u in words("centimetre centimetres centimeter centimeters")},
    **{u: "mm" for u in words("millimetre millimetres millimeter millimeters")},
    **{
        u: "µm" for u in words("µm μm micrometre micrometres micrometer micrometers micron microns")
    },
    **{u: "nm" for u in words("nm nanometre nanometres nanometer nanometers")},
    **{u: "g" for u in words("gram grams gramme grammes")},
    **{u: "mg" for u in words("milligram milligrams")},
    **{u: "l" for u in words("litre litres liter liters")},
    **{u: "ml" for u in words("millilitre millilitres milliliter milliliters")},
    **{u: "w" for u in words("watt watts")},
    **{u: "kw" for u in words("kilowatt kilowatts")},
    **{u: "mw" for u in words("megawatt megawatts")},
    **{u: "gw" for u in words("gigawatt gigawatts")},
    **{u: "km" for u in words("kilometre kilometer")},
    **{u: "kg" for u in words("kilogram kilogramme kilogrammes")},
    **{u: "v" for u in words("volt volts")},
    **{u: "hz" for u in words("hertz")},
    "s": "seconds",
    "sec": "seconds",
    "secs": "seconds",
    "h": "hours",
    "hr": "hours",
    "hrs": "hours",
    "min": "minutes",
    "mins": "minutes",
    "yr": "years",
    "yrs": "years",
    "mi": "miles",
    "lb": "pounds",
    "lbs": "pounds",
    "mile": "miles",
    "foot": "feet",
    "ft": "feet",
    "dollar": "dollars",
    **_CURRENCY_CODES,
    "euro": "euros",
    "pound": "pounds",
    "gigabytes": "gb",
    "megabytes": "mb",
    "kilobytes": "kb",
    "terabytes": "tb",
    "kilometres": "km",
    "kilometers": "km",
    "kilograms": "kg",
    "minute": "minutes",
    "hour": "hours",
    "day": "days",
    "week": "weeks",
    "month": "months",
    "year": "years",
    "decade": "decades",
    "decades": "decades",
    "second": "seconds",
    # Other languages' words for a span of time, so that "2 mois" is no "2 ans" ("tag", "ore" and
    # "an" stay out: English words that follow numbers).
    **{u: "months" for u in words("mois mes meses mês monat monate monaten mese mesi")},
    **{u: "years" for u in words("ans année années año años ano anos jahr jahre jahren anno anni")},
    **{u: "days" for u in words("jour jours día días dia dias tage tagen giorno giorni")},
    **{
        u: "weeks"
        for u in words("semaine semaines semana semanas woche wochen settimana settimane")
    },
    **{u: "hours" for u in words("heure heures hora horas stunde stunden")},
    **{u: "minutes" for u in words("minuto minutos minuten minuti")},
    # "25°C" as `normalise` writes it
    "celsius": "celsius",
    "fahrenheit": "fahrenheit",
    # Areas, as `normalise` writes them ("52 km2", "20 square miles": "52 km²", "20 mi²")
    **{u: u for u in words("km² m² mi² ft²")},
    **{u: "acres" for u in words("acre acres")},
    **{u: "ha" for u in words("ha hectare hectares")},
    # Speeds, as `normalise` writes them ("97 km/h", "97 kilometres per hour": "97 kph")
    "mph": "mph",
    "kph": "kph",
    # Percentage points are no percent: "rose 0.25 percentage points" is not "rose 0.25%".
    "ppts": "ppts",
    "bps": "bps",
    "bp": "bps",
}
# With the other languages' bounds before a number ("mehr als", "más de", "mais de", "über 2"):
# a bound unread is an exact number, which a larger one on the page contradicts.
_MORE = words(
    "over more above exceeding exceeds exceeded beyond greater least mehr über más mais oltre"
)
_FEWER = words("under less below fewer weniger menos moins meno")
# French writes its bounds with "de" ("plus de 2 millions", "moins d'un an", "près de 300"), and
# "plus" alone adds in English.
_FRENCH_BOUNDS = {"plus": "gt", "moins": "lt", "près": "about"}
_ABOUT = frozenset(
    [
        "about",
        "around",
        "approximately",
        "roughly",
        "some",
        "nearly",
        "almost",
        "estimated",
        "ca",
        "circa",
        *words(
            "rund etwa ungefähr knapp environ aproximadamente alrededor cerca casi quase unos unas"
        ),
    ]
)


# "$499", "15%": the sign is no token, but it is the number's unit ("$50" is not "50%"). Yen and
# yuan both write "¥", so its unit is either (`same_unit`).
_YEN_OR_YUAN = "yen or yuan"
_CURRENCY_SIGNS = {"$": "dollars", "＄": "dollars", "€": "euros", "£": "pounds", "¥": _YEN_OR_YUAN}
_MONEY_UNITS = frozenset(_CURRENCY_CODES.values()) | {_YEN_OR_YUAN}


def is_money(unit: str) -> bool:
    """A currency's name or code, or its sign with letters before it ("R$", "A$")."""
    return unit in _MONEY_UNITS or unit.endswith(("$", "€", "£", "¥"))


_SIGN_OF = {"dollars": "$", "euros": "€", "pounds": "£", _YEN_OR_YUAN: "¥"}
# Tokenised corpora write "$ 181,674,817"; a range writes its sign once ("$10-20", "10–20%"). A
# spaced dash is punctuation, not a range ("He scored 12 — 40% of the points"). Letters before the
# sign make another currency of it, "R$" (reais) or "A$" ("US$" is "$" by now).
_SIGN_BEFORE = re.compile(r"(?<![^\W\d_])([A-Za-z]{0,3})([$＄€£¥]) ?(?:\d[\d.,]*[-–])?$")
# "41.3 %" and "41,3 %" with a no-break or narrow no-break space, as French and Wikipedia write it
_PERCENT_AFTER = re.compile(r"(?:[-–]\d[\d.,]*)?[ \u00a0\u202f\u2009]?[%％]")


# A number joined by a hyphen to the word before it is part of a name, not an amount: "Tsubame-2",
# "Soyuz MS-06", "COVID-19", "F-16" (a digit before the hyphen makes a range instead: "5-10").
_NAMED_NUMBER = re.compile(r"[^\W\d_]-$")
_NAMED = "named"
# A clock's hour and its minutes and seconds ("21:16", "21:16:56"): units of their own, which back
# the same time and nothing else, neither "one of 16 kids" nor "died on 16 May".
HOUR_OF_DAY = "o'clock"
_PAST_THE_HOUR = "past the hour"
# What a sign beside a number may give it that is no currency
_SIGNS_OF_NO_MONEY = frozenset(["percent", HOUR_OF_DAY, _PAST_THE_HOUR])
_CLOCK_BEFORE = re.compile(r"(?<![\d:])(?:[01]?\d|2[0-4]):(?:[0-5]\d:)?$")
# ASCII digits only: "²" is a digit to `str.isdigit`, and no number to `int`
_MINUTES = re.compile(r"[0-5][0-9]")
_HOUR = re.compile(r"[01]?[0-9]|2[0-4]")
_CLOCK_AFTER = re.compile(r":[0-5]\d(?![\d:]\d)|:[0-5]\d:[0-5]\d(?!\d)")

# A minus sign right before a number or its currency sign: "-$250", "−12 °C", "(-5%)". Not after a
# digit ("5 -10" is a range) or a letter ("COVID-19"), and not a dash spaced off ("- 5 items").
_MINUS_BEFORE = re.compile(r"(?:^|(?<=[\s(\[:=/]))(?<!\d )[-−][$＄€£¥]?$")


# A number next ("and 40", "and $40", "or -5"): the "and" before it joins a range, not two clauses.
_NUMBER_NEXT = re.compile(r"\s*[-−]?[A-Za-z]{0,3}[$＄€£¥]?\s?\d")


def signed_tokens(text: str) -> tuple[list[str], list[str], list[int]]:
    """`tokenize`'s tokens, for each the unit a sign around it gives ("dollars" for "$499",
    "percent" for "15%"; "" for most; a negative number's sign starts with "-"), and the number
    of the clause it is in (`Analysis.clauses`)."""
    out: list[str] = []
    signs: list[str] = []
    clauses: list[int] = []
    clause, last = 0, 0
    for m in TOKEN_RE.finditer(text):
        tok = m.group(0)
        if (
            out
            and (
                _CLAUSE_BREAK.search(text, last, m.start())
                # "No. Shared notes only show plain text" answers a question, and "No." ends there
                or (len(out) == 1 and out[0].lower() in _ANSWERS and "." in text[last : m.start()])
                # "between 30 and 40 years" is one range, but "to $11,900 and sets aside" two clauses
                or (
                    tok.lower() in _CLAUSE_WORDS
                    and not (out[-1][0].isdigit() and _NUMBER_NEXT.match(text, m.end()))
                )
            )
        ):
            clause += 1
        last = m.end()
        if not tok.isascii() and CJK_RE.search(tok):
            out.extend(ch for ch in tok)
            signs.extend("" for _ in tok)
            clauses.extend(clause for _ in tok)
            continue
        out.append(tok)
        clauses.append(clause)
        sign = ""
        if tok[0].isdigit():
            before = _SIGN_BEFORE.search(text, max(0, m.start() - 24), m.start())
            if _PERCENT_AFTER.match(text, m.end()):
                sign = "percent"
            elif before:
                prefix, symbol = before.groups()
                sign = f"{prefix.lower()}{symbol}" if prefix else _CURRENCY_SIGNS[symbol]
            if _MINUS_BEFORE.search(text, max(0, m.start() - 3), m.start()):
                sign = f"-{sign}"
            elif not sign and _NAMED_NUMBER.search(text, max(0, m.start() - 2), m.start()):
                sign = _NAMED
            elif (
                not sign
                and _MINUTES.fullmatch(tok)
                and _CLOCK_BEFORE.search(text, max(0, m.start() - 6), m.start())
            ):
                sign = _PAST_THE_HOUR
            elif (
                not sign
                and _HOUR.fullmatch(tok)
                and _CLOCK_AFTER.match(text, m.end())
                and not _CLOCK_BEFORE.search(text, max(0, m.start() - 6), m.start())
            ):
                sign = HOUR_OF_DAY
        signs.append(sign)
    return out, signs, clauses


# A colon opens a clause where a space follows it: "2:1" and "10:30" are one number's. Brackets
# open none: "more than 15,000 sketches (8,000 alone for the costumes)" says the 8,000 of them.
_CLAUSE_BREAK = re.compile(r"[,;，；：、]|:(?!\S)|\s[–—-]\s")
_CLAUSE_WORDS = frozenset(["and", "or", "but", "while", "whereas"])
_ANSWERS = frozenset(["no", "yes", "nope", "yeah", "yep"])


# "2.500.000" and "1.234,56" as German writes them; one dot ("2.500") stays a decimal point.
_DOTTED_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}(?:\.\d{3})+,\d+")
# "2.3.1", "10.0.0.1": a version or an address, read as one number with a unit of its own
# ("2.3.1" against "2.4.0" conflicts; as two decimals it had read as nothing).
DOTTED = "dotted"
_DOTTED_PARTS = re.compile(r"\d{1,3}(?:\.\d{1,3}){2,}")


def _parse_number(tok: str) -> float | None:
    if _DOTTED_THOUSANDS.fullmatch(tok):
        return float(tok.replace(".", "").replace(",", "."))
    t = tok.replace(",", "") if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", tok) else tok
    if "," in t:  # "3,5" style decimal comma, or a list like "1,2": take it as written, no value
        t = t.replace(",", ".") if re.fullmatch(r"\d+,\d{1,2}", t) else t
    try:
        return float(t)
    except ValueError:
        return None


# How far apart "from 5.1" and "to 4.8" may stand ("from 5.1% in May to 4.8%").
_CHANGE_REACH = 5


def changes(tokens: Sequence[str]) -> list[tuple[float, float]]:
    """The moves a text states from one number to another, as (from, to): "fell from 5.1% to
    4.8%" and "eased to 2.4% from 2.7%" give (5.1, 4.8) and (2.7, 2.4)."""
    out: list[tuple[float, float]] = []
    for i in range(len(tokens) - 1):
        if tokens[i] not in ("from", "to"):
            continue
        start = _parse_number(tokens[i + 1])
        if start is None:
            continue
        partner = "to" if tokens[i] == "from" else "from"
        for j in range(i + 2, min(len(tokens) - 1, i + 2 + _CHANGE_REACH)):
            if tokens[j] != partner:
                continue
            end = _parse_number(tokens[j + 1])
            if end is not None:
                out.append((start, end) if partner == "to" else (end, start))
            break
    return out


# A lower-case "m" after a number that is no money: "330 m tall" is metres and "population of
# 2.1m" millions, and the words around do not tell them apart reliably. Such a number keeps both
# readings (`_readings`), and matches a number that fits either.
METRES_OR_MILLIONS = "metres or millions"


def _is_money(sign: str, lowered: Sequence[str], k: int) -> bool:
    """A currency sign before the number, or a currency word at lowered[k] ("5m euros")."""
    if sign and sign != "percent":
        return True
    return k < len(lowered) and UNITS.get(lowered[k], "") in _MONEY


# "holds 1984 books", "sold 1500 copies": a word that counts before a four-digit number, and a
# plural after it, make it a count. "In 1984 books were banned", "its 2021 results" and "below
# 1990 levels" date.
_COUNTING = words(
    "holds hold held has have had employs employed sold sells contains contained includes included"
    " over nearly almost approximately exactly roughly some only just total totals reached hosts"
    " houses registered recorded counts counted more than"
)
_DATED_PLURALS = words("levels prices standards figures rates values terms dollars numbers")


def _counts_things(lowered: Sequence[str], i: int) -> bool:
    if i == 0 or i + 1 >= len(lowered) or lowered[i - 1] not in _COUNTING:
        return False
    after = lowered[i + 1]
    if lowered[i - 1] == "than" and (i < 2 or lowered[i - 2] not in ("more", "fewer")):
        return False  # "lower than 1990 levels"
    return (
        after.isalpha()
        and after.endswith("s")
        and len(after) > 3
        and after not in STOPWORDS
        and after not in MONTHS
        and after not in _DATED_PLURALS
    )


def extract_numbers(tokens: list[str], signs: Sequence[str] = ()) -> list[Number]:
    """Numbers with magnitude words folded in ("1.5 million") and a preceding qualifier kept;
    `signs` (from `signed_tokens`) gives a number the unit its "$" or "%" writes."""
    out: list[Number] = []
    at: list[tuple[int, int]] = []  # each number's token and the token after its scale
    lowered = [t.lower() for t in tokens]
    negative = {i for i, sign in enumerate(signs) if sign[:1] == "-"}
    named = {i for i, sign in enumerate(signs) if sign == _NAMED}
    if negative or named:
        signs = ["" if sign == _NAMED else sign.removeprefix("-") for sign in signs]
    for i, tok in enumerate(lowered):
        if at and at[-1][1] > i:
            continue  # the scale of the number before: "3 mil millones", "3 Tausend"
        value: float | None
        first = i  # where the number's text starts
        in_words: int | None = None  # where a number written in several words ends
        digits = tok[0].isdigit()
        decade = _DECADE.fullmatch(tok) if digits else None
        place = _ORDINAL_DIGITS.fullmatch(tok) if digits else None
        found = decade or place
        if found:
            value = float(found.group(1))
        elif digits:
            value = _parse_number(tok)
            if value is None and _DOTTED_PARTS.fullmatch(tok):
                parts = tok.split(".")
                value = float("".join(f"{int(p):03d}" for p in parts))
                out.append(Number(value, "", False, DOTTED, True, tok))
                at.append((i, i + 1))
                continue
        elif (found_share := _share_of(lowered, i)) is not None:
            share, start = found_share
            text = " ".join(tokens[start : i + 1])
            # "more than half" is a bound, as "more than 50%" is; a share otherwise rounds
            before = lowered[max(0, start - 2) : start]
            bound = (
                "gt" if _MORE.intersection(before) else "lt" if _FEWER.intersection(before) else ""
            )
            out.append(Number(share, bound or "about", False, "percent", True, text))
            at.append((i, i + 1))
            continue
        elif (compound := _number_in_words(lowered, i)) is not None:
            value, in_words = compound
        elif _article_counts_scale(lowered, i):
            half = i > 0 and lowered[i - 1] == "half"  # "half a million"
            value, first = (0.5, i - 1) if half else (1.0, i)
        elif (
            tok in NUMBER_WORDS
            and (tok != "one" or _one_counted(lowered, i, tokens[i] != tok))
            and (tok != "second" or _second_in_a_row(lowered, i))
        ):
            # "one" is far more often a pronoun than a checkable number, and "second" a unit of
            # time ("a second", "every second") unless it follows "the" or a possessive.
            if i + 1 < len(lowered) and lowered[i + 1] in _FRACTIONS:
                continue  # "two-thirds of voters" is a share, not two voters
            if tok in _ORDINALS and i > 0 and lowered[i - 1] in _UNITS:
                continue  # "one-tenth": a share, not a place in a row
            if tok in _ORDINALS and _in_a_name(tokens, i):
                continue  # "the Fourth Presbyterian Church", "the Second World War": a name
            if tok == "first" and _first_as_adverb(lowered, i):
                continue  # "first built in 1907", "was first published": when, not which
            value = float(NUMBER_WORDS[tok])
        else:
            continue
        if value is None:
            continue
        sign = signs[i] if i < len(signs) else ""
        # "$1999" is a price, not a year
        written = (tok.isdigit() and len(tok) == 4) or decade is not None
        is_year = not sign and written and 1000 <= value <= 2100
        scaled = in_words is None and i + 1 < len(lowered) and lowered[i + 1] in _SCALES
        # "M" is millions ("30M users"), and so is "m" of money ("$5m"); otherwise it is either.
        either = (
            scaled and tokens[i + 1] == "m" and not is_year and not _is_money(sign, lowered, i + 2)
        )
        if either:
            scaled = False
        if scaled:
            value *= _SCALES[lowered[i + 1]]
            is_year = False
        unit = ""
        j = in_words if in_words is not None else i + 2 if scaled else i + 1
        # "3 mil millones" and "two thousand million" are 3 and 2 billion
        if scaled and j < len(lowered) and lowered[j] in _WORD_SCALES:
            value *= _SCALES[lowered[j]]
            j += 1
        word_unit = UNITS.get(lowered[j], "") if j < len(lowered) else ""
        if (
            digits
            and not (word_unit or sign or place)
            and (span_at := _span_after(lowered, j)) is not None
        ):
            # "5 business days", "20 unused vacation days": days, as "5 days" is
            j, word_unit = span_at, UNITS[lowered[span_at]]
        # "$499/month" is an amount of dollars a month, not 499 months: the sign outranks the word,
        # which then says what the amount is of, unless it says the same ("$499 USD").
        if either:
            word_unit = METRES_OR_MILLIONS
        if sign == _PAST_THE_HOUR and word_unit in ("am", "pm") and out and at[-1][0] == i - 1:
            # "10:30 am": the half of the day belongs to the hour (`numbers_match` reads "1 pm" as
            # "13:00"); the minutes stay a clock's.
            out[-1] = replace(
                out[-1], unit=word_unit, text=f"{out[-1].text.rstrip(':')} {word_unit}"
            )
            word_unit = ""
        if word_unit and (not sign or same_unit(word_unit, sign)):
            unit = word_unit
            # "1999 USD" is a price; "In 2019 hours were cut" and "in 2019 dollars" still date
            is_year = is_year and lowered[j] not in _CURRENCY_CODES
        if is_year and _counts_things(lowered, i):
            is_year = False
        qualifier = ""
        # "more than a dozen", "nearly a hundred": the article sits between the bound and the number.
        reach = 3 if i > 0 and lowered[i - 1] in ("a", "an") else 2
        window = lowered[max(0, i - reach) : i]
        if any(w in _ABOUT for w in window):
            qualifier = "about"
        # "taken over in 1996" bounds nothing: a preposition stands between
        if any(w in _MORE for w in window) and window[-1] not in _BEFORE_A_DATE:
            qualifier = "gt"
        if any(w in _FEWER for w in window) or window[-2:] == ["at", "most"]:
            qualifier = "lt"
        if tok in ("d'un", "d'une") and window:  # "plus d'un million"
            qualifier = _FRENCH_BOUNDS.get(window[-1], qualifier)
        elif len(window) == 2 and window[-1] == "de":  # "plus de 2 millions"
            qualifier = _FRENCH_BOUNDS.get(window[0], qualifier)
        # "up to 10 users" is a ceiling: the other side of "at least 10", but no bound that a
        # smaller number backs ("up to 100 MB" is not "10 MB").
        if window[-2:] == ["up", "to"] and not is_year:
            qualifier = "max"
        # "a maximum of 5 days" is "up to 5 days", and "a minimum of 8 characters" "at least 8"
        if window[-2:] in (["maximum", "of"], ["minimum", "of"]):
            qualifier = "max" if window[-2] == "maximum" else "gt"
        # "must not exceed 7 kg" and "cannot exceed 7 kg" are ceilings too
        if len(window) >= 2 and window[-1] in EXCEED and _negation(window[-2]):
            qualifier = "max"
        # "低于45°C" is below 45 °C, "超过3天" more than 3 days and "不超过3天" at most 3 days
        if i >= 2 and is_cjk(lowered[i - 1]):
            qualifier = _CJK_BOUNDS.get("".join(lowered[i - 2 : i]), qualifier)
            qualifier = _CJK_BOUNDS.get("".join(lowered[max(0, i - 3) : i]), qualifier)
        # "no fewer than 30" is at least 30, and "not more than a dozen" at most 12; "No one under
        # 18" and "No, more than 30 came" keep their bound.
        than = i - reach + 1
        if (
            qualifier in ("gt", "lt")
            and than >= 2
            and lowered[than] == "than"
            and lowered[than - 2] in ("no", "not")
        ):
            qualifier = "lt" if qualifier == "gt" else "gt"
        ordinal = place is not None or tok in _ORDINALS
        period = _period(lowered, i, value, is_year, ordinal, decade is not None)
        if period:
            qualifier, is_year, unit = period, True, ""
        elif decade and tok[-2] not in "'’":  # "1000s of customers" counts thousands
            is_year = False
        near = lowered[max(0, i - 1) : i] + lowered[i + 1 : i + 2]
        count = (
            (digits or _in_a_chart(lowered, i))
            and not is_year
            and not any(w in MONTHS for w in near)
            and i not in named
        )
        text = " ".join(tokens[first : j + 1 if unit else j])
        if period == "century":
            text = f"{tokens[i]} {tokens[i + 1]}"  # "12th century", "twenty-first century"
        end = j + 1 if unit else j  # the token after the number, its scale and its unit word
        after = lowered[end:][:2]
        if sign:
            # "¥500 yen" says which of the two "¥" writes
            unit = unit or sign
            if sign == "percent":
                text = f"{text}%"
            elif sign == HOUR_OF_DAY:
                text = f"{text}:"
            elif sign == _PAST_THE_HOUR:
                text = f":{text}"
            else:
                text = f"{_SIGN_OF.get(sign, sign.upper())}{text}"
        counted = frozenset(stem(w) for w in after if w not in STOPWORDS and w[0].isalpha())
        if _in_a_chart(lowered, i):
            counted |= {"number"}  # "number one" against "number 9"
        money = bool(sign and sign not in _SIGNS_OF_NO_MONEY) or unit in _MONEY
        rate = "" if is_year or ordinal else _rate(lowered, end, money)
        # "$40 a month" and "a monthly fee of $40" read "$40 a month"; "3 albums a year" stays "3"
        spelled = bool(rate) and lowered[end] in _RATE_WORDS
        if money and not (rate or is_year or ordinal):
            rate = _rate_before(lowered, i, end)
            spelled = bool(rate)
        if spelled:
            text = with_rate(text, rate)
        if i in negative:
            value, is_year, text = -value, False, f"-{text}"
        version = not (unit or scaled) and "." in tok and _names_a_release(tokens, i)
        out.append(
            Number(
                value,
                qualifier,
                is_year,
                unit,
                count,
                text,
                counted,
                ordinal=ordinal,
                rate=rate,
                version=version,
            )
        )
        at.append((i, j))
    return [
        replace(n, at=i) for n, (i, _) in zip(_ranges(out, at, lowered, signs), at, strict=True)
    ]


_CJK_BOUNDS = {
    **dict.fromkeys(("低于", "低於", "少于", "少於", "小于", "小於", "不到", "不足"), "lt"),
    **dict.fromkeys(("高于", "高於", "多于", "多於", "大于", "大於", "超过", "超過", "至少"), "gt"),
    **dict.fromkeys(("大约", "大約"), "about"),
    **dict.fromkeys(("不超过", "不超過", "不多于", "不多於"), "lt"),
}
_CENTURY = frozenset(["century", "centuries"])
_BEFORE_CHRIST = frozenset(["bc", "bce"])
_RANGE_WORDS = frozenset(["to", "and", "through", "or"])
# "4 to 6 m" and "5-10k" are metres and thousands as often as millions: only a scale that cannot be
# anything else spreads over a range
_RANGE_SCALES = {k: v for k, v in _SCALES.items() if k not in ("k", "m")}
# A past participle after "first" makes it an adverb. Not "-ed" words that are nouns or
# adjectives ("the first red card", "the first hundred days", "the first seed").
_PARTICIPLE = re.compile(
    r"(?!(?:hundred|red|bed|seed|speed|need|feed|breed|shed|tweed|sled|steed|weed)$)[a-z]{2,}ed"
    r"|built|made|held|shown|seen|written|known|found|begun|sold|drawn|taken|given|brought|told"
    r"|won|spoken|grown|heard|sung|flown|worn|thrown"
)


def is_participle(token: str) -> bool:
    """Is the lowercase token a past participle ("published", "built")?"""
    return _PARTICIPLE.fullmatch(token) is not None


# "a fifth of services", "two-thirds of patients", "nearly half of voters", "cut by a third": a
# share, in percent.
_DENOMINATORS = {
    "half": 2,
    "halves": 2,
    "third": 3,
    "thirds": 3,
    "quarter": 4,
    "quarters": 4,
    "fifth": 5,
    "fifths": 5,
    "tenth": 10,
    "tenths": 10,
}
_NUMERATORS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "nine": 9}
# "half" alone is as often an hour's, a match's or a year's ("the first half of 2004"): a share
# only after a bound ("nearly half", "more than half") or opening its sentence ("Half of…")
_HALF_LEADS = frozenset(["nearly", "almost", "about", "around", "roughly", "over", "than", "just"])


_ONES = words(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
    " sixteen seventeen eighteen nineteen"
)
_CARDINAL_WORDS = {w: NUMBER_WORDS[w] for w in _ONES | set(TENS_WORDS.split("|"))}
_CARDINAL_WORDS |= {
    f"{tens}-{unit}": NUMBER_WORDS[tens] + NUMBER_WORDS[unit]
    for tens in TENS_WORDS.split("|")
    for unit in _ONES
    if 1 <= NUMBER_WORDS[unit] <= 9
}
_SCALES_IN_WORDS = ("thousand", "million", "billion", "trillion")


def _number_in_words(lowered: Sequence[str], i: int) -> tuple[float, int] | None:
    """A number written in several English words, and the index after them: "two hundred and
    nineteen" is 219 and "three thousand five hundred" 3,500, not 2, 100 and 19. None where the
    words are one number and a scale at most ("forty", "three thousand"), which
    `extract_numbers` reads on its own."""
    total = part = 0.0
    last = ""  # what the word before was: "small", "hundred", "scale" or "and"
    compound = False
    j = i
    while j < len(lowered):
        w = lowered[j]
        if w in _CARDINAL_WORDS and (
            last in ("", "scale") or (last in ("hundred", "and") and not part % 100)
        ):
            compound = compound or last != ""
            part += _CARDINAL_WORDS[w]
            last = "small"
        elif w == "hundred" and last == "small" and part < 100:
            part *= 100
            compound = True
            last = "hundred"
        elif w in _SCALES_IN_WORDS and last in ("small", "hundred"):
            total += part * _SCALES[w]
            part = 0.0
            last = "scale"
        elif (
            w == "and"
            and last in ("hundred", "scale")
            and j + 1 < len(lowered)
            and lowered[j + 1] in _CARDINAL_WORDS
            # "between two hundred and three hundred" joins two numbers, not 203 and 100
            and (lowered[j + 2 : j + 3] or [""])[0] not in ("hundred", *_SCALES_IN_WORDS)
        ):
            last = "and"
        else:
            break
        j += 1
    return (total + part, j) if compound else None


def _in_a_name(tokens: Sequence[str], i: int) -> bool:
    """Is the word at `i` capitalised before another capitalised word, as in a name?"""
    after = tokens[i + 1] if i + 1 < len(tokens) else ""
    return tokens[i][:1].isupper() and after[:1].isupper() and after.isalpha()


_RELEASE_WORDS = frozenset(["version", "v", "ver", "release"])


def _names_a_release(tokens: Sequence[str], i: int) -> bool:
    """Is the decimal at `i` a release's number: after a capitalised word ("Python 3.11", "Django
    5.2") or "version"?"""
    before = tokens[i - 1] if i > 0 else ""
    return before.isalpha() and (before[0].isupper() or before.lower() in _RELEASE_WORDS)


_NO_KIND = STOPWORDS | frozenset(NUMBER_WORDS)


def _span_after(lowered: Sequence[str], j: int) -> int | None:
    """Where a span of time's unit stands one or two words after `j`, written in the plural, the
    words between it and the number being plain words that say what kind of days ("business",
    "unused vacation"), none a plural noun of its own: "14 goals, second on the team" counts
    goals, not seconds."""
    for k in (j + 1, j + 2):
        if k >= len(lowered) or not all(_a_kind(lowered[x]) for x in range(j, k)):
            return None
        if UNITS.get(lowered[k], "") in SPANS_OF_TIME and lowered[k].endswith("s"):
            return k
    return None


def _a_kind(word: str) -> bool:
    plural = word.endswith("s") and not word.endswith("ss")
    return word.isalpha() and word not in _NO_KIND and not plural


def _negation(token: str) -> bool:
    return token in ("not", "never", "cannot") or token.endswith(("n't", "n’t"))


# "no one", "the one", "each one", "at one point": "one" after these is no count of anything.
_ONE_NOT_COUNTED = words("the no any every each this that which at in")


def _one_counted(lowered: Sequence[str], i: int, capitalised: bool = False) -> bool:
    """Is the "one" at `i` a count: "only one season", "may check one bag", "for a one year term"?
    Not "only one of them", "just one more", "the only one dedicated to…", "when one gets upset"
    (a verb after it), "an alternative one unknown to Asia" nor a sentence's "One day she left"
    (`capitalised`: the tokens keep no full stop)."""
    after = lowered[i + 1] if i + 1 < len(lowered) else ""
    if _in_a_chart(lowered, i) and not after.startswith(("-", "of")):
        return True  # "reached number one"
    # "one-tenth", "one third": a share, which the fraction's own word reads
    if (
        i == 0
        or not after.isalpha()
        or after in STOPWORDS
        or after in _FRACTIONS
        or after in NUMBER_WORDS
    ):
        return False
    if lowered[i - 1] in ("only", "just", "exactly"):
        return lowered[i - 2 : i - 1] != ["the"]
    return (
        not capitalised
        and lowered[i - 1] not in _ONE_NOT_COUNTED
        and lowered[i - 2 : i - 1] not in (["a"], ["an"], ["the"])
        and (not after.endswith("s") or after.endswith("ss"))
    )


def _article_counts_scale(lowered: Sequence[str], i: int) -> bool:
    """Is the word at `i` an article that counts the scale after it ("a million people")?"""
    word, scale, kind = [*lowered[i : i + 3], "", "", ""][:3]
    return word in _ONE_OF_A_SCALE and scale in _WORD_SCALES and kind not in _SCALE_AS_ADJECTIVE


def _share_of(lowered: Sequence[str], i: int) -> tuple[float, int] | None:
    """The share in percent that a fraction at `i` writes ("a fifth of" 20.0, "two-thirds of"
    66.7), with the index of its first token; None when the word there is no such share."""
    den = _DENOMINATORS.get(lowered[i])
    if den is None:
        return None
    before = lowered[i - 1] if i else ""
    # "of a million", "of an hour": a fraction of an amount, not of the whole
    of = lowered[i + 1 : i + 2] == ["of"] and lowered[i + 2 : i + 3] not in (["a"], ["an"])
    if den == 2 and lowered[i] == "half":
        if _article_counts_scale(lowered, i + 1):
            return None  # "nearly half a million" is 500,000, not 50%
        if i == 0 and of or before in _HALF_LEADS or before == "by":
            return 50.0, i
        return None
    num = _NUMERATORS.get(before)
    # "cut water use by a fifth": a change by a share of the whole
    # ("won by a fifth place finish" aside: a share ends its phrase)
    after = lowered[i + 1] if i + 1 < len(lowered) else ""
    by = (
        i >= 2
        and lowered[i - 2] == "by"
        and (not after.isalpha() or after in STOPWORDS or after == "compared")
    )
    if num is None or not (of or by) or num >= den:
        return None
    return round(100.0 * num / den, 1), i - 1


_BEFORE_A_DATE = frozenset(["in", "on", "at", "since", "from", "by", "until", "during"])


def _first_as_adverb(lowered: Sequence[str], i: int) -> bool:
    """Is the "first" at `i` an adverb ("was first published") rather than a place in a row ("the
    first licensed pilot")?"""
    after = lowered[i + 1] if i + 1 < len(lowered) else ""
    before = lowered[i - 1] if i else ""
    return bool(_PARTICIPLE.fullmatch(after)) and before not in DETERMINERS


# Verbs of a place in a race or a ranking, after which "second" is the place.
_PLACING = words("finished finish finishes came comes placed ranked ranks")


def _second_in_a_row(lowered: Sequence[str], i: int) -> bool:
    """Is the "second" at `i` a place in a row ("the second woman", "its second album", "Apple's
    second")? Left out, "Collins was the second woman" against "the first woman" found no number
    to compare."""
    before = lowered[i - 1] if i else ""
    if before in _PLACING:
        return True  # "Aino Salo finished second", "came second"
    return (before in DETERMINERS and before not in ("a", "an")) or before.endswith(("'s", "’s"))


_ORDINALS = frozenset(w for w in NUMBER_WORDS if w.endswith(("st", "nd", "rd", "th")))


def is_ordinal(token: str) -> bool:
    """Is the lowercase token a place in a row ("fourth", "twenty-first", "4th")?"""
    return token in _ORDINALS or _ORDINAL_DIGITS.fullmatch(token) is not None


_FRACTIONS = words("halves thirds quarters fifths sixths sevenths eighths ninths tenths")
_UNITS = frozenset(DIGIT_WORDS.split("|")[:9])  # "one" ... "nine"
# The words that lead into a decade written with an apostrophe ("in the 1990's"); without one,
# "2020's summer" is a year's.
_DECADE_LEADS = frozenset(["the", "early", "mid", "late", "of", "in", "from", "since", "to"])


_PER_TIME = {
    **{w: "second" for w in ("second", "sec")},
    **{w: "minute" for w in ("minute", "min")},
    **{w: "hour" for w in ("hour", "hr", "hourly")},
    **{w: "day" for w in ("day", "daily")},
    **{w: "week" for w in ("week", "wk", "weekly")},
    **{w: "month" for w in ("month", "mo", "monthly")},
    **{w: "quarter" for w in ("quarter", "quarterly")},
    **{w: "year" for w in ("year", "yr", "annum", "yearly", "annually", "annual")},
}
# Beside an amount of money only: "$480 annual fee", "a monthly fee of $40" (`_rate_before`), but
# "12 monthly instalments" and "the 25th annual awards" count things.
_PER_ADJECTIVES = frozenset(
    ["hourly", "daily", "weekly", "monthly", "quarterly", "yearly", "annually", "annual"]
)
_PER_WORDS = frozenset(["a", "an", "per", "each", "every"])
_RATE_WORDS = _PER_WORDS | _PER_TIME.keys()
_MONEY = frozenset(["dollars", "euros", "pounds", "yen", "yuan"])
# What follows "a year" when it says when, not how often: "$500 a year later", "a quarter century
# ago". After a count, "40 died a year into the war" and "a year before the war" are when too; after
# money they are how often as a rule ("$40 a month before tax", "$15 a month since March").
_WHEN = words("later ago earlier old older century")
_WHEN_OF_A_COUNT = words("after before since into on apart late early prior")


def with_rate(text: str, rate: str) -> str:
    """An amount as a reader says it with its time: "$40 a month", "$50 an hour"."""
    return f"{text} {'an' if rate == 'hour' else 'a'} {rate}"


def rate_stems(rate: str) -> frozenset[str]:
    """The stems of the words that write a rate's time ("month", "monthly", "mo" for "month")."""
    return frozenset(stem(w) for w, r in _PER_TIME.items() if r == rate)


def _rate(lowered: Sequence[str], k: int, money: bool) -> str:
    """The time an amount ending before token `k` is per: "$40 a month", "900 euros per week",
    "3 albums a year", "$480 annually", and "$299/month" (read as "299 month", with nothing after
    the time word that it could describe: "a $20 day pass" is a pass). "" when none is written."""
    following = [*lowered[k : k + 5], "", "", "", "", ""]
    first, second, third = following[:3]
    if money and first in _PER_ADJECTIVES:
        return _PER_TIME[first]
    # "$299/month", but not "a $20 day pass" nor "$5 million year over year"
    if money and first in _PER_TIME and (not second or second in STOPWORDS) and third != first:
        return _PER_TIME[first]
    # A plural of what is counted may come between: "3 albums a year", "3 times a week"
    skip = 1 if first.endswith("s") and first.isalpha() and first not in STOPWORDS else 0
    per, noun, then, after = following[skip : skip + 4]
    if per not in _PER_WORDS or noun not in _PER_TIME or noun in _PER_ADJECTIVES:
        return ""
    # "won 3 races, a second in Monaco" ranks; "3 requests per second" is a rate
    if noun == "second" and per in ("a", "an"):
        return ""
    # "a year or two", "a year or so later", but "$40 a month or $400 a year"
    counted = after in NUMBER_WORDS or after[:1].isdigit()
    vague = then == "or" and (after == "so" or (counted and not money))
    if then in _WHEN or vague or (then in _WHEN_OF_A_COUNT and not money):
        return ""
    return _PER_TIME[noun]


# What a price is called, and the words that lead from it to the amount: "a monthly fee of $40",
# "the annual premium is just €480". Other nouns stay out: in "the annual report puts revenue at
# $40 million" the time is the report's.
_PRICE_NOUNS = words(
    """fee fees price prices cost costs charge charges rate rates subscription subscriptions payment
    payments premium premiums rent rental salary wage wages bill membership pass plan"""
)
_PRICE_LINKS = words("of is was are were will be costs cost comes come at just only")
# An amount that compares two prices is a difference, not a price: "the monthly plan is $40 cheaper".
_COMPARED = words("more less cheaper dearer higher lower off extra over under")


def _rate_before(lowered: Sequence[str], i: int, end: int) -> str:
    """The time an amount of money at tokens `i` to `end` (exclusive) is per, written before it in
    a price's name: "a monthly fee of $40", "the annual premium is €480", "a monthly $40 fee" (not
    "the annual $5 million award"). "" when none is written."""
    after = lowered[end] if end < len(lowered) else ""
    if after in _COMPARED:
        return ""
    named = after in _PRICE_NOUNS
    for k in range(i - 1, max(-1, i - 6), -1):
        word = lowered[k]
        if word in _PER_ADJECTIVES:
            return _PER_TIME[word] if named else ""
        if word in _PRICE_NOUNS:
            named = True
        elif word not in _PRICE_LINKS:
            return ""
    return ""


def _is_ordinal(token: str) -> bool:
    return token in _ORDINALS or _ORDINAL_DIGITS.fullmatch(token) is not None


def _names_century(lowered: Sequence[str], i: int) -> bool:
    """Does the ordinal at `i` name a century of our era ("the 12th century", not "the 5th century
    BC", whose years `Number` cannot hold)?"""
    following = [*lowered[i + 1 : i + 3], "", ""]
    return following[0] in _CENTURY and following[1] not in _BEFORE_CHRIST


def _period(
    lowered: Sequence[str], i: int, value: float, is_year: bool, ordinal: bool, decade: bool
) -> str:
    """ "decade" for "the 1990s", "century" for "the 12th century" or "the twenty-first century",
    else "": a claim's span of years is backed by any year in it ("the 1990s" by "in 1994")."""
    if decade:
        leads = i > 0 and lowered[i - 1] in _DECADE_LEADS
        possessive = lowered[i][-2] in "'’" and not leads
        return "decade" if is_year and value >= 1100 and not possessive else ""
    # "four centuries" is how long, not when
    if ordinal and 1 <= value <= 21 and _names_century(lowered, i):
        return "century"
    return ""


def _ranges(
    numbers: list[Number],
    at: Sequence[tuple[int, int]],
    lowered: Sequence[str],
    signs: Sequence[str],
) -> list[Number]:
    """A range writes its scale and unit once, after its second end: "$5-6 million" is $5 million
    to $6 million, "1,000-2,000 USD" and "5 to 10 km" name the unit of both ends, and "the 18th
    and 19th centuries" are both centuries. Its time may come after it ("$5-10 a month") or before
    it ("monthly fees of $5-10"): either end's is both ends'."""
    out = list(numbers)
    for k in range(len(out) - 1):
        a, b = out[k], out[k + 1]
        (i, j), (i2, j2) = at[k], at[k + 1]
        between = lowered[i + 1 : i2]
        joined = not between or (len(between) == 1 and between[0] in _RANGE_WORDS)
        if b.qualifier == "century" and a.ordinal and joined and a.value < b.value:
            out[k] = replace(a, qualifier="century", is_year=True, count=False)
            continue
        digits = lowered[i][0].isdigit() and lowered[i2][0].isdigit()  # not "the first 3 months"
        # "2 and $5 million": a sign written before the second end is that end's alone
        signed = i2 < len(signs) and signs[i2] not in ("", "percent") and not signs[i]
        # "1500-2000 USD" is a range of prices, "1990-2000" of years
        dated = b.is_year or (a.is_year and not b.unit)
        # "rose 12% to $4.8 billion" is a change and a new amount: two units, no range. So is "fell
        # 23% to 412 million kronor", whose second unit goes unread: a range never writes its
        # percent sign after the first end alone.
        units = bool(a.unit and b.unit and not same_unit(a.unit, b.unit))
        units = units or (a.unit == "percent" and b.unit != "percent")
        if not (digits and joined) or j != i + 1 or signed or dated or units or a.value >= b.value:
            continue
        scale = _RANGE_SCALES.get(lowered[i2 + 1], 1.0) if j2 == i2 + 2 else 1.0
        value = a.value * scale if a.value * scale < b.value else a.value
        unit = a.unit or b.unit
        rate = a.rate or b.rate  # "$5-10 a month", "monthly fees of $5-10"
        if value != a.value or unit != a.unit or rate != a.rate:
            out[k] = replace(a, value=value, unit=unit, is_year=False, count=True, rate=rate)
        # "monthly fees of $5-10": a time written before the range is the second end's too
        if rate and not b.rate and b.unit and same_unit(b.unit, a.unit):
            out[k + 1] = replace(b, rate=rate)
    return out


def same_unit(a: str, b: str) -> bool:
    """Units that can name the same amount: equal ones, "¥" and the yen or the yuan it writes, or
    an "m" that may be either and metres or a plain count."""
    if METRES_OR_MILLIONS in (a, b):
        return {a, b} - {METRES_OR_MILLIONS} <= {"meters", ""}
    return a == b or {a, b} in ({_YEN_OR_YUAN, "yen"}, {_YEN_OR_YUAN, "yuan"})


def _readings(n: Number) -> list[Number]:
    if n.unit != METRES_OR_MILLIONS:
        return [n]
    return [replace(n, unit="meters"), replace(n, value=n.value * 1e6, unit="")]


_SPANS = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400, "weeks": 604800}
SPANS_OF_TIME = frozenset([*_SPANS, "months", "years", "decades"])
# Metric measures convert as exactly: "1.3 km" is "1,300 metres", "0.5 l" is "500 ml".
_LENGTHS = {"nm": 1e-9, "µm": 1e-6, "mm": 1e-3, "cm": 1e-2, "meters": 1.0, "km": 1e3}
_WEIGHTS = {"mg": 1e-3, "g": 1.0, "kg": 1e3}
_AREAS = {"m²": 1.0, "ha": 1e4, "km²": 1e6}
_SPEEDS = {"kph": 1.0}
_MEASURES = (
    _LENGTHS,
    _WEIGHTS,
    _AREAS,
    {"ml": 1e-3, "l": 1.0},
    {"w": 1.0, "kw": 1e3, "mw": 1e6, "gw": 1e9},
    {"kwh": 1e3, "mwh": 1e6, "gwh": 1e9},
    # a storage plan's "1 TB" is "1,000 GB", as the vendor counts; 1,024 GB is another reading
    {"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12},
)
_MEASURE_UNITS = frozenset(unit for scale in _MEASURES for unit in scale)

_SPAN_RATIOS = {
    **{(a, b): x / y for a, x in _SPANS.items() for b, y in _SPANS.items() if a != b},
    ("months", "years"): 1 / 12,
    ("years", "months"): 12.0,
    ("decades", "years"): 10.0,
    ("years", "decades"): 0.1,
    **{
        (a, b): x / y
        for scale in _MEASURES
        for a, x in scale.items()
        for b, y in scale.items()
        if a != b
    },
}


# Imperial measures in metres, grams, square metres and km/h. Wikipedia, and answers written in its
# manner, give a measure in both systems ("5 miles (8.0 km)", "150 pounds (68 kg)"), and a page
# that states one of them backs the other when it converts to it as written.
_IMPERIAL = {
    "miles": ("meters", 1609.344),
    "feet": ("meters", 0.3048),
    "pounds": ("g", 453.59237),
    "mi²": ("m²", 2589988.110336),
    "ft²": ("m²", 0.09290304),
    "acres": ("m²", 4046.8564224),
    "mph": ("kph", 1.609344),
}


def _metric(n: Number) -> tuple[str, float] | None:
    """The metric unit the number's measure converts to (metres, grams, square metres or km/h)
    and its factor."""
    if n.unit in _IMPERIAL:
        return _IMPERIAL[n.unit]
    for base, scale in (("meters", _LENGTHS), ("g", _WEIGHTS), ("m²", _AREAS), ("kph", _SPEEDS)):
        if n.unit in scale:
            return base, scale[n.unit]
    return None


def _converts(claim: Number, evidence: Number) -> bool:
    """Is the claim's measure the page's in the other system of units, rounded as the claim writes
    it? Against "5 miles", "8.0 km" and "8 km" are, "9 km" is not; "104 °F" is "40 °C"."""
    if {claim.unit, evidence.unit} == {"celsius", "fahrenheit"}:
        e = evidence.value
        value = e * 9 / 5 + 32 if evidence.unit == "celsius" else (e - 32) * 5 / 9
        return _rounds_to(value, claim)
    if "£" in claim.text + evidence.text:  # pounds sterling weigh nothing
        return False
    a, b = _metric(claim), _metric(evidence)
    if (claim.unit in _IMPERIAL) == (evidence.unit in _IMPERIAL) or a is None or b is None:
        return False
    return a[0] == b[0] and _rounds_to(evidence.value * b[1] / a[1], claim)


def _rounds_to(value: float, n: Number) -> bool:
    # To the place of its last written digit ("8.0": a tenth, "68": one), or within 1% where the
    # writer rounded further ("3,000 feet (910 m)": 914.4 m).
    digits = n.text.split(" ")[0].replace(",", "")
    decimals = len(digits.partition(".")[2]) if digits.replace(".", "", 1).isdigit() else 0
    return abs(value - n.value) <= 10.0**-decimals / 2 + 0.01 * abs(n.value)


def numbers_match(claim: Number, evidence: Number) -> bool:
    """Does an evidence number support a claim number? "over 1,500" is supported by 1,532 or 1,500."""
    if DOTTED in (claim.unit, evidence.unit):
        return (
            claim.unit == evidence.unit
            and claim.value == evidence.value
            and claim.text == evidence.text
        )
    if METRES_OR_MILLIONS in (claim.unit, evidence.unit):
        return any(numbers_match(c, e) for c in _readings(claim) for e in _readings(evidence))
    c, e = claim.value, evidence.value
    if claim.span or evidence.span:
        # "two years later" said either way: as the year it comes to, or as the span
        spans = [(a.span, b) for a, b in ((claim, evidence), (evidence, claim)) if a.span]
        if any(b.unit == "years" and span == b.value for span, b in spans):
            return True
    if claim.unit in _HOURS and evidence.unit in _HOURS:
        # "1 pm" is the page's "13:00", and "10:30 am" no "22:30"; "10:00" may be either half
        either = any(n.unit == HOUR_OF_DAY and n.value <= 12 for n in (claim, evidence))
        if either and claim.value % 12 == evidence.value % 12:
            return True
        return _hour_of_day(claim) == _hour_of_day(evidence)
    if claim.unit and evidence.unit and not same_unit(claim.unit, evidence.unit):
        # "12 months" is "1 year", "2 weeks" "14 days" and "1.3 km" "1,300 m": exactly, as a page
        # converts them.
        # Only the same amount: a bound met by a larger number ("more than 2 weeks" by "18 days")
        # reads an amount of one unit as a measure of the other.
        ratio = _SPAN_RATIOS.get((claim.unit, evidence.unit))
        about = "about" in (claim.qualifier, evidence.qualifier)
        if claim.qualifier != evidence.qualifier and not about:
            return False
        if ratio is None:
            return _converts(claim, evidence)
        return math.isclose(c * ratio, e, rel_tol=0.1 if about else 1e-9)
    if claim.rate and evidence.rate and claim.rate != evidence.rate:
        return False
    # "1 pm" is the page's "13:00". The page's text stays as written: rewritten ("13:00 pm" or "1
    # pm"), a dateline or a fixture list gained words or numbers that moved it in the BM25 ranking.
    if claim.unit == "pm":
        c, e = (c - 12 if 13 <= c <= 23 else c), (e - 12 if 13 <= e <= 23 else e)
    if claim.qualifier in _PERIODS or evidence.qualifier in _PERIODS:
        return _within(claim, evidence)
    # "orders under $100" is the other side of "orders over $100", however equal the numbers.
    if {claim.qualifier, evidence.qualifier} in ({"gt", "lt"}, {"gt", "max"}):
        return False
    # "holds 1984 books" is no "opened in 1984". The other way round a claim's "About 2000 people"
    # is still read as a year, and the page's "2,000 people" backs it. The page's number counts
    # what the claim's does where the same word follows it: "had 1150 screens" is the page's "with
    # 1150 screens", which no counting word before it marks as a count.
    if claim.count and evidence.is_year:
        return c == e and bool(claim.counted & evidence.counted)
    # Nor is "on 12 July" twelve of anything, or "Apollo 12": "one of 12 kids" is not backed by a
    # day of a month or a number in a name ("the 5th of November" is a day, "5 November" too).
    if claim.count and claim.counted - _MONTH_STEMS and _digits_counting_nothing(evidence):
        return False
    # ...and the day of "before August 30th" is not "$30/user", nor "died on 16 May" the page's
    # "track 16": a day is backed by a day (or a name's number), never by a count or an amount.
    if _digits_counting_nothing(claim) and (evidence.unit or evidence.count):
        return False
    # A count that says what it counts counts nothing the page measures: "one of 12 children" is
    # not "12 years old", "seven siblings" no "seven miles", "39 presidents" no "39 percent".
    if claim.counted and not (claim.unit or claim.is_year or claim.ordinal) and evidence.unit:
        return False
    # ...nor a measure a count: "every 2 hours" is not the page's "1 to 2 tablets"
    # (a span of time or a metric measure: a currency the page may name in words of its own,
    # "4.8 billion Norwegian kroner")
    if (
        evidence.counted
        and not (evidence.unit or evidence.is_year or evidence.ordinal)
        and not claim.is_year
        and (claim.unit in SPANS_OF_TIME or claim.unit in _MEASURE_UNITS)
    ):
        return False
    # A count of things is whole: "four championship teams" is no "3.64 ERA", which rounds to it.
    if (
        claim.counted
        and not claim.unit
        and claim.qualifier != "about"
        and c == int(c)
        and e != int(e)
    ):
        return False
    if math.isclose(c, e, rel_tol=1e-9, abs_tol=1e-9):
        return True
    if claim.version or evidence.version:
        return False
    if claim.qualifier in ("gt", "lt"):
        # A bound is backed by a number of the same kind: a year only by a year, a unit only by
        # that unit, none only by none ("founded in 2004" is no "more than 500 employees", "1.96
        # million visitors" no "over 50%", "24 hours" no "more than 8 tablets"). What it counts
        # is left to the words, as for an exact number: "620 staff" backs "more than 500".
        if evidence.is_year != claim.is_year or bool(claim.unit) != bool(evidence.unit):
            return False
        # A bound the page states is a rule, not a measure: "orders over $75 ship free" does not
        # back "orders over $50", nor "at least 12 characters" "at least 8".
        if evidence.qualifier == claim.qualifier:
            return False
        # ...and "fewer than 100" of 80, not of 6.
        if claim.qualifier == "lt":
            return c / 10 <= e < c if c > 0 else e < c
        # "More than 500" is what one writes of 620, not of 500,000.
        return c < e <= 10 * c if c > 0 else e > c
    # A claim's "about 2,000" is met by 1,950; a claim's exact "$190 a month" is not met by the
    # page's "around $200", which says less: it rounds as a claim's figure rounds (below).
    if claim.qualifier == "about":
        # "around 1250" is a decade or so, not ten percent of the year (125 years)
        if claim.is_year and evidence.is_year:
            return abs(c - e) <= 10
        return abs(c - e) <= 0.1 * max(abs(c), abs(e))
    # Rounding: "1.5 million" vs 1,523,000 and "3.1" vs "3.14". A figure of one digit rounds
    # only to a whole number ("$5" for $4.99, "4%" for 4.1%) or within half a percent ("300,000
    # km/s" for 299,792): rounded further, $149 would be "$100", 24 seats "20" and port 8080
    # "8000", and nobody writes them so without "about".
    if c != 0 and not claim.is_year:
        digits = _significant_digits(c)
        if digits < 2:
            return abs(c - e) <= 0.5 or abs(c - e) <= 0.005 * abs(c)
        return math.isclose(float(f"{e:.{digits}g}"), c, rel_tol=1e-9)
    return False


_HOURS = frozenset(["am", "pm", HOUR_OF_DAY])


def _hour_of_day(n: Number) -> float:
    if n.unit == HOUR_OF_DAY:
        return n.value % 24
    return n.value % 12 + (12 if n.unit == "pm" else 0)


def _digits_counting_nothing(n: Number) -> bool:
    """Written in digits, and neither a count nor a year: the day of a month or part of a name."""
    return not (n.count or n.is_year or n.unit) and _DAY.fullmatch(n.text) is not None


_DAY = re.compile(r"\d{1,2}(?:st|nd|rd|th)?")
_MONTH_STEMS = frozenset(stem(m) for m in MONTHS)


def _significant_digits(value: float) -> int:
    """ "1.5 million" has two, "3.14" three, "300" one (trailing zeros of a whole number are
    taken for rounding)."""
    written = f"{abs(value):.9f}".replace(".", "").strip("0")
    return len(written) or 1


_PERIODS = frozenset(["decade", "century"])


def _years(n: Number) -> tuple[float, float]:
    """The first and last year a number names. A century takes in both ends, as people count it
    (1100-1199) and as it is (1101-1200)."""
    if n.qualifier == "decade":
        # "the 1800s" is a hundred years; "the 1990s" and "the 2000s" are ten
        return n.value, n.value + (99 if n.value % 100 == 0 and n.value != 2000 else 9)
    if n.qualifier == "century":
        return (n.value - 1) * 100, n.value * 100
    return n.value, n.value


def _within(claim: Number, evidence: Number) -> bool:
    """A claim's span of years is backed by a year or span inside it ("the 12th century" by "1183",
    "the 1990s" by "in 1994"); a claim's year is not backed by a span around it, which says less."""
    if not evidence.is_year or (evidence.qualifier in _PERIODS and claim.qualifier not in _PERIODS):
        return False
    first, last = _years(claim)
    low, high = _years(evidence)
    return first <= low and high <= last


def number_stem(tok: str) -> str:
    """ "1,500" and "1500" index as the same term, and so do "1990s" and "1990's"."""
    decade = _DECADE.fullmatch(tok)
    if decade:
        return f"{decade.group(1)}s"
    value = _parse_number(tok)
    return f"{value:g}" if value is not None else tok


# A count, up to four words, then what opens a list: "two solutions, ApexPro and …", "the four
# products - A, B, C and D", "three services, which are …".
_LIST_OPENING = re.compile(
    r"\b(two|three|four|five|six|seven|eight|nine|ten)\s+(?:[\w+'-]+\s+){0,3}?[\w+'-]+\s*(?:,|:|\(|\s[-–—])\s*"
    r"(?:(?:which|that) (?:are|is|include)|namely|including|such as)?\s*",
    re.IGNORECASE,
)
_LIST_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+")
_LIST_END = re.compile(r"\s[-–—]\s|[;)]|\.\s|\.$")


def _listed_counts(text: str) -> set[str]:
    """The counts written as a word ("two") that `text` follows with exactly that many items, each
    a capitalised name: "two solutions, ApexPro and ApexConnect, for $299"."""
    out: set[str] = set()
    for m in _LIST_OPENING.finditer(text):
        value = NUMBER_WORDS[m.group(1).lower()]
        rest = text[m.end() :]
        end = _LIST_END.search(rest)
        items = _LIST_SEPARATOR.split(rest[: end.start() if end else len(rest)])
        names = 0
        for item in items:
            if not item[:1].isupper():
                break
            names += 1
        if names == value:
            out.add(m.group(1).lower())
    return out


def _amount_before(tokens: Sequence[str], i: int) -> bool:
    """Does a number end right before token `i` ("5 Euro", "4.8 billion NOK")?"""
    before = tokens[i - 1]
    return before[0].isdigit() or (before in _SCALES and i > 1 and tokens[i - 2][0].isdigit())


def _numeral_words(tokens: Sequence[str]) -> set[int]:
    """Positions of the words that are part of a number, not words of their own: the "century" of
    "12th century" (the number is the whole span of years)."""
    # the set lookup first: this runs over every token of every fact sentence
    return {
        i + 1
        for i in range(len(tokens) - 1)
        if tokens[i + 1] in _CENTURY and _is_ordinal(tokens[i]) and _names_century(tokens, i)
    }


_SIGNED_UNITS = frozenset(
    ["dollars", "euros", "pounds", "yen", "yuan", "percent", "celsius", "fahrenheit"]
    + [code for code, unit in _CURRENCY_CODES.items() if code == unit]
)


_LATER = {"later": 1, "afterwards": 1, "after": 1, "earlier": -1, "before": -1}


def _years_later(numbers: list[Number], tokens: Sequence[str]) -> list[Number]:
    """ "taken over in 1996 … shut two years later" dates the shutting: 1998, as a page that says
    "closed the factory in 1998" writes it. The span counts from the last year before it."""
    out: list[Number] = []
    for n in numbers:
        word = tokens[n.at + 2] if 0 <= n.at < len(tokens) - 2 else ""
        # "two years after that", not "five years before its centenary"
        if word in ("after", "before") and tokens[n.at + 3 : n.at + 4] not in (["that"], ["this"]):
            word = ""
        since = [m for m in out if m.is_year and 0 <= m.at < n.at and m.qualifier == ""]
        if n.unit == "years" and word in _LATER and since and n.value == int(n.value):
            year = since[-1].value + _LATER[word] * n.value
            n = replace(n, value=year, is_year=True, count=False, unit="", span=n.value)
        out.append(n)
    return out


def _in_a_sequence(n: Number, clauses: Sequence[int]) -> bool:
    """Is `n` an ordinal alone in its clause, a step of a sequence ("First, try restarting the
    hub") rather than a place in a row?"""
    if not n.ordinal or n.at < 0 or n.at >= len(clauses):
        return False
    return clauses.count(clauses[n.at]) == 1


def _counted_in_clause(
    n: Number, tokens: Sequence[str], stems: Sequence[str], clauses: Sequence[int]
) -> Number:
    """What a number counts is in its clause, before any "and": "€335,000, ranging from…" counts
    no "ranging", and "3 apples and 4 pears" no pears."""
    if n.at < 0 or not n.counted or n.at >= len(clauses):
        return n
    own = {"number"} if _in_a_chart(tokens, n.at) else set()
    for k in range(n.at, len(tokens)):
        if clauses[k] != clauses[n.at] or tokens[k] in _CLAUSE_WORDS:
            break
        own.add(stems[k])
    return n if n.counted <= own else replace(n, counted=n.counted & own)


def read_numbers(
    normalised: str,
    tokens_raw: list[str],
    signs: Sequence[str],
    clauses: Sequence[int],
    tokens: Sequence[str],
    stems: Sequence[str],
) -> list[Number]:
    """The numbers of a normalised text, from its `signed_tokens` (and those lowercase and
    stemmed), as `analyse` keeps them: a step of a sequence left out, each counting only words of
    its clause, "two years later" the year it comes to, and a count the text lists the items of
    marked `listed`."""
    numbers = [
        _counted_in_clause(n, tokens, stems, clauses)
        for n in extract_numbers(tokens_raw, signs)
        if not _in_a_sequence(n, clauses)
    ]
    numbers = _counted_as_before(numbers, tokens)
    numbers = _years_later(numbers, tokens)
    listed = _listed_counts(normalised)
    if listed:
        numbers = [replace(n, listed=True) if n.text.lower() in listed else n for n in numbers]
    return numbers


_ELLIPSIS_VERBS = frozenset(["were", "was", "are", "is", "have", "had", "died", "survived"])
_OTHERS = frozenset(["other", "others"])
_ELLIPSIS_PLACES = frozenset(["in", "at", "on", "for", "from"])


def _in_a_chart(lowered: Sequence[str], i: int) -> bool:
    """Is the number at `i` a place in a chart, "number 9" or "number one", which count places as
    digits do?"""
    return i > 0 and lowered[i - 1] == "number"


def _counted_as_before(numbers: list[Number], tokens: Sequence[str]) -> list[Number]:
    """A number that counts a part of the number before it, or that "and" adds with only a place
    after it, counts what that one counts too: "holds about 30,000 objects, of which roughly 2,000
    are on display" shows 2,000 objects, and "45 sorting facilities in the United States and two
    in Canada" counts two facilities."""
    out: list[Number] = []
    for n in numbers:
        before = [m for m in out if 0 <= m.at < n.at and m.counted]
        if n.at <= 0 or not before:
            out.append(n)
            continue
        j = n.at - 1
        while j > 0 and (tokens[j] in _ABOUT or tokens[j] in _MORE or tokens[j] in _FEWER):
            j -= 1
        part = j >= 1 and tokens[j - 1] == "of" and tokens[j] in ("which", "whom", "them")
        after = tokens[n.at + 1] if n.at + 1 < len(tokens) else ""
        added = tokens[n.at - 1] == "and" and after in _ELLIPSIS_PLACES
        # "Two people died and five were injured", "killed three workers and injured 12 others":
        # a number with no noun of its own counts what the one before it counts
        alone = (tokens[n.at - 1] == "and" and after in _ELLIPSIS_VERBS) or after in _OTHERS
        if part:
            n = replace(n, counted=n.counted | before[-1].counted)
        elif (added or alone) and not (n.unit or n.is_year or before[-1].is_year):
            n = replace(n, counted=n.counted | before[-1].counted, count=before[-1].count)
        out.append(n)
    return out


def numeral_positions(tokens: Sequence[str]) -> set[int]:
    """Positions of the (lowercase) tokens that are part of a number rather than words of their
    own: "century" after "12th", a scale, an article that counts a scale, a currency word."""
    numeral = _numeral_words(tokens)
    # A scale after a number is part of it: "1,5 Mio." states no name "Mio" nor a word "millones".
    numeral |= {
        i for i, t in enumerate(tokens) if t in _SCALES and i > 0 and tokens[i - 1][0].isdigit()
    }
    # And "eine Million" or "un millón" is a number as "1 Million" is, its article included.
    counting = [i for i in range(len(tokens) - 1) if _article_counts_scale(tokens, i)]
    numeral.update(*((i, i + 1) for i in counting))
    # So is a currency, percent or degree word, which a page may write as a sign: "5 Euro" is
    # "5 €", and read as a name "Euro" it had failed the claim.
    numeral |= {
        i
        for i, t in enumerate(tokens)
        if UNITS.get(t) in _SIGNED_UNITS and i > 0 and _amount_before(tokens, i)
    }
    return numeral


def unit_symbol_positions(tokens: Sequence[str]) -> set[int]:
    """Positions of the (lowercase) tokens that are a unit after an amount ("GW" of "447 GW")."""
    return {i for i, t in enumerate(tokens) if t in UNITS and i and _amount_before(tokens, i)}
