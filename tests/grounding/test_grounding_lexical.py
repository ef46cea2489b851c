"""How the engine reads text: numbers with their units, dates, names, stems and negations
(`lexical.py`, `numbers.py`, `analysis.py`)."""

from __future__ import annotations

from groundview.grounding import Engine
from groundview.grounding.analysis import analyse, index_stems
from groundview.grounding.context import resolve
from groundview.grounding.lexical import normalise, plain_letters, stem, tokenize
from groundview.grounding.numbers import numbers_match, signed_tokens


def test_numbers_with_different_units_do_not_match() -> None:
    claim = analyse("Each attachment can be up to 100 MB.").numbers[0]
    fact = analyse("Workspaces include 100 GB of storage; attachments up to 50 MB.").numbers
    assert [numbers_match(claim, n) for n in fact] == [False, False]
    assert numbers_match(claim, analyse("a limit of 100 MB").numbers[0])
    # A sign is a unit too: "$50" is not "50%", and "499 USD" is "$499"
    dollars, percent = analyse("It costs $50 with a 50% discount.").numbers
    assert (dollars.text, dollars.unit, percent.text, percent.unit) == (
        "$50",
        "dollars",
        "50%",
        "percent",
    )
    assert not numbers_match(dollars, percent)
    # A price is no year, and a unit word that repeats the sign is no thing counted
    price = analyse("It costs $1999, or $499 USD per month.").numbers
    assert [(n.text, n.is_year, sorted(n.counted)) for n in price] == [
        ("$1999", False, []),
        ("$499 USD a month", False, ["month"]),
    ]
    usd = analyse("499 USD").numbers[0]
    assert usd.unit == "dollars" and numbers_match(analyse("$499 a month").numbers[0], usd)
    assert analyse("€1.5 million").numbers[0].text == "€1.5 million"


def test_a_sign_reaches_a_spaced_amount_both_ends_of_a_range_and_the_yen() -> None:
    # Tokenised corpora space the sign off; a range writes it once
    assert [(n.text, n.unit) for n in analyse("It grossed $ 181,674,817 in all.").numbers] == [
        ("$181,674,817", "dollars")
    ]
    assert [n.unit for n in analyse("Fees rose 10-20% on plans of $10–20.").numbers] == [
        "percent",
        "percent",
        "dollars",
        "dollars",
    ]
    # A spaced dash is punctuation: no range, and no sign carried over it
    assert [
        n.text for n in analyse("He scored 12 — 40% of the points; $5 - 10 people").numbers
    ] == [
        "12",
        "40%",
        "$5",
        "10",
    ]
    # "US$5" is a price, and no mention of the country; "the U.S. $20 million" still names it
    us = analyse("It costs US$5.")
    assert [n.text for n in us.numbers] == ["$5"] and not us.names
    assert analyse("Microsoft will pay the U.S. $20 million.").names == {"usa"}
    # "¥" writes yen and yuan alike, but no dollar; "¥1999" and "1999 USD" are no years
    yen = analyse("It costs ¥500.").numbers[0]
    assert not numbers_match(yen, analyse("It costs $500.").numbers[0])
    assert numbers_match(yen, analyse("500 yen").numbers[0])
    assert numbers_match(analyse("500 yuan").numbers[0], yen)
    assert not numbers_match(analyse("500 yuan").numbers[0], analyse("500 yen").numbers[0])
    assert [n.is_year for n in analyse("¥1999 or 1999 USD, since 1999.").numbers] == [
        False,
        False,
        True,
    ]


def test_a_range_writes_its_scale_and_unit_once_and_a_foreign_dollar_is_no_dollar() -> None:
    assert [(n.value, n.unit) for n in analyse("It raised $5-6 million.").numbers] == [
        (5e6, "dollars"),
        (6e6, "dollars"),
    ]
    assert [(n.value, n.unit) for n in analyse("between 1,000 and 2,000 USD").numbers] == [
        (1000, "dollars"),
        (2000, "dollars"),
    ]
    assert [n.unit for n in analyse("a walk of 5 to 10 km").numbers] == ["km", "km"]
    # "m" is metres as often as millions, a year no range end, an ordinal no amount
    assert [n.value for n in analyse("buried under 4 to 6 m of ash").numbers][0] == 4
    assert [n.value for n in analyse("in 2019 5 million people").numbers] == [2019, 5e6]
    # a sign before the second end is that end's alone
    assert [n.value for n in analyse("He had 2 and $5 million").numbers] == [2, 5e6]
    assert [n.unit for n in analyse("the first 3 months").numbers] == ["", "months"]
    assert [n.value for n in analyse("It raised $5-6bn.").numbers] == [5e9, 6e9]
    # a price range may start at a number that reads like a year
    assert [(n.unit, n.is_year) for n in analyse("1500-2000 USD").numbers] == [
        ("dollars", False),
        ("dollars", False),
    ]
    # "R$" is the real and "A$" the Australian dollar: each its own currency, no plain "$"
    foreign = analyse("It costs R$ 10 or A$5.").numbers
    assert [(n.text, n.unit) for n in foreign] == [("R$10", "r$"), ("A$5", "a$")]
    assert not numbers_match(foreign[0], analyse("It costs $10.").numbers[0])
    assert not numbers_match(analyse("C$2 billion").numbers[0], analyse("€2 billion").numbers[0])
    assert analyse("USD$5,000").numbers[0].unit == "dollars"


def test_an_ordinal_is_a_number_however_written() -> None:
    nineteenth = analyse("the nineteenth president").numbers
    assert [(n.value, n.text) for n in nineteenth] == [(19, "nineteenth")]
    assert numbers_match(analyse("the 19th president").numbers[0], nineteenth[0])
    assert analyse("the 2nd president").content == ["president"]
    # a share is a percentage, no place in a row; a place is its number ("the fifth season")
    assert [(n.value, n.unit) for n in analyse("about one-tenth of the force").numbers] == [
        (10.0, "percent")
    ]
    assert numbers_match(analyse("a fifth season").numbers[0], analyse("season 5").numbers[0])
    # tens and units joined by a hyphen are one number, and apart two
    assert [n.value for n in analyse("the twenty-first president").numbers] == [21]
    assert [n.value for n in analyse("twenty-five people").numbers] == [25]
    assert [n.value for n in analyse("She was twenty. One day she left.").numbers] == [20]
    # "St" after a number is a name, not the number's place
    assert "st" in analyse("10 St Mary's Road").content
    # a date's ordinal is the day
    assert numbers_match(
        analyse("on the 5th of November").numbers[0], analyse("on 5 November").numbers[0]
    )


def test_a_bound_does_not_match_the_opposite_bound() -> None:
    under = analyse("free shipping on orders under $100").numbers[0]
    assert not numbers_match(under, analyse("free shipping on orders over $100").numbers[0])
    assert numbers_match(under, analyse("orders below $100 ship free").numbers[0])
    # "More than 1,500" is still backed by the figure it rounds
    assert numbers_match(
        analyse("over 1,500 people").numbers[0], analyse("1,532 people").numbers[0]
    )
    # An article between the bound and its number keeps the bound
    dozen = analyse("More than a dozen people died.").numbers[0]
    assert numbers_match(dozen, analyse("13 people died.").numbers[0])
    assert not numbers_match(dozen, analyse("11 people died.").numbers[0])


def test_a_demonym_and_its_country_are_one_term() -> None:
    assert analyse("a Canadian singer").names == analyse("She moved to Canada").names == {"canada"}
    for spelling in ("the U.S. House", "the United States House", "the US House", "the U.S House"):
        assert analyse(spelling).names == {"usa", stem("house")}, spelling
    # Lower case "us" is the pronoun, not the country
    assert "usa" not in analyse("They told us the United Kingdom left.").stems
    assert "uk" in analyse("They told us the United Kingdom left.").stems


def test_a_us_state_s_demonym_and_the_state_are_one_term() -> None:
    # Given claims that call someone by their state, as Wikipedia claims often do
    assert analyse("Meat Loaf is Texan.").names == {stem("loaf"), "texas"}
    assert analyse("He was born in Texas.").names == {"texas"}
    assert "missouri" in analyse("Earl Weaver was a Missourian.").names
    assert "california" in analyse("Joe Cronin is a Californian.").names
    # A state's name stems as itself, not as a plural: "Illinois" is no "illinoi"
    assert stem("Illinois") == "illinois" and stem("Texas") == "texas"
    # "Georgian" is left alone: a country's too, and an era's
    assert stem("Georgian") != stem("Georgia")


def test_tokenised_text_reads_as_written_text() -> None:
    tokenised = analyse(
        "Poseidon did n't gross $ 181,674,817 ; Warner 's budget was $ 160 million ."
    )
    written = analyse("Poseidon didn't gross $181,674,817; Warner's budget was $160 million.")
    assert tokenised.tokens == written.tokens
    assert tokenised.negates == written.negates == {"gross"}
    assert [n.value for n in tokenised.numbers] == [181674817.0, 160000000.0]
    # A quoted word is not a clitic
    assert "rock" in analyse("a 'rock 'n' roll' band").content


def test_a_two_digit_year_range_states_both_years() -> None:
    claim = analyse("The name change takes effect in 2019.").numbers[0]
    assert any(numbers_match(claim, n) for n in analyse("during the 2018–19 academic year").numbers)
    assert not any(numbers_match(claim, n) for n in analyse("the 1998-99 season").numbers)
    century = analyse("the 1999–00 season").numbers
    assert [n.value for n in century] == [1999.0, 2000.0]
    # A score is not a range of years
    assert [n.value for n in analyse("United beat Arsenal 5–4").numbers] == [5.0, 4.0]


def test_a_page_header_states_no_year_its_date_or_clock_does_not_write() -> None:
    years = lambda text: {n.value for n in analyse(text).numbers if n.is_year}  # noqa: E731
    # A timestamp is a date, not the years 2001 to 2006 (nor 2018 to 2106)
    assert years("PUBLISHED DATETIME: 2001-06-26T21:16:56-0400") == {2001}
    assert years("PUBLISHED DATETIME: 2018-06-30T07:00:00Z") == {2018}
    assert normalise("2018-06-30T07:00:00Z") == "30 June 2018 07:00:00Z"
    # and the year first is a date however it is separated
    assert normalise("2013/10/22 20:01, 2011.02.22") == "22 October 2013 20:01, 22 February 2011"
    assert normalise("version 2.2011.02.22.5") == "version 2.2011.02.22.5"
    # nor is a year before a clock a span of years
    assert years("April 11 2019 - 12:00AM") == {2019}
    assert years("on August 15, 2009 - 10:26pm") == {2009}
    # A year's two last digits cross into the next century only within ten years
    assert years("the 1998–02 span") == {1998, 2002}
    assert years("an ISO month, 2018-06") == {2018}
    # A header's month in capitals, or glued to the menu before it, is the month
    assert normalise("30 JUN 2018, NOV 14") == "30 June 2018, November 14"
    assert normalise("NewsOPINIONApril 11 2019") == "NewsOPINION April 11 2019"
    assert normalise("the MARS 2020 rover") == "the MARS 2020 rover"


def test_a_month_is_one_name_however_a_date_is_written() -> None:
    claim = analyse("Paterson died on November 10, 2018.")
    for written in ("Paterson died Nov. 10, 2018.", "died 10 Nov 2018", "died 2018-11-10"):
        fact = analyse(written)
        assert "novemb" in fact.stems, written
        assert [n.value for n in fact.numbers] == [10.0, 2018.0]
        assert not any(n.count for n in fact.numbers), written
    assert "novemb" in claim.names
    # A slashed date where only one order makes a date, as America or Europe writes it
    assert normalise("released 03/15/2024, or 15/03/2024") == (
        "released 15 March 2024, or 15 March 2024"
    )
    assert normalise("on 05/05/2024") == "on 5 May 2024"
    assert normalise("on 06/02/2024, 24/7, 1/2/3") == "on 06/02/2024, round the clock, 1/2/3"
    # An abbreviation with no number beside it is left as written
    assert "march" not in analyse("Protesters mar the Mar parade.").stems


def test_a_capital_after_a_colon_starts_a_sentence_and_names_nothing() -> None:
    claim = analyse("The second pillar is a Migration Plan: Creating a migration plan.")
    assert "creat" not in claim.names
    assert {"migr", "plan"} <= claim.names
    # Unless the word is a name anyway: written in capitals
    assert "kbe" in analyse("Honours: KBE, 1970.").names
    assert "東" not in analyse("以下是摘要：東京").names


def test_round_the_clock_is_no_count() -> None:
    assert analyse("Expert support 24/7 for $480/month.").numbers[0].value == 480.0
    assert len(analyse("Expert support 24/7 for $480/month.").numbers) == 1
    assert analyse("support 24x7").content == analyse("support round the clock").content


def test_a_negation_takes_the_word_it_negates() -> None:
    assert analyse("He did not recommend the Gold plan.").negates == {"recommend"}
    # A cue that takes a noun phrase negates the next word as well
    assert analyse("There are no available discounts.").negates == {stem("available"), "discount"}
    # So does a negated "have" of ownership, as "without" does
    solid_surface = {stem("solid"), stem("surface")}
    assert analyse("Neptune does not have a solid surface.").negates == solid_surface
    assert analyse("Neptune doesn’t have a solid surface.").negates == solid_surface
    assert analyse("Neptune is a gas giant without a solid surface.").negates == solid_surface
    assert analyse("The firm has not had steady profits.").negates == {
        stem("steady"),
        stem("profits"),
    }
    # A past tense, an obligation or "not enough" owns nothing
    assert analyse("Critics could not have predicted strong sales.").negates == {stem("predicted")}
    assert analyse("You do not have to pay monthly fees.").negates == {"pay"}
    assert analyse("The bill did not have enough votes.").negates == {stem("enough")}
    # An adverb in between is skipped; curly apostrophes and prefixes count
    assert analyse("The client is not currently insured.").negates == {analyse("insured").stems[0]}
    assert analyse("She didn’t call back.").negates == {"call"}
    assert stem("exclusive") in analyse("It is a non-exclusive offer.").negates
    # Idioms are not negations
    assert analyse("It is not only cheap but fast.").negates == frozenset()
    assert analyse("No doubt the plan works.").negates == frozenset()


def test_cannot_help_but_is_no_negation() -> None:
    assert analyse("I cannot help but notice your growth.").negates == frozenset()
    assert analyse("Our tools cannot help your business.").negates == {"help"}


def test_none_of_a_group_denies_its_verb() -> None:
    assert analyse("None of 150 untrained bees opened the box.").negates == {stem("opened")}
    assert analyse("None of the money was spent.").negates == {stem("spent")}
    assert analyse("Neither of the candidates has conceded.").negates == {stem("conceded")}


def test_an_opening_no_that_answers_a_question_denies_nothing() -> None:
    # A help page's or a chat's answer opens with its "No," and then states what is so
    assert analyse("No, refunds take 10 days.").negates == frozenset()
    assert analyse("Not really, the team won the league.").negates == frozenset()
    # A "no" that is part of what the sentence says still negates
    assert analyse("No refunds are given.").negates == {stem("refund")}
    assert stem("refund") in analyse("There are no refunds, sadly.").negates
    assert analyse("No one signed, and the deal failed.").negates


def test_a_claim_stated_by_a_page_that_opens_with_no_is_supported(engine: Engine) -> None:
    page = "Are refunds instant? No, refunds take 10 days."
    response = engine.check(
        {
            "answerCandidate": "Refunds take 10 days.",
            "facts": [{"factText": page}],
            "groundingSpec": {"enableClaimLevelScore": True},
        }
    )
    assert response["claims"][0]["score"] >= 0.6


def test_not_until_is_no_negation() -> None:
    assert analyse("She did not win a title until 1998.").negates == frozenset()
    assert analyse("She did not win a title in 1998.").negates == {"win"}


def test_every_form_of_a_verb_has_one_stem() -> None:
    for forms in (
        "offer offers offered offering",
        "provide provides provided providing provider",
        "include includes included including",
        "make makes making",
        "stop stops stopped stopping",
        "transfer transfers transferred transferring",
        "cover covers covered covering",
        "hire hires hired hiring",
        "service services",
        "house houses",
        "agree agrees agreed",
    ):
        assert len({stem(w) for w in forms.split()}) == 1, forms
    # Different words stay different
    assert stem("notes") != stem("not")
    assert stem("offer") != stem("off")
    assert stem("box") == stem("boxes")
    assert stem("hoped") != stem("hopped")


def test_a_unit_symbol_and_its_word_are_one_unit() -> None:
    pairs = [
        ("The tower is 330 m tall.", "The tower is 330 metres tall."),
        ("It took 30 s.", "It took 30 seconds."),
        ("It lasted 2 h.", "It lasted 2 hours."),
        ("It weighs 5 g.", "It weighs 5 grams."),
        ("It holds 20 l.", "It holds 20 litres."),
        ("A 60 W bulb.", "A 60 watt bulb."),
        ("It is 12 cm long.", "It is 12 centimetres long."),
        ("It weighs 10 lb.", "It weighs 10 pounds."),
    ]
    for short, spelled in pairs:
        claim, fact = analyse(short).numbers[0], analyse(spelled).numbers[0]
        assert numbers_match(claim, fact), (short, spelled)
    # and a length is still no weight
    assert not numbers_match(analyse("It is 5 m long.").numbers[0], analyse("5 kg").numbers[0])


def test_a_lower_case_m_after_a_number_may_be_metres_or_millions() -> None:
    def matches(claim: str, fact: str) -> bool:
        return numbers_match(analyse(claim).numbers[0], analyse(fact).numbers[0])

    # "330 m" is 330 metres, and "2.1m" 2.1 million: the words around do not tell, both fit
    assert matches("The tower is 330 m tall.", "The tower is 330 metres tall.")
    assert matches("A population of 2.1m.", "A population of 2.1 million.")
    assert not matches("The tower is 330 m tall.", "The tower is 320 metres tall.")
    assert not matches("A population of 2.4m.", "A population of 2.1 million.")
    # money, and an upper-case M, are millions only
    assert [(n.value, n.unit) for n in analyse("It raised $5m and 5m euros.").numbers] == [
        (5e6, "dollars"),
        (5e6, "euros"),
    ]
    assert not matches("It raised $330m.", "It is 330 metres tall.")
    assert [(n.value, n.unit) for n in analyse("Valued at 30M.").numbers] == [(30e6, "")]


def test_numbers_as_other_languages_and_formats_write_them() -> None:
    def read(text: str) -> list[tuple[float, str]]:
        return [(n.value, n.unit) for n in analyse(text).numbers]

    # German thousands and decimals, spaced thousands (space, NBSP, narrow NBSP), scale words
    assert read("2.500.000 und 1.234,56 Euro") == [(2_500_000, ""), (1234.56, "euros")]
    assert read("12 000, 12\u00a0000 and 12\u202f000") == [(12_000, "")] * 3
    assert read("In 2019 500 people came") == [(2019, ""), (500, "")]  # a year is no group
    assert read("1,5 Mio., 2,8 Mrd., 1,5 millones, 150万, 15亿") == [
        (1.5e6, ""),
        (2.8e9, ""),
        (1.5e6, ""),
        (1.5e6, ""),
        (1.5e9, ""),
    ]
    # One dot stays a decimal point: "2.500" may be either, and English writes 2.5 so
    assert read("2.500 euros") == [(2.5, "euros")]
    # A version or an address is one number, equal only to itself
    version, other = (analyse(t).numbers[0] for t in ("version 2.3.1", "version 2.4.0"))
    assert version.unit == "dotted" and not numbers_match(version, other)
    assert numbers_match(version, analyse("release 2.3.1").numbers[0])
    assert not numbers_match(analyse("10.0.0.1").numbers[0], analyse("0.10.0.0.1").numbers[0])
    # A minus sign, also U+2212 and before a currency sign; not a range's dash or a name's hyphen
    assert read("-$250, −12 °C and (-5%)") == [(-250, "dollars"), (-12, "celsius"), (-5, "percent")]
    assert read("pages 5 -10 of COVID-19") == [(5, ""), (10, ""), (19, "")]
    assert not numbers_match(analyse("-$250").numbers[0], analyse("$250").numbers[0])
    # A currency code before the amount, and Chinese and Japanese numerals before a counter
    assert read("USD 20 or EUR 5") == [(20, "dollars"), (5, "euros")]
    assert read("五个办公室、三つの展望台、二十五个人") == [(5, ""), (3, ""), (25, "")]
    assert read("一个人") == []  # "a person", as "one" is left alone in English
    assert read("三百二十五人") == []  # hundreds are not read: no "25" from the end of 325
    # What the spaced-thousands rule leaves apart, and what it reads as thousands
    assert [n.value for n in analyse("20 100-page books, 4 100m relays").numbers] == [
        20,
        100,
        4,
        100,
    ]
    assert read("Call 555 123 4567") == [(555, ""), (123, ""), (4567, "")]
    assert [n.is_year for n in analyse("La ville compte 1 850 habitants.").numbers] == [False]
    # "JPY 500" is yen, not the yuan "¥500" may also be
    assert read("JPY 500") == [(500, "yen")]
    assert not numbers_match(analyse("JPY 500").numbers[0], analyse("500 yuan").numbers[0])


def test_dates_and_months_as_other_languages_write_them() -> None:
    # A dotted date is day, month, year; a month name of ES, FR, DE, PT or IT beside a number is
    # the English one, so a wrong month is a name the evidence does not state
    assert normalise("am 12.03.2021") == "am 12 March 2021"
    assert normalise("am 12.03.21") == "am 12 March 2021"
    assert normalise("en abril de 2020, le 3 mars, am 3. März, il 5 maggio") == (
        "en April de 2020, le 3 March, am 3. March, il 5 May"
    )
    assert normalise("Mars 2020 landed; MARS 2020; Mario Marzo 12; the mayo was 2 days old") == (
        "Mars 2020 landed; MARS 2020; Mario Marzo 12; the mayo was 2 days old"
    )
    assert normalise("im Mai 2020") == "im May 2020"
    assert normalise("el lunes y el martes; Plácido Domingo") == (
        "el Monday y el Tuesday; Plácido Domingo"
    )
    assert "april" in analyse("entró en vigor en abril de 2020").names
    # A scale after a number is part of it: no name "Mio", no word "millones"
    mio = analyse("Die Stadt hat 1,5 Mio. Einwohner.")
    assert "mio" not in mio.names and "mio" not in mio.content


def test_every_rewrite_of_normalise_still_applies_where_its_words_are() -> None:
    # normalise skips a rewrite when the sentence lacks the words it needs; each of these needs one
    assert normalise("He did n't pay US$5 for 24/7 help, 12 per cent of it twice a day") == (
        "He didn't pay $5 for round the clock help, 12 percent of it 2 times a day"
    )
    assert normalise("NOK 4.8 billion on 2021-03-04 at 8 a.m.; 7½ km; 19,99 € al mes") == (
        "4.8 billion NOK on 4 March 2021 at 8 am; 7.5 km; €19,99 a month"
    )
    assert normalise("up 3 percentage points, 25 basis points, 25 °C, $4.2B") == (
        "up 3 ppts, 25 bps, 25 celsius , $4.2 billion"
    )
    assert normalise(
        "the second quarter costs nothing; el viernes; the U.K. and Great Britain"
    ) == ("the 2nd quarter is free; el Friday; the UK and UK")
    assert normalise("the 2018–19 season") == "the 2018–2019 season"


def test_what_retrieval_indexes_is_what_the_full_reading_stems() -> None:
    for text in [
        "Revenue fell 23% to 412 million kronor in 2018–19, 两个小时 and 五个办公室.",
        "Between 30 and 40 years; $10-20; the 1990s; twenty-five; dix-sept ans; Tsubame-2.",
        "Apple 's CEO did n't say: \"It's 24/7\" (U.S. only)",
    ]:
        assert index_stems(text) == analyse(text).stems
        assert tokenize(normalise(text)) == signed_tokens(normalise(text))[0]


def test_per_cent_is_a_percentage_and_a_fraction_is_a_share() -> None:
    # "12 per cent" had no unit, so "$12" backed it; "two-thirds of voters" read as two voters
    per_cent = analyse("Sales rose 12 per cent last year.").numbers
    assert [(n.value, n.unit) for n in per_cent] == [(12, "percent")]
    assert numbers_match(per_cent[0], analyse("Sales rose 12% last year.").numbers[0])
    assert not numbers_match(per_cent[0], analyse("Sales rose by $12.").numbers[0])
    shares = analyse("Two-thirds of voters and three quarters of the staff agreed.").numbers
    assert [(n.value, n.unit, n.counted) for n in shares] == [
        (66.7, "percent", frozenset()),
        (75.0, "percent", frozenset()),
    ]
    assert [n.value for n in analyse("The third season aired in 2010.").numbers] == [3, 2010]


def test_a_currency_or_percent_word_after_a_number_is_part_of_it() -> None:
    for claim in ("The plan costs 5 USD a month.", "Der Tarif kostet 5 Euro im Monat."):
        a = analyse(claim)
        assert not {"usd", "euro"} & (set(a.content) | a.names)
        assert [n.unit for n in a.numbers] == [("dollars" if "USD" in claim else "euros")]
    assert "percent" not in analyse("It grew 10 percent.").content
    # Not after a number it stays a word
    assert "euro" in analyse("The Euro fell against the dollar.").names


def test_german_nouns_are_no_names() -> None:
    assert analyse("Der Akku hält laut Hersteller bis zu 10 Stunden.").names == set()
    assert analyse("Laut Hersteller hält der Akku bis zu 10 Stunden.").names == set()
    # English keeps its names, "die" and "was" being English words too
    assert analyse("He was told to die by Hersteller.").names == {stem("Hersteller")}


def test_an_acknowledgement_before_a_statement_is_not_scored_nor_a_name() -> None:
    assert resolve(
        [
            "OK, the Pro plan includes audit logs.",
            "Okay, refunds take 10 days.",
            "Oh, it also has SSO.",
            "Yep, the trial lasts 14 days.",
        ]
    ) == [
        "The Pro plan includes audit logs.",
        "Refunds take 10 days.",
        # the pronoun is still read from the claim before it
        "The Pro plan also has SSO.",
        "The trial lasts 14 days.",
    ]
    # "OK" is no name a page must mention, nor a word it must say, wherever it stands
    assert analyse("Click OK, then the export starts.").names == set()
    assert "ok" not in analyse("Click OK, then the export starts.").content


def test_not_available_negates_what_is_not_available() -> None:
    assert "refund" in analyse("Refunds for monthly plans are not available.").negates
    assert "delivery" in analyse("In 2020, same-day delivery was not available.").negates
    # A property says nothing against the thing, nor does an exception
    assert "plan" not in analyse("Annual plans are not refundable.").negates
    assert "drug" not in analyse("The drug is not available without a prescription.").negates
    # Only a subject right before the copula: "…more than once, but was not allowed"
    assert analyse("He tried to leave more than once, but was not allowed.").negates == {"allow"}


def test_an_acronym_with_a_possessive_is_still_an_acronym() -> None:
    assert analyse("The Cubs had MLB's best record.").acronyms == {"mlb"}


def test_a_negation_in_a_condition_states_nothing() -> None:
    assert analyse("They'll expire if not used by 31 March.").negates == frozenset()
    assert analyse("If you can't access that email, contact support.").negates == frozenset()
    # The main clause's negation still counts
    assert analyse("If you cancel, you will not be refunded.").negates == {stem("refunded")}
    # "no longer have access" negates the access
    assert analyse("You no longer have access to the beta.").negates == {stem("access")}


def test_an_act_named_by_not_and_a_gerund_states_nothing() -> None:
    # "Not returning a fob costs £15" is what "if you do not return it, it costs £15" says
    fob = "Not returning an access fob when moving out costs £15, the same as a replacement fob."
    assert analyse(fob).negates == frozenset()
    assert analyse("Not paying on time incurs a £20 fee.").negates == frozenset()
    # A participle before the comma, a statement, and an act after a preposition still deny
    assert analyse("Not knowing the answer, he guessed.").negates == {stem("knowing")}
    assert analyse("Customers are not returning their fobs.").negates == {stem("returning")}
    paid = analyse("The company was criticised for not paying its suppliers.")
    assert stem("paying") in paid.negates


def test_the_subject_is_not_read_from_an_aside() -> None:
    assert analyse("The club, second-bottom of the Championship, has won two games.").subject == ""
    assert analyse("In 2016, the Cubs won the World Series.").subject == stem("Cubs")
    assert analyse("Jupiter has 95 moons.").subject == stem("Jupiter")
    # A common noun before the verb is the subject, and a name after it is not
    win = "The win will lift her to around 45th and makes her the first Nigerian woman to do so."
    assert analyse(win).subject == ""
    assert analyse("The team led by Smith has won.").subject == stem("Smith")


def test_a_change_and_a_new_amount_are_no_range() -> None:
    profit = analyse("Operating profit slipped 6% to NOK 410 million.")
    assert [(n.value, n.unit) for n in profit.numbers] == [(6, "percent"), (410e6, "nok")]
    assert [n.value for n in analyse("It costs $5-6 million.").numbers] == [5e6, 6e6]


def test_other_languages_negations_are_read() -> None:
    assert analyse("Die Gebühr wird nicht erstattet.").negates == {stem("erstattet")}
    assert analyse("Les articles soldés ne sont pas remboursés.").negates == {stem("remboursés")}
    assert stem("rückerstattung") in analyse("Es gibt keine Rückerstattung.").negates
    assert analyse("O reembolso não é possível.").negated
    # Portuguese "no" is "in the"
    teatro = analyse("Inaugurado no fim de 1896, o Teatro Amazonas fica em Manaus.")
    assert not teatro.negated and teatro.negates == frozenset()
    # French counts past sixteen are one word
    assert [n.value for n in analyse("pendant dix-sept ans").numbers] == [17]


def test_a_number_joined_to_a_word_by_a_hyphen_names_a_model() -> None:
    (model,) = analyse("The Tsubame-2 rocket reached orbit.").numbers
    assert not model.count
    assert [n.count for n in analyse("It costs 5-10 euros.").numbers] == [True, True]


def test_a_bound_an_adjective_failed_and_a_step_deny_or_count_nothing() -> None:
    assert not analyse("Take no more than six tablets in 24 hours.").negates
    assert not analyse("It came after a failed first attempt.").negates
    assert analyse("The rocket failed to reach orbit.").negates == {"reach"}
    assert analyse("He is no longer a member.").negates == {"memb"}
    # "First," opens a sequence of steps; "came first" is a place
    assert not analyse("First, try restarting the hub.").numbers
    assert [n.text for n in analyse("She came first, ahead of Jones.").numbers] == ["first"]


def test_what_a_number_counts_stands_in_its_clause() -> None:
    funding = analyse("It lifts funding by 9% to roughly $11,900 and sets aside $250 million.")
    assert [sorted(n.counted) for n in funding.numbers][1:] == [[], []]
    price = analyse("The median price was €335,000, ranging from €185,000 in Longford.")
    assert not price.numbers[0].counted
    assert [sorted(n.counted) for n in analyse("It has 3 apples and 4 pears.").numbers] == [
        ["appl"],
        ["pear"],
    ]
    # "between 30 and 40" is still one clause, and one range
    assert len(set(analyse("It lasts between 30 and 40 years.").clauses)) == 1


def test_a_fraction_of_a_whole_is_a_share_in_percent() -> None:
    def shares(text: str) -> list[tuple[str, float]]:
        return [(n.text, n.value) for n in analyse(text).numbers if n.unit == "percent"]

    assert shares("Trains ran around a fifth of the usual timetable.") == [("a fifth", 20.0)]
    assert shares("Two-thirds of patients were seen.") == [("Two thirds", 66.7)]
    assert shares("Nearly half of voters stayed home.") == [("half", 50.0)]
    # an hour's, a match's or a million's fraction, and a place in a row, are no shares
    for text in (
        "in the first half of 2004",
        "the second half of the match",
        "a quarter of an hour",
        "a quarter of a million people",
        "He came third.",
    ):
        assert not shares(text), text
    fifth = analyse("Trains ran a fifth of the timetable.").numbers[0]
    assert numbers_match(fifth, analyse("Trains ran 20% of the timetable.").numbers[0])
    assert numbers_match(analyse("Turnout was nearly half.").numbers[0], analyse("48%").numbers[0])
    assert not numbers_match(fifth, analyse("Trains ran 40% of the timetable.").numbers[0])


def test_years_later_count_from_the_year_before_them() -> None:
    def years(text: str) -> list[float]:
        return [n.value for n in analyse(text).numbers if n.is_year]

    assert years("It was taken over in 1996 and the factory shut two years later.") == [
        1996.0,
        1998.0,
    ]
    assert years("In 2001 he moved, and three years after that he married.") == [2001.0, 2004.0]
    # from another event, or with no year to count from, the span stays a span
    assert years("It opened in 1990 and closed 5 years before its centenary.") == [1990.0]
    assert years("Two years later, he left.") == []
    # "taken over in 1996" bounds nothing
    assert [n.qualifier for n in analyse("It was taken over in 1996.").numbers] == [""]
    assert [n.qualifier for n in analyse("It has over 1,500 staff.").numbers] == ["gt"]
    later = analyse("Taken over in 1996, its factory shut two years later.").numbers[1]
    assert numbers_match(later, analyse("Two years later, the factory closed.").numbers[0])
    assert numbers_match(later, analyse("It closed the factory in 1998.").numbers[0])
    assert not numbers_match(later, analyse("It closed the factory in 1999.").numbers[0])


def test_a_change_by_a_share_is_a_percentage() -> None:
    assert [(n.value, n.unit) for n in analyse("They aim to cut use by a fifth.").numbers] == [
        (20.0, "percent")
    ]
    assert [(n.value, n.unit) for n in analyse("Sales fell by half in 2020.").numbers][0] == (
        50.0,
        "percent",
    )
    # A place in a row stays one
    assert [(n.value, n.unit) for n in analyse("He won by a fifth place finish.").numbers] == [
        (5.0, "")
    ]
    goal = analyse("Officials aim to reduce water use by a fifth compared with last summer.")
    page = analyse("The goal is to cut water use by 20 percent compared with last summer.")
    assert numbers_match(goal.numbers[0], page.numbers[0])


def test_an_abbreviation_or_adjective_of_one_term_is_that_term() -> None:
    # "TV" is how a claim writes a page's "television", "Islamic" its "Islam"
    assert analyse("She wrote for TV.").names == {"television"}
    assert "television" in analyse("a television writer").stems
    assert analyse("The Quran is an Islamic religious text.").names == {"quran", "islam"}
    assert "islam" in analyse("the central religious text of Islam").names
    assert analyse("Buddhist monks").content == ["buddhism", "monk"]


def test_a_percent_after_a_no_break_space_is_a_percent() -> None:
    # "41.3 %" as Wikipedia and French typography write it: a no-break or narrow no-break space
    for text in ("fell to 41.3\u00a0% in 2016", "à 41,3\u202f% en 2016", "fell to 41.3% in 2016"):
        share = analyse(text).numbers[0]
        assert (share.value, share.unit) == (41.3, "percent"), text


def test_a_pdf_s_ligatures_and_soft_hyphens_are_the_letters_they_join() -> None:
    assert analyse("the \ufb01nance o\ufb03ce").content == analyse("the finance office").content
    assert (
        analyse("an inter\u00adnational team").content == analyse("an international team").content
    )


def test_full_width_letters_and_digits_are_the_ascii_ones() -> None:
    # as Chinese and Japanese text types them beside its own
    assert analyse("ＡＰＩ ｌｉｍｉｔ").content == analyse("API limit").content
    assert [n.value for n in analyse("料金は１００円です").numbers] == [100]
    assert analyse("prices at Ｓｏｎｙ rose").names == {"sony"}
    # full-width punctuation stays, and still ends a clause
    assert analyse("价格上涨，销量下降").clauses == (0, 0, 0, 0, 1, 1, 1, 1)
    assert plain_letters("价格，１０％。") == "价格，10％。"


def test_spaced_initials_are_the_initials_written_close() -> None:
    assert analyse("a 1951 novel by J. D. Salinger").names == analyse("by J.D. Salinger").names
    assert "rr" in analyse("George R. R. Martin wrote it.").names
    # the last initial's dot is often left out, and one initial stays one
    assert analyse("written by J.K Rowling").names == analyse("by J. K. Rowling").names
    assert analyse("He met A. Smith.").tokens == ["he", "met", "a", "smith"]
    assert analyse("the R.M.S. Titanic").tokens == ["the", "rms", "titanic"]
