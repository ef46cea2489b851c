from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import Truncator

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


# The answer page repeats these fragments hundreds of times (5 radios x 50 claims, a datalist
# entry per chunk); built in Python they cost a fraction of the equivalent template loops.


@register.simple_tag
def verdict_radios(name, checked, verdicts, shifted=False):
    parts = []
    for value, label, digit, letter, short in verdicts:
        hint = f"Shift+{digit}" if shifted else f"{digit} or {letter}"
        parts.append(
            format_html(
                '<label class="verdict v-{}" title="{} ({})"><input type="radio" name="{}" '
                'value="{}"{}><span>{}</span><kbd>{}</kbd></label>',
                value,
                label,
                hint,
                name,
                value,
                mark_safe(" checked") if checked == value else "",
                short,
                digit,
            )
        )
    return mark_safe("".join(parts))


@register.simple_tag
def citation_options(references):
    parts = []
    for ref in references:
        reference = ref.reference
        parts.append(
            format_html(
                '<option value="{}">{}. {}</option>',
                reference.position,
                ref.number,
                Truncator(reference.title).chars(60),
            )
        )
        for chunk in reference.chunks.all():
            parts.append(
                format_html(
                    '<option value="{}:{}">{}, chunk {}</option>',
                    reference.position,
                    chunk.position,
                    ref.number,
                    chunk.position,
                )
            )
    return mark_safe("".join(parts))


PICK = (
    '<button type="button" class="pick js-only" data-cite="{}" '
    'title="Add to the selected claim\'s corrected citations">+ cite</button>'
)


@register.simple_tag
def reference_chunks(ref):
    reference = ref.reference
    if reference.kind == "chunkInfo" or not reference.chunks.all():
        text = reference.content if reference.kind == "chunkInfo" else ref.text or "(no text)"
        return format_html('<p class="chunk-text">' + PICK + " {}</p>", reference.position, text)
    return format_html_join(
        "",
        '<p class="chunk-text">' + PICK + ' <span class="chunk-id">{}:{}</span> {}</p>',
        (
            (
                f"{reference.position}:{chunk.position}",
                reference.position,
                chunk.position,
                chunk.content,
            )
            for chunk in reference.chunks.all()
        ),
    )
