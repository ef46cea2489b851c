"""Words as the engine reads them: tokens, crude stems, stopwords and one spelling for text.

Everything here is deterministic and model-free. `normalise` rewrites what is written many ways
into one ("Aug. 10" and "2018-08-10", "12 per cent", "U.S."), `tokenize` and `stem` make terms of
it, and the word lists (stopwords, negations, months, places) say which terms count. Numbers are
read in `numbers.py` and whole texts in `analysis.py`, both on top of this.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

# Letters/digits runs, keeping internal apostrophes ("don't") and numbers with separators ("1,500.25").
# One token each: a decade ("1990s"; "In 1990, S. Karato" is a year and an initial), a
# place written in digits ("12th"; "10 St Mary's" is a number and a name) and a
# hyphenated number word ("twenty-five"; "She was twenty. One day…" is 20 and a word).
TENS_WORDS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
DIGIT_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|first|second|third|fourth|fifth|sixth|seventh"
    "|eighth|ninth"
)
TOKEN_RE = re.compile(
    r"\d{3}0['’]?s\b|\d+(?:st|nd|rd|th|ST|ND|RD|TH)\b"
    rf"|(?i:(?:{TENS_WORDS})-(?:{DIGIT_WORDS}))\b|(?i:dix-(?:sept|huit|neuf))\b"
    r"|\d+(?:[.,]\d+)*|[^\W\d_]+(?:['’][^\W\d_]+)*",
    re.UNICODE,
)


def words(text: str) -> frozenset[str]:
    """A word list written as one readable string."""
    return frozenset(text.split())


CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def is_cjk(token: str) -> bool:
    """A token of CJK script: one character each, written without spaces."""
    return CJK_RE.match(token) is not None


STOPWORDS = words(
    """a an the and or but if then than so of to in on at by for with from as into onto over under
    about above below between through during before after up down out off again further once is are was
    were be been being am do does did doing have has had having it its it's this that these those there
    here their theirs them they he him his she her hers we us our ours you your yours i me my mine who
    whom whose which what when where why how all any both each few more most other some such only own
    same too very can will just should would could may might must shall also however therefore thus
    while although though because since until unless whether yet still even ever much many well like
    one s t d ll m re ve per via within without upon toward towards across along among around against
    said says say according yes yeah yep yup ok okay oh wow hmm"""
)

NEGATIONS = words(
    "not no never none nobody nothing neither nor cannot can't don't doesn't didn't isn't aren't "
    "wasn't weren't won't wouldn't shouldn't couldn't hasn't haven't hadn't without n't"
)

NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "dozen": 12,
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
}
NUMBER_WORDS.update(
    {
        f"{tens}-{units}": NUMBER_WORDS[tens] + NUMBER_WORDS[units]
        for tens in TENS_WORDS.split("|")
        for units in DIGIT_WORDS.split("|")
    }
)
# Other languages' counts as words, so that "sechs Jahre" is 6 years and "dos semanas" no three.
# Left out where English or a name uses the word: "one"'s kin ("un", "uno", "ein", all articles),
# Spanish "once" (11), French "sept" (September), "neuf" (new) and "cent", German "elf", Italian
# "due", "sei" (are) and "otto".
NUMBER_WORDS.update(
    (word, value)
    for value, names in {
        2: "dos deux zwei dois duas",
        3: "tres três trois drei tre",
        4: "cuatro quatre vier quatro quattro",
        5: "cinco cinq fünf cinque",
        6: "seis sechs",
        7: "siete sieben sete sette",
        8: "ocho huit acht oito",
        9: "nueve neun nove",
        10: "diez dix zehn dez dieci",
        12: "doce douze zwölf doze dodici",
        15: "quince quinze fünfzehn quindici",
        17: "dix-sept",
        18: "dix-huit",
        19: "dix-neuf",
        20: "veinte vingt zwanzig vinte venti",
        30: "treinta trente dreißig trinta trenta",
        100: "cien hundert cem cento",
        # "Weniger als tausend", "mil personas", "mille habitants"; "3 mil millones" reads "mil"
        # as a scale after the number
        1000: "tausend mil mille",
    }.items()
    for word in names.split()
)
# A negation before these bounds a number and denies nothing: "must not exceed 7 kg" is "up to 7
# kg".
EXCEED = frozenset(["exceed", "exceeds", "exceeding", "surpass"])

MONTHS = words(
    """january february march april may june july august september october november december jan feb
    mar apr jun jul aug sep sept oct nov dec"""
)


def _places(table: str) -> dict[str, str]:
    """ "canada: canadian canadians" lines -> every form mapped to the first word."""
    out: dict[str, str] = {}
    for line in table.strip().splitlines():
        place, forms = line.split(":")
        for form in [place, *forms.split()]:
            out[form.strip()] = place.strip()
    return out


# A claim says "the Canadian team" where its source says "Canada's team", "a British guitarist" where
# it says "born in London, England"... the first two are the same fact, so a demonym and its country are
# one term (for coverage, BM25 and the name check alike). Languages share the adjective ("French"); a
# claim about the French language against a page about France is rare enough to accept.
PLACES = _places(
    """
    usa: america american americans
    uk: britain british brit brits
    england: english englishman englishmen
    scotland: scottish scots scotsman
    wales: welsh welshman
    ireland: irish irishman
    canada: canadian canadians
    mexico: mexican mexicans
    brazil: brazilian brazilians
    argentina: argentine argentinian argentinians
    chile: chilean chileans
    colombia: colombian colombians
    peru: peruvian peruvians
    venezuela: venezuelan venezuelans
    cuba: cuban cubans
    jamaica: jamaican jamaicans
    france: french frenchman frenchwoman
    germany: german germans
    italy: italian italians
    spain: spanish spaniard spaniards
    portugal: portuguese
    netherlands: dutch dutchman dutchwoman holland
    belgium: belgian belgians
    switzerland: swiss
    austria: austrian austrians
    sweden: swedish swede swedes
    norway: norwegian norwegians
    denmark: danish dane danes
    finland: finnish finn finns
    iceland: icelandic icelander icelanders
    poland: polish
    hungary: hungarian hungarians
    romania: romanian romanians
    bulgaria: bulgarian bulgarians
    greece: greek greeks
    turkey: turkish turks
    russia: russian russians
    ukraine: ukrainian ukrainians
    serbia: serbian serbians serb serbs
    croatia: croatian croatians croat croats
    israel: israeli israelis
    iran: iranian iranians
    iraq: iraqi iraqis
    syria: syrian syrians
    lebanon: lebanese
    egypt: egyptian egyptians
    libya: libyan libyans
    morocco: moroccan moroccans
    algeria: algerian algerians
    tunisia: tunisian tunisians
    nigeria: nigerian nigerians
    kenya: kenyan kenyans
    ethiopia: ethiopian ethiopians
    ghana: ghanaian ghanaians
    africa: african africans
    india: indian indians
    pakistan: pakistani pakistanis
    bangladesh: bangladeshi bangladeshis
    china: chinese
    japan: japanese
    korea: korean koreans
    taiwan: taiwanese
    vietnam: vietnamese
    thailand: thai thais
    philippines: filipino filipinos philippine
    indonesia: indonesian indonesians
    malaysia: malaysian malaysians
    australia: australian australians aussie
    europe: european europeans
    asia: asian asians
    alabama: alabamian alabamians alabaman alabamans
    alaska: alaskan alaskans
    arizona: arizonan arizonans
    arkansas: arkansan arkansans
    california: californian californians
    carolina: carolinian carolinians
    colorado: coloradan coloradans
    dakota: dakotan dakotans
    florida: floridian floridians
    hawaii: hawaiian hawaiians
    idaho: idahoan idahoans
    illinois: illinoisan illinoisans
    indiana: hoosier hoosiers
    iowa: iowan iowans
    kansas: kansan kansans
    kentucky: kentuckian kentuckians
    louisiana: louisianan louisianans louisianian louisianians
    maryland: marylander marylanders
    michigan: michigander michiganders michiganian michiganians
    minnesota: minnesotan minnesotans
    mississippi: mississippian mississippians
    missouri: missourian missourians
    montana: montanan montanans
    nebraska: nebraskan nebraskans
    nevada: nevadan nevadans
    ohio: ohioan ohioans
    oklahoma: oklahoman oklahomans
    oregon: oregonian oregonians
    pennsylvania: pennsylvanian pennsylvanians
    tennessee: tennessean tennesseans
    texas: texan texans
    utah: utahn utahns
    vermont: vermonter vermonters
    virginia: virginian virginians
    washington: washingtonian washingtonians
    wisconsin: wisconsinite wisconsinites
    """
)

# Other words that write one term two ways, read as one term as a demonym is: an abbreviation a
# page spells out ("TV" for "television": one word, so no acronym of its words), and a religion's
# adjective ("an Islamic text" for "the text of Islam"), and a death as a verb, a noun and an
# adjective write it ("died in 1887" for "his death in 1887"; "No deaths have been reported"
# denies "Two firefighters died").
_SAME_TERM = _places(
    """
    death: died dies dying dead
    television: tv tvs
    islam: islamic
    judaism: jewish judaic
    buddhism: buddhist buddhists
    hinduism: hindu hindus
    """
)

# Spellings of the same two countries that a tokenizer would take apart ("U.S." is "U" and "S"). Upper
# case "US" only: lower case "us" is a pronoun.
_COUNTRY_SPELLINGS = (
    (
        re.compile(r"\bU\.\s?S\.(?:\s?A\.)?|\bU\.S\b|\bUnited States(?: of America)?\b|\bUS\b"),
        "USA",
    ),
    (re.compile(r"\bU\.\s?K\.|\bUK\b|\bUnited Kingdom\b|\bGreat Britain\b"), "UK"),
)
# "US$5" is a price; "paid the U.S. $20 million" still names the country.
_US_DOLLARS = re.compile(r"\bU\.?S\.?D?\$")
# ".5" and ".271" as a batting average writes them are 0.5 and 0.271, not 5 and 271.
_BARE_DECIMAL = re.compile(r"(?<![\w.,])\.(\d)")
# "R.M.S. Titanic" is "RMS Titanic": dotted capitals are one token, not three one-letter words, and
# "J. D. Salinger" and "J.K Rowling" are "J.D. Salinger" and "J.K. Rowling", spaced or dotted as
# people type them ("A. Smith" is one initial).
_DOTTED = re.compile(r"\b[A-Z]\.(?: ?[A-Z](?:\.|\b(?![.'’])))+")
# "the 2018–19 season" states 2019 as much as 2018.
# "(10 February 1894 – 29 December 1986)" is two dates, not 1894 to 1929.
# A second year smaller than the first crosses into the next century only within ten years
# ("1999–00", "1998–02"): a page's "2019 - 12:00AM" or "2018-06" is no span up to 2112 or 2106.
_YEAR_RANGE = re.compile(
    r"\b(1[5-9]|20)(\d\d)\s*[–—-]\s*(\d\d)\b(?![.,:]?\d)"
    r"(?!\s*(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)"
)
# Tokenised corpora (FEVER, Penn Treebank style) write "did n't" and "Apple 's": a fact in that form
# must read as "didn't" (a negation, not the word "n") and "Apple's".
_SPLIT_CLITIC = re.compile(r"(?<=\w) (n[’']t|[’'](?:s|re|ve|ll|d|m))\b", re.IGNORECASE)


def _spell_out(m: re.Match[str]) -> str:
    century, first, last = m.group(1), m.group(2), m.group(3)
    if last > first:
        return f"{century}{first}–{century}{last}"
    if 100 - int(first) + int(last) <= 10:
        return f"{century}{first}–{int(century) + 1}{last}"
    return m.group(0)


# "24/7 support" counts nothing: read as two numbers, it conflicts with every other count nearby.
_ROUND_THE_CLOCK = re.compile(r"\b24\s?(?:/|x)\s?7(?:\s?/\s?365)?\b", re.IGNORECASE)
# "12 per cent", as British writing has it, is "12 percent": read as "per" and "cent", it was a
# number with no unit, which any "12" backed ("$12").
_PER_CENT = re.compile(r"(?<=\d) per cent\b", re.IGNORECASE)
# "twice a day" is "2 times a day", so that "once a day" is no "twice a day". Only how often in a
# time: "won twice" may count what a page gives as two dates.
_HOW_OFTEN = re.compile(
    r"\b(once|twice|thrice)(?=\s+(?:(?:a|an|per|every|each)\s+(?:day|week|month|year|hour|night)"
    r"|daily|weekly|monthly|yearly|annually|nightly)\b)",
    re.IGNORECASE,
)
_TIMES = {"once": "1 times", "twice": "2 times", "thrice": "3 times"}
# A date is written "Aug. 10", "10 Nov 2018" or "2018-11-10" as often as "August 10": one month
# name for all, so a claim's "November" is found. An abbreviation counts only beside a number
# ("Mar" alone is a word too); a numeric date in ISO order, or slashed where only one order reads
# (11/10 is ambiguous).
_MONTH_NAMES = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
# A page's header writes them in capitals too ("30 JUN 2018").
_MONTH_ABBREVIATION = re.compile(
    r"\b(Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec|JAN|FEB|MAR|APR|JUN|JUL|AUG|SEPT?|OCT|NOV"
    r"|DEC)\b\.?(?=\s?\d)"
    r"|(?<=\d )(Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec|JAN|FEB|MAR|APR|JUN|JUL|AUG|SEPT?"
    r"|OCT|NOV|DEC)\b\.?"
)
# A timestamp's date too ("2018-06-30T07:00:00Z"): read as a span of years, it was 2018 to 2106.
# The year first is the order nobody reads two ways, so "2013/10/22" and "2011.02.22" are dates.
_ISO_DATE = re.compile(
    r"\b(1[5-9]\d\d|20\d\d)([-/.])(0[1-9]|1[0-2])\2(0[1-9]|[12]\d|3[01])(?:\b(?![.,]\d)|T(?=\d))"
)
# An area is one unit: "52 km2" (a page's "km²" without its superscript) was 52 km and a count
# of 2, and "20 square miles" a bare 20.
_AREA = re.compile(r"(?<=\d)\s?(km|m|cm|mi|ft)[2²](?![\w²])")
_SQUARE = re.compile(
    r"(?<=\d)[\s-]?(?:square|sq\.?)[\s-](kilomet(?:re|er)s?|km|miles?|mi|feet|foot|ft|met(?:re|er)s?|m)"
    r"\b\.?",
    re.IGNORECASE,
)


def _square(m: re.Match[str]) -> str:
    unit = m.group(1).lower()
    if unit.startswith("k"):
        return " km²"
    if unit.startswith("mi"):
        return " mi²"
    return " ft²" if unit.startswith("f") else " m²"


# A speed is one unit: "97 km/h" was 97 km (and no hour), "60 miles per hour" 60 miles.
_SPEED = re.compile(
    r"(?<=\d)\s?(?:(km/h|km/hr|kmh|kph|(?:km|kilomet(?:re|er)s) (?:per|an) hour)"
    r"|(mph|mi/h|miles (?:per|an) hour))\b",
    re.IGNORECASE,
)


# Energy is one unit: "40 kilowatt-hours" was 40 kilowatts and a word "hours".
_ENERGY = re.compile(r"(?<=\d)[\s-]?(kilo|mega|giga)watt[\s-]hours?\b", re.IGNORECASE)
_ENERGY_WORDS = words("kilowatt megawatt gigawatt")


# A scraped page glues a date to the menu before it ("NewsOPINIONApril 11 2019"), so its month
# was no word of its own.
_GLUED_MONTH = re.compile(
    r"(?<=[A-Za-z])(?=(?:January|February|March|April|May|June|July|August|September|October"
    r"|November|December) ?\d)"
)


def _month(abbreviation: str) -> str:
    return next(m for m in _MONTH_NAMES if m.startswith(abbreviation[:3].title()))


# "12.03.2021" and "12.03.21" as Europe writes a date: day, month, year (nobody dots a month
# first). A two-digit year is this century's up to 49.
_DOTTED_DATE = re.compile(
    r"\b(0?[1-9]|[12]\d|3[01])\.(0?[1-9]|1[0-2])\.(1[5-9]\d\d|20\d\d|\d\d)\b(?!\.\d)"
)


# "03/15/2024" as America writes a date and "15/03/2024" as Europe does, read where only one order
# makes a date (or both make the same one); "06/02/2024" is left as written.
_SLASHED_DATE = re.compile(
    r"\b(0?[1-9]|[12]\d|3[01])/(0?[1-9]|[12]\d|3[01])/(1[5-9]\d\d|20\d\d)\b(?!/)"
)


def _slashed_date(m: re.Match[str]) -> str:
    first, second = int(m.group(1)), int(m.group(2))
    if first == second or (first > 12 and second <= 12):
        return _spelled_date(m.group(1), m.group(2), m.group(3))
    if second > 12 and first <= 12:
        return _spelled_date(m.group(2), m.group(1), m.group(3))
    return m.group(0)


def _spelled_date(day: str, month: str, year: str | int) -> str:
    """A numeric date as one month name for all: "3 March 2021"."""
    return f"{int(day)} {_MONTH_NAMES[int(month) - 1]} {year}"


def _iso_date(m: re.Match[str]) -> str:
    date = _spelled_date(m.group(4), m.group(3), m.group(1))
    return f"{date} " if m.group(0).endswith("T") else date


def _dotted_date(m: re.Match[str]) -> str:
    year = int(m.group(3))
    if year < 100:
        year += 2000 if year < 50 else 1900
    return _spelled_date(m.group(1), m.group(2), year)


# "12 000", "12 000" (NBSP), "12 000" (narrow NBSP): thousands as French and Swedish group them,
# read as "12,000". Not "20 100-page books", "4 100m relays" or a phone number "555 123 4567".
_SPACED_THOUSANDS = re.compile(
    r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?![\d‐-]|m\b|\s\d)"
)
# "8 a.m.", "8am" and "8 AM" as one hour with its half of the day, a unit: "8 pm" is not "8 am".
_CLOCK = re.compile(r"\b(\d{1,2}(?::\d\d)?) ?([ap])\.? ?m\b\.?", re.IGNORECASE)


# "the 80s", "the mid-'80s" and "in his 30's" are ten years of a century or of a life, not 80 or
# 30 seconds ("s"). The century is the 1900s, as a page writes "the 2020s" in full; a life's decade
# is read as a word ("thirties"), which the page must say as the claim does.
_SHORT_DECADE = re.compile(
    r"\b(?:(the|early|mid|late)|(his|her|their|its|my|your|our)(?:\s+(?:early|mid|late))?)"
    r"([\s-]+)['’]?([2-9]0|10)['’]?s\b",
    re.IGNORECASE,
)
_DECADES_OF_LIFE = {
    10: "teens",
    20: "twenties",
    30: "thirties",
    40: "forties",
    50: "fifties",
    60: "sixties",
    70: "seventies",
    80: "eighties",
    90: "nineties",
}


def _short_decade(m: re.Match[str]) -> str:
    head = m.group(0)[: m.start(3) - m.start(0)]
    tens = int(m.group(4))
    if m.group(1):
        return f"{head}{m.group(3)}{1900 + tens}s" if tens >= 20 else m.group(0)
    return f"{head}{m.group(3)}{_DECADES_OF_LIFE[tens]}"


def _clock(m: re.Match[str]) -> str:
    # "8:00 a.m." is the hour itself: read as "8 00" its unit would fall on the minutes.
    return f"{m.group(1).removesuffix(':00')} {m.group(2).lower()}m"


# Other languages' "a month", "a year" after a price: "29 € par mois", "19,99 € al mes", "5 € pro
# Monat" ("im Jahr 2020" is a year, not a rate).
# Only after a per-word or a slash: "2 ans" is a count of years.
_FOREIGN_RATE = re.compile(
    r"(?:/|\s(?:par|pro|por|al|ao|im|je)\s+)"
    r"(mois|mes|mês|monat|an|année|año|ano|jahr|semaine|semana|woche|jour|día|dia|tag)\b"
    r"(?!\s*\d)",
    re.IGNORECASE,
)
# "$20/mo" is "$20 per month" however the price list goes on ("Pro — $20/mo; Team — $35/mo"):
# the slash, lost to the tokens, is what made it a rate, and the page states "month" as a claim
# writes it. "$299/month" already reads as a rate.
_SLASH_RATE = re.compile(
    r"(?<=\d)[ \t]*/[ \t]*(secs?|mins?|hrs?|wks?|mos?|yrs?)\b(?!/)",
    re.IGNORECASE,
)
_TIME_WORDS = {
    "sec": "second",
    "min": "minute",
    "hr": "hour",
    "wk": "week",
    "mo": "month",
    "yr": "year",
}


def _per_time(m: re.Match[str]) -> str:
    word = m.group(1).lower().removesuffix("s")
    return f" per {_TIME_WORDS.get(word, word)}"


_RATE_IN_ENGLISH = {
    **dict.fromkeys(("mois", "mes", "mês", "monat"), "month"),
    **dict.fromkeys(("an", "année", "año", "ano", "jahr"), "year"),
    **dict.fromkeys(("semaine", "semana", "woche"), "week"),
    **dict.fromkeys(("jour", "día", "dia", "tag"), "day"),
}


# A currency sign after its amount, as French, German and Spanish write it: "29 €" is "€29".
_SIGN_AFTER = re.compile(r"(?<![\d.,])(\d[\d.,]*\d|\d)\s?([$€£])(?!\s?\d)")
_PERCENTAGE_POINTS = re.compile(
    r"\s?(?:percentage points?|points? de pourcentage|prozentpunkte?n?|puntos? porcentuales?"
    r"|pontos? percentuais|個?百分点|个百分点)",
    re.IGNORECASE,
)
_BASIS_POINTS = re.compile(r"\s?basis points?\b", re.IGNORECASE)
# "the second quarter" is the 2nd, as "the third quarter" is the 3rd: "second" alone is a unit of
# time, so "second-quarter revenue" had stated no number against "third-quarter revenue".
# "25°C", "25 ºC", "25 degrees Celsius" and "25 °F" as one word each, which a page and an answer
# write either way; read as letters, "C" was a name the page lacked.
_DEGREES = re.compile(
    r"(?<=\d)\s?(?:[°º]\s?([cf])(?![a-z])|(?:[°º]\s?|degrees?\s)?(celsius|centigrade|fahrenheit)\b)",
    re.IGNORECASE,
)
# "$4.2B" is $4.2 billion; after a bare number "B" may be bytes or a model's parameters ("a 4B
# model"), so only after a currency sign.
_MONEY_BILLIONS = re.compile(r"([$€£¥]\s?\d[\d.,]*)\s?B\b")
# "costs nothing" is "is free": read word by word, "nothing" negated what followed it.
_COSTS_NOTHING = re.compile(r"\b(?:costs?|costing|charges?) (?:you )?nothing\b", re.IGNORECASE)
_SECOND_QUARTER = re.compile(r"\bsecond(?=[- ]quarter\b)", re.IGNORECASE)
# Chinese and Japanese spans of time after a count: "2个月" is two months, "2年" two years (but
# "2020年" is a year and "3月" March), "14天" fourteen days.
_CJK_SPAN = re.compile(
    r"(?<![\d.])(\d{1,3}(?:\.\d+)?)\s?(个月|個月|か月|ヶ月|カ月|ケ月|年间|年間|年(?!代|级|級|前|后|後)"
    r"|天|周|星期|日間|週間|个小时|個小時|小时|小時|時間|分钟|分鐘)"
)
_CJK_SPAN_UNIT = {
    **dict.fromkeys(("个月", "個月", "か月", "ヶ月", "カ月", "ケ月"), "months"),
    **dict.fromkeys(("年间", "年間", "年"), "years"),
    **dict.fromkeys(("天", "日間"), "days"),
    **dict.fromkeys(("周", "星期", "週間"), "weeks"),
    **dict.fromkeys(("个小时", "個小時", "小时", "小時", "時間"), "hours"),
    **dict.fromkeys(("分钟", "分鐘"), "minutes"),
}


# "USD 20" is "$20", and "JPY 500" is "500 JPY" (yen, where "¥500" may be yuan); "NOK 4.8 billion"
# is "4.8 billion NOK". (In lower case, as `normalise` looks for them among a sentence's words.)
_CODES = words(
    "usd eur gbp jpy cny rmb nok sek dkk chf cad aud nzd inr krw brl mxn zar sgd hkd pln"
)
_CODE_BEFORE = re.compile(
    rf"\b({'|'.join(sorted(c.upper() for c in _CODES))})\s?"
    r"(\d[\d.,]*(?:\s(?:thousand|million|billion|trillion)\b)?)"
)
_SIGN_OF_CODE = {"USD": "$", "EUR": "€", "GBP": "£"}


def _code_before(m: re.Match[str]) -> str:
    code, amount = m.groups()
    return f"{_SIGN_OF_CODE[code]}{amount}" if code in _SIGN_OF_CODE else f"{amount} {code}"


# Month and weekday names of the other languages the UI shows, as the English one: "en abril de
# 2020" against "en marzo de 2020" is a wrong month, as "April" against "March" is. A month only
# beside a number ("mars", "mai" and "mayo" are words too); Spanish, French, Italian and
# Portuguese write them in lower case, so they were read as any other word, softly.
_FOREIGN_MONTHS = {
    name: _MONTH_NAMES[i]
    for i, names in enumerate(
        [
            "enero janvier januar janeiro gennaio",
            "febrero février februar fevereiro febbraio",
            "marzo mars märz março",
            "abril avril aprile",
            "mayo mai maio maggio",
            "junio juin juni junho giugno",
            "julio juillet juli julho luglio",
            "agosto août",
            "septiembre setiembre septembre setembro settembre",
            "octubre octobre oktober outubro ottobre",
            "noviembre novembre novembro",
            "diciembre décembre dezember dezembro dicembre",
        ]
    )
    for name in names.split()
}
_GERMAN_MONTHS = words(
    "januar februar märz april mai juni juli august september oktober november dezember"
)
# One pass over the names, the number beside checked after: a lookaround per alternative had
# made this the slowest step of reading a 2 MB request.
_FOREIGN_MONTH = re.compile(r"\b(?:" + "|".join(_FOREIGN_MONTHS) + r")\b", re.IGNORECASE)
_NUMBER_BEFORE = re.compile(r"\d\.? (?:de )?$")
_NUMBER_AFTER = re.compile(r"(?: de| del)? \d")
_FOREIGN_DAYS = {
    name: english
    for english, names in [
        ("Monday", "lunes lundi lunedì segunda-feira"),
        ("Tuesday", "martes mardi martedì terça-feira"),
        ("Wednesday", "miércoles mercredi mercoledì quarta-feira"),
        ("Thursday", "jueves jeudi giovedì quinta-feira"),
        ("Friday", "viernes vendredi venerdì sexta-feira"),
        ("Saturday", "sábado samedi sabato"),
        ("Sunday", "domingo dimanche domenica"),
    ]
    for name in names.split()
}
# Lower case only: these languages write a weekday so, and "Domingo" is a name too.
_FOREIGN_DAY = re.compile(r"\b(" + "|".join(_FOREIGN_DAYS) + r")\b")
# Chinese and Japanese numerals before a counter ("五个办公室", "三つ"); "一" is left alone, as
# "one" is in English ("一个" is also "a").
_CJK_DIGITS = {
    "二": 2,
    "两": 2,
    "兩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CJK_NUMERAL = re.compile(
    r"(?<![第一二三四五六七八九十两兩百千万萬亿億〇零])([二三四五六七八九两兩]?十[一二三四五六七八九]?|[二三四五六七八九两兩])"
    r"(?=[个個名位家座条條本件次人つ台枚匹頭冊回階种種所间間年月天周週])"
)


# "一年" is one year and "一个月" one month; elsewhere "一" begins too many words ("一起", "一些",
# "同一年" the same year) to be read as a number.
_CJK_ONE = re.compile(
    r"(?<![第一二三四五六七八九十两兩百千万萬亿億〇零同每这這那哪])一"
    r"(?=(?:个|個)?(?:月|年(?![代级級前后後])|天|周|星期|小时|小時|時間))"
)


def _cjk_numeral(m: re.Match[str]) -> str:
    written = m.group(1)
    if "十" not in written:
        return str(_CJK_DIGITS[written])
    tens, _, units = written.partition("十")
    return str(_CJK_DIGITS.get(tens, 1) * 10 + (_CJK_DIGITS.get(units, 1) if units else 0))


def _foreign_month(m: re.Match[str]) -> str:
    name, text = m.group(0), m.string
    beside = _NUMBER_BEFORE.search(text, max(0, m.start() - 6), m.start()) or _NUMBER_AFTER.match(
        text, m.end()
    )
    if not beside:
        return name
    # Spanish, French, Italian and Portuguese write a month in lower case, German capitalised:
    # "Mars 2020" is the rover, "MARS 2020" a heading, "Marzo 12" a surname and a number.
    if name.islower() or (name.istitle() and name.lower() in _GERMAN_MONTHS):
        return _FOREIGN_MONTHS[name.lower()]
    return name


_DIGIT = re.compile(r"\d")
# "7¼ miles" is 7.25 miles, not 7.
_VULGAR_FRACTION = re.compile(r"(?<![\d.,])(\d+)\s?([¼½¾])")
_FRACTION_DIGITS = {"¼": "25", "½": "5", "¾": "75"}


def _degrees(m: re.Match[str]) -> str:
    scale = (m.group(1) or m.group(2)).lower()
    # Spaced on both sides: "45°C时" is Chinese for "at 45 °C"
    return " fahrenheit " if scale.startswith("f") else " celsius "


# Words that some step of `normalise` needs before it can change anything. Every page sentence
# passes there, and most hold none of them: a set lookup is much cheaper than a regex scan, and
# no step writes one of these words for a later step to find.
_LETTERS = re.compile(r"[^\W\d_]+")
_HOW_OFTEN_WORDS = words("once twice thrice")
_MONTH_ABBREVIATIONS = words("jan feb mar apr jun jul aug sep sept oct nov dec")
_AREA_WORDS = words("km m cm mi ft square sq")
_SPEED_WORDS = words("h hr kmh kph hour mph")
_PER_FOREIGN = words("par pro por al ao im je")
_POINTS = ("point", "ponto", "punto", "punkt", "百分点")
_DEGREE_MARKS = ("°", "º", "celsius", "centigrade", "fahrenheit")
# "segunda-feira" as the words it is made of
_FOREIGN_DAY_WORDS = frozenset(name.split("-")[0] for name in _FOREIGN_DAYS)


def _any_in(text: str, parts: Sequence[str]) -> bool:
    return any(p in text for p in parts)


# What a PDF's text layer leaves in words: ligatures ("ﬁnance" for "finance") and soft hyphens
# ("inter\u00adnational"), which split a word in two; and the full-width letters and digits that
# Chinese and Japanese text types beside its own ("ＡＰＩ", "ｉＰｈｏｎｅ", "１００"), which no
# page written in ASCII matches. Full-width punctuation stays: "，" and "。" end CJK clauses.
_PLAIN_MARKS = re.compile("[\ufb00-\ufb06\u00ad\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")
_FULL_WIDTH = [*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B)]
_PLAIN = str.maketrans(
    {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl"}
    | {"\ufb05": "st", "\ufb06": "st", "\u00ad": None}
    | {chr(c): chr(c - 0xFEE0) for c in _FULL_WIDTH}
)


def plain_letters(text: str) -> str:
    """The text with a PDF's ligatures and soft hyphens and an IME's full-width letters and digits
    written as plain letters: what the lexical reading and the models both read."""
    return text.translate(_PLAIN) if _PLAIN_MARKS.search(text) else text


# A sentence that is a claim's candidate is read twice, for retrieval and then in full.
@functools.lru_cache(maxsize=32768)
def normalise(text: str) -> str:
    """The text with country spellings unified, dotted acronyms and split clitics closed up,
    two-digit year ranges and months spelled out and "24/7" read as "round the clock"."""
    # One spelling of every accented letter: a page whose "é" is "e" and a combining accent (NFD,
    # as macOS and some crawls write it) stated no "Café" that a claim typed as one letter did.
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    text = plain_letters(text)
    low = text.lower()
    found = frozenset(_LETTERS.findall(low))
    if "'" in text or "’" in text:
        text = _SPLIT_CLITIC.sub(r"\1", text)
    if "$" in text:
        text = _US_DOLLARS.sub("$", text)
    if "24" in text:
        text = _ROUND_THE_CLOCK.sub("round the clock", text)
    if "per cent" in low:
        text = _PER_CENT.sub(" percent", text)
    if found & _HOW_OFTEN_WORDS:
        text = _HOW_OFTEN.sub(lambda m: _TIMES[m.group(1).lower()], text)
    # The rules that need a digit to match are skipped for a sentence without one (most of a
    # long page).
    digits = _DIGIT.search(text) is not None
    if digits:
        text = _GLUED_MONTH.sub(" ", text)
        if not found.isdisjoint(_AREA_WORDS):
            text = _SQUARE.sub(_square, _AREA.sub(r" \1²", text))
        if not found.isdisjoint(_SPEED_WORDS):
            text = _SPEED.sub(lambda m: " kph" if m.group(1) else " mph", text)
        if not found.isdisjoint(_ENERGY_WORDS):
            text = _ENERGY.sub(lambda m: f" {m.group(1)[0].lower()}Wh", text)
        if found & _MONTH_ABBREVIATIONS:
            text = _MONTH_ABBREVIATION.sub(lambda m: _month(m.group(1) or m.group(2)), text)
        text = _DOTTED_DATE.sub(_dotted_date, text)
        if "." in text:
            text = _BARE_DECIMAL.sub(r"0.\1", text)
        if not found.isdisjoint(_FOREIGN_MONTHS):
            text = _FOREIGN_MONTH.sub(_foreign_month, text)
        text = _SPACED_THOUSANDS.sub(lambda m: re.sub(r"\D", ",", m.group(0)), text)
        if _any_in(text, "¼½¾"):
            text = _VULGAR_FRACTION.sub(
                lambda m: f"{m.group(1)}.{_FRACTION_DIGITS[m.group(2)]}", text
            )
        if found & _CODES:
            text = _CODE_BEFORE.sub(_code_before, text)
        if _any_in(text, "-/."):
            text = _ISO_DATE.sub(_iso_date, text)
        if "/" in text:
            text = _SLASHED_DATE.sub(_slashed_date, text)
        text = _CLOCK.sub(_clock, text)
        if _any_in(text, ("0s", "0's", "0’s")):
            text = _SHORT_DECADE.sub(_short_decade, text)
        if _any_in(text, "$€£"):
            text = _SIGN_AFTER.sub(r"\2\1", text)
        if "/" in text or found & _PER_FOREIGN:
            text = _FOREIGN_RATE.sub(lambda m: f" a {_RATE_IN_ENGLISH[m.group(1).lower()]}", text)
        if "/" in text:
            text = _SLASH_RATE.sub(_per_time, text)
        if _any_in(low, _POINTS):
            text = _PERCENTAGE_POINTS.sub(" ppts", text)
        if "basis" in found:
            text = _BASIS_POINTS.sub(" bps", text)
        if _any_in(low, _DEGREE_MARKS):
            text = _DEGREES.sub(_degrees, text)
        if _any_in(text, "$€£¥"):
            text = _MONEY_BILLIONS.sub(r"\1 billion", text)
    if "second" in found:
        text = _SECOND_QUARTER.sub("2nd", text)
    if "nothing" in found:
        text = _COSTS_NOTHING.sub("is free", text)
    if found & _FOREIGN_DAY_WORDS:
        text = _FOREIGN_DAY.sub(lambda m: _FOREIGN_DAYS[m.group(1)], text)
    if CJK_RE.search(text):
        text = _CJK_ONE.sub("1", _CJK_NUMERAL.sub(_cjk_numeral, text))
        text = _CJK_SPAN.sub(lambda m: f"{m.group(1)} {_CJK_SPAN_UNIT[m.group(2)]} ", text)
    if "U" in text or "britain" in found:
        for pattern, replacement in _COUNTRY_SPELLINGS:
            text = pattern.sub(replacement, text)
    text = _DOTTED.sub(lambda m: m.group(0).replace(".", "").replace(" ", ""), text)
    return _YEAR_RANGE.sub(_spell_out, text) if digits else text


_VOWELS = frozenset("aeiouy")
_SIBILANT_ES = ("sses", "xes", "zes", "ches", "shes")


def _unaccented(word: str) -> str:
    """ "zürich" as "zurich", "straße" as "strasse": a name typed without its accents ("Pablo
    Larrain" of a page's "Larraín", "Zurich" of "Zürich") is the same name. Latin letters only: a
    kana's voicing mark makes another syllable, and Greek and Cyrillic are left as written."""
    if not all(ch < "\u0250" or "\u1e00" <= ch <= "\u1eff" for ch in word):
        return word
    parts = unicodedata.normalize("NFD", word.replace("ß", "ss"))
    return "".join(ch for ch in parts if not unicodedata.combining(ch))


# Pure and called for every token of every fact sentence: a page's or a request's words repeat.
@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A deliberately tiny English stemmer: enough to match "founded"/"founder"/"founds", and to give
    every form of a verb one stem ("offer", "offers", "offered", "offering"; "provide", "provides",
    "provided"): where they differed, "does not provide" went unmatched against "provides"."""
    w = word.lower().replace("’", "'")
    if not w.isascii():
        w = _unaccented(w)
    if w.endswith("'s"):
        w = w[:-2]
    if w in PLACES:
        return PLACES[w]
    if w in _SAME_TERM:
        return _SAME_TERM[w]
    if len(w) <= 3:
        return w
    for suffix in ("ational", "ization", "ations", "ation", "ments", "ment", "ness"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            return w[: -len(suffix)]
    for suffix in ("ies", "ied"):
        if w.endswith(suffix) and len(w) > 4:
            return w[:-3] + "y"
    for suffix in ("ings", "ing", "ers", "er", "ed"):
        # "offer" is no "off" with "-er" on it, nor "under" "und"
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and w[: -len(suffix)] not in STOPWORDS:
            return _inflected_base(w[: -len(suffix)], suffix)
    if w.endswith("es") and not w.endswith(_SIBILANT_ES) and len(w) >= 5:
        w = w[:-1]  # "provides" -> "provide", then as "provide"; "boxes" -> "box" below
    else:
        for suffix in ("es", "ly", "s"):
            if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith("ss"):
                w = w[: -len(suffix)]
                break
    return _without_e(w)


def _without_e(w: str) -> str:
    """ "provide" -> "provid", as "provided" and "providing" have it. Four-letter words keep their
    "e", which "making" and "timed" get back in `_inflected_base` ("make" and "mak" would differ)."""
    return w[:-1] if w.endswith("e") and len(w) >= 5 else w


def _inflected_base(base: str, suffix: str) -> str:
    """The stem of a word once "-ing", "-ed" or "-er(s)" is off: "stopped" -> "stop" (not "stopp"),
    "covered" -> "cove" (as "cover" is), "making" -> "make" (as "make" is)."""
    doubled = len(base) >= 4 and base[-1] == base[-2] and base[-1] in "bgmnprt"
    if doubled:
        base = base[:-1]
    verb = suffix in ("ing", "ings", "ed")
    if verb and base.endswith("er") and len(base) >= 5 and base[:-2] not in STOPWORDS:
        base = base[:-2]
    short = not doubled and len(base) == 3
    if (
        short
        and base[0] not in _VOWELS
        and base[1] in _VOWELS
        and base[2] not in _VOWELS | {"w", "x"}
    ):
        return base + "e"  # consonant, vowel, consonant: "mak(ing)", "tim(ed)"
    return _without_e(base)


def tokenize(text: str) -> list[str]:
    """Surface tokens; CJK characters are one token each (no spaces to split on). The same as
    `signed_tokens(text)[0]`, without reading signs and clauses."""
    out: list[str] = []
    for tok in TOKEN_RE.findall(text):
        if not tok.isascii() and CJK_RE.search(tok):
            out.extend(tok)
        else:
            out.append(tok)
    return out


# The forms of "be" before a passive participle: "were banned", "will be allowed".
PASSIVE_AUXILIARIES = words("is are was were be been being")
DETERMINERS = frozenset(["the", "a", "an", "its", "his", "her", "their", "our", "my", "your"])
