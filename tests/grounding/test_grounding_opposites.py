"""Opposite words, from prefixes, suffixes and common antonyms (`opposites.py`)."""

from __future__ import annotations

from groundview.grounding.analysis import analyse
from groundview.grounding.opposites import key, negative_base, opposites


def test_opposites_come_from_prefixes_suffixes_and_common_antonyms() -> None:
    assert negative_base("inflexible") == "flexibl" == key(analyse("flexible").stems[0])
    assert negative_base("careless") == "careful"
    assert negative_base("disagreed") == key(analyse("agreed").stems[0])
    # Words whose rest is an unrelated word
    for word in ("install", "informed", "improved", "discount", "discover"):
        assert negative_base(word) is None, word
    assert key(analyse("decreased").stems[0]) in opposites("increase")
    assert key(analyse("increases").stems[0]) in opposites("reduced")
    for word, other in (("narrow", "wide"), ("offline", "online"), ("minimize", "maximized")):
        assert key(analyse(other).stems[0]) in opposites(word), word
    # Converses are left out: "A defeated B" is "B lost to A"
    assert not opposites("defeated") and not opposites("older")
    # and so are words of many senses: "opened" against "closed" may be two events, and "CBS
    # Evening News" is no time of day
    for word in ("opened", "partly", "evening"):
        assert not opposites(word), word
    # "first" and "last" oppose only when said of the same thing
    assert not opposites("first", of_a_thing=False) and opposites("first") == {"last"}
