from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.text import Truncator

from groundview.review.models import Verdict
from groundview.review.verdicts import page_citation
from groundview.review.vertex_terms import score_band
from groundview.review.words import plain as plain_words

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
def plain(value) -> str:
    """An enum value in plain words (groundview/review/words.py), never the raw name."""
    return plain_words(value)


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


# The answer page repeats these fragments hundreds of times (5 radios x 50 claims, a datalist
# entry per chunk); built in Python they cost a fraction of the equivalent template loops.


@register.simple_tag
def verdict_radios(name, checked, verdicts, shifted=False):
    # Plain escape() and f-strings: format_html per radio was a measurable share of the page.
    name = escape(name)
    parts = []
    for value, label, digit, letter, short in verdicts:
        hint = f"Shift+{digit}" if shifted else f"{digit} or {letter}"
        # The answer's buttons show the key that sets them: "1" alone labels a claim.
        key = f"⇧{digit}" if shifted else digit
        mark = " checked" if checked == value else ""
        parts.append(
            f'<label class="verdict v-{value}" title="{escape(label)} ({hint})"><input '
            f'type="radio" name="{name}" value="{value}"{mark}><span>{escape(short)}</span>'
            f"<kbd>{key}</kbd></label>"
        )
    if shifted:
        # The answer verdict may be left to the claims; a radio is the way back to that.
        mark = "" if checked else " checked"
        parts.append(
            '<label class="verdict v-derived" title="No answer verdict of your own: it is '
            f'derived from the claim verdicts"><input type="radio" name="{name}" value=""{mark}>'
            "<span>From the claims</span></label>"
        )
    return mark_safe("".join(parts))  # noqa: S308 - escaped above; values are our own enum


@register.simple_tag
def citation_options(references):
    parts = []
    for ref in references:
        reference = ref.reference
        title = escape(Truncator(reference.title).chars(60))
        parts.append(f'<option value="{ref.number}">{ref.number}. {title}</option>')
        for chunk in reference.chunks.all():
            value = page_citation(f"{reference.position}:{chunk.position}")
            parts.append(
                f'<option value="{value}">{ref.number}, chunk {chunk.position + 1}</option>'
            )
    return mark_safe("".join(parts))  # noqa: S308 - integers and an escaped title


PICK = (
    '<button type="button" class="pick js-only" data-cite="{}" '
    'title="Add to the selected claim\'s corrected citations">+ cite</button>'
)


@register.simple_tag
def reference_chunks(ref):
    reference = ref.reference
    if reference.kind == "chunkInfo" or not reference.chunks.all():
        text = reference.content if reference.kind == "chunkInfo" else ref.text or "(no text)"
        pick = PICK.format(page_citation(str(reference.position)))
        return mark_safe(f'<p class="chunk-text">{pick} {escape(text)}</p>')  # noqa: S308
    return mark_safe(  # noqa: S308 - integers and escaped chunk text
        "".join(
            f'<p class="chunk-text">{PICK.format(page_citation(f"{reference.position}:{chunk.position}"))} '
            f'<span class="chunk-id">{page_citation(f"{reference.position}:{chunk.position}")}</span> '
            f"{escape(chunk.content)}</p>"
            for chunk in reference.chunks.all()
        )
    )
