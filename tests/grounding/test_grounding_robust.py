"""Other people's text, in shapes nobody wrote a reading for, never breaks a check.

Each reading of numbers, dates and signs is written for the shapes it was found in; a shape
beside them ("²" is a digit to `str.isdigit` and no number to `int`) had crashed a whole
evaluation once. These answers and facts are random runs of such shapes, checked end to end.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundview.grounding import Engine

# Pieces the readings treat specially, and their near misses: clocks, signs, ranges, dates,
# decades, numbers in words and other scripts, list markers, citation marks, negations, names.
PIECES = [
    # clocks, and digits of other kinds
    "21:16",
    "10:45 p.m.",
    "8am",
    "13:00",
    "24:00",
    "99:99",
    "12:30:45",
    "1:2:3",
    ":30",
    "²",
    "³",
    "٣",
    "①",
    "１２",
    "7¼",
    "½",
    # money and rates
    "$",
    "$5",
    "$5-6 million",
    "US$5",
    "R$ 10",
    "¥500",
    "29 € par mois",
    "5 € pro Monat",
    "10-20%",
    "41,3 %",
    # grouped thousands, decimals, versions
    "12 000",
    "1.234,56",
    "2.500.000",
    "2.3.1",
    ".271",
    "0.25 percentage points",
    "12 per cent",
    # dates and timestamps
    "2018-06-30T07:00:00Z",
    "2013/10/22",
    "12.03.21",
    "1999–00",
    "2018–19",
    "2019 - 12:00AM",
    # lifespans and decades
    "(10 February 1894 – 29 December 1986)",
    "the '80s",
    "the mid-80s",
    "his 30's",
    "1990s",
    "30s",
    # places in a row and numbers in words
    "12th",
    "21st century",
    "twenty-five",
    "two hundred and nineteen",
    "half a million",
    # counts by an article, how often, spans
    "eine Million",
    "plus d'un million",
    "twice a day",
    "two decades",
    "forty percents",
    # measures, codes and minus signs
    "52 km²",
    "20 sq mi",
    "60 mph (97 km/h)",
    "40 °C",
    "24/7",
    "COVID-19",
    "FITNESS15",
    "-$250",
    "(-5%)",
    # Chinese and Japanese, sentence and list marks
    "一年",
    "两个小时",
    "2个月",
    "2020年",
    "14天",
    "五个办公室",
    "低于",
    "。",
    "，",
    "：",
    "1.",
    "2.",
    "3.",
    "\n1.",
    "\n2.",
    "\n- ",
    # citation marks, markup, pronouns and answers
    "[1]",
    "[^1]",
    "【4:0†source】",
    "[link](http://x.y/z)",
    "```",
    "It",
    "They",
    "它",
    "Yes,",
    "No,",
    # negations, rankings, hedges and names
    "not",
    "never",
    "didn't",
    "none of",
    "the largest",
    "said",
    "may",
    "free",
    "Smith",
    "J. D. Salinger",
    "U.S.",
    # accents, ligatures, emoji and joiners; small words
    "Zürich",
    "ﬁnance",
    "e\u0301",  # "é" as "e" and a combining accent
    "👍🏽",
    "👨\u200d👩\u200d👧",
    "\u00a0",
    "and",
    "or",
    "from",
    "to",
    "more than",
    "at least",
    # months and dates written otherwise, counts of things
    "May",
    "Nov 14",
    "30 JUN 2018",
    "en abril de 2020",
    "track 16",
    "seven siblings",
    "3.64 ERA",
    "born",
    # changes, opening hours and malformed numbers
    "rose",
    "fell",
    "closes at 8 am",
    "open from 08:00 to 20:00",
    "1,500.25",
    "1,,5",
    "5..",
    "%5",
    "1:1",
    "3/4",
]
SEPARATORS = [" ", " ", "", "\n", ". ", ", "]


@st.composite
def texts(draw: st.DrawFn, least: int, most: int) -> str:
    pieces = st.tuples(st.sampled_from(PIECES), st.sampled_from(SEPARATORS))
    parts = draw(st.lists(pieces, min_size=least, max_size=most))
    return "".join(piece + sep for piece, sep in parts)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(answer=texts(3, 30), facts=st.lists(texts(10, 60), min_size=1, max_size=3))
def test_a_check_of_any_such_text_answers_with_spans_and_scores_in_range(
    engine: Engine, answer: str, facts: list[str]
) -> None:
    request = {
        "answerCandidate": answer,
        "facts": [{"factText": f} for f in facts],
        "groundingSpec": {"enableClaimLevelScore": True},
    }
    response = engine.check(request)
    encoded = answer.encode()
    assert 0.0 <= response["supportScore"] <= 1.0
    for claim in response.get("claims", []):
        start, end = claim.get("startPos", 0), claim["endPos"]
        assert 0 <= start < end <= len(encoded)
        assert encoded[start:end].decode() == claim["claimText"]
        if "score" in claim:
            assert 0.0 <= claim["score"] <= 1.0
        for index in claim.get("citationIndices", []):
            assert 0 <= index < len(response["citedChunks"])
