"""Claims read in context (`context.py`): a pronoun takes its referent, a frame is not scored."""

from __future__ import annotations

from groundview.grounding.context import resolve


def test_a_leading_pronoun_takes_the_previous_subject_for_scoring() -> None:
    texts = [
        "Titanic is a 1997 film directed by James Cameron.",
        "It was based on the sinking of the RMS Titanic.",
        "Its budget was 200 million dollars.",
    ]
    assert resolve(texts) == [
        texts[0],
        "Titanic was based on the sinking of the RMS Titanic.",
        "Titanic's budget was 200 million dollars.",
    ]
    assert resolve(["Acme Corp was founded in 1990.", "The company employs 50 people."])[1] == (
        "Acme Corp employs 50 people."
    )
    assert resolve(["谷歌成立于1998年。", "它的总部在加州！"])[1] == "谷歌的总部在加州！"


def test_a_pronoun_takes_the_last_subject_that_agrees_with_it() -> None:
    # "It" is the fire, not the officials who speak of it
    fire = [
        "The Cedar Gulch Fire has grown to 18,000 acres.",
        "Officials hope calmer winds expected Thursday will help crews.",
        "It is the largest fire in the county.",
    ]
    assert resolve(fire)[2] == "The Cedar Gulch Fire is the largest fire in the county."
    # "They" takes several, "it" one
    market = ["Acme Inc. is a toy maker.", "Investors were nervous.", "It fell 3%.", "They sold."]
    assert resolve(market)[2:] == ["Acme Inc. fell 3%.", "Investors sold."]
    # "The company" only takes a name: read as written rather than as "the dose" or a list
    assert resolve(["For children under 12, the dose is 5 mg.", "The company makes it."])[1] == (
        "The company makes it."
    )
    assert resolve(["Names and addresses were exposed.", "The company apologised."])[1] == (
        "The company apologised."
    )
    # A phrase with a clause inside, or a verb the list lacks, is no subject to refer to
    assert resolve(["Acme admits that its plan was late.", "It will invest $1 billion."])[1] == (
        "It will invest $1 billion."
    )
    assert (
        resolve(["Brannock joined the league in 1995 and was relegated.", "Its kit is red."])[1]
        == "Its kit is red."
    )
    assert resolve(["Novak, a 19-year-old qualifier, won the first set.", "She lost."])[1] == (
        "Novak lost."
    )


def test_a_pronoun_with_nothing_before_it_is_left_alone() -> None:
    assert resolve(["It was a sunny day."]) == ["It was a sunny day."]


def test_a_frame_about_the_source_is_not_scored() -> None:
    assert resolve(
        [
            "The passage discusses the Apollo 11 landing in 1969.",
            "According to the article, the crew returned on July 24.",
            "Overall, the report states that costs rose 5%.",
            "It also notes that the mission cost $25 billion.",
        ]
    ) == [
        "The Apollo 11 landing in 1969.",
        "The crew returned on July 24.",
        "Costs rose 5%.",
        "The mission cost $25 billion.",
    ]
    # The same words as the claim's own subject, or with nothing after them, stay
    assert resolve(["The report was published in 2005."]) == ["The report was published in 2005."]
    assert resolve(["The article discusses."]) == ["The article discusses."]
    # "It" is the source only before "that"
    assert resolve(["Apollo 11 was a spaceflight.", "It describes an orbit."])[1] == (
        "Apollo 11 describes an orbit."
    )


def test_an_answers_yes_or_no_is_not_scored() -> None:
    assert resolve(["No, monthly plans cannot be refunded.", "Sí, el plan incluye 2 TB."]) == [
        "Monthly plans cannot be refunded.",
        "El plan incluye 2 TB.",
    ]
    # "No one" and a bare "No." are what they say
    assert resolve(["No one under 18 may sign.", "No."]) == ["No one under 18 may sign.", "No."]


def test_a_pleasantry_or_reminder_before_a_statement_is_not_scored() -> None:
    assert resolve(
        [
            "Good news, the Starter plan costs nothing for teams of three.",
            "Please note that SSO is only available on the Enterprise plan.",
            "Just so you know, claims are capped at two a year.",
            "It's important to note that refunds take 10 days.",
        ]
    ) == [
        "The Starter plan costs nothing for teams of three.",
        "SSO is only available on the Enterprise plan.",
        "Claims are capped at two a year.",
        "Refunds take 10 days.",
    ]
    assert resolve(["Sure."]) == ["Sure."]
