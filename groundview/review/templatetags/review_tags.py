from django import template

from groundview.review.detail import score_band
from groundview.review.models import Verdict

register = template.Library()

VERDICT_LABELS = dict(Verdict.choices)


@register.filter
def score(value) -> str:
    """A score in [0, 1] as two decimals, or an en dash when there is none."""
    if value is None or value == "":
        return "–"
    return f"{float(value):.2f}"


@register.filter
def score_css(value) -> str:
    """The colour band of a score: the same bands as the claim highlights."""
    return score_band(None if value is None else float(value))


@register.filter
def verdict_label(value) -> str:
    return VERDICT_LABELS.get(value, value or "")


@register.filter
def percent(value) -> str:
    if value is None:
        return "–"
    return f"{value:.0%}"


@register.filter
def kappa(value) -> str:
    if value is None:
        return "n/a"
    return f"{value:.2f}"


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if mapping else None
