"""Review UI views: thin wrappers around filters, detail, services and charts."""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
    QueryDict,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from groundview.answers.models import (
    UNFINISHED_RUNS,
    UNFINISHED_STATES,
    Answer,
    AnswerState,
    CheckRun,
    Session,
)
from groundview.review import adjudication, selectors, services, vertex_terms
from groundview.review import detail as detail_page
from groundview.review.charts import Bar, calibration_svg, histogram_svg
from groundview.review.filters import (
    FILTER_PARAMS,
    SORTS,
    FilterError,
    answer_sort,
    filter_answers,
    filter_errors,
)
from groundview.review.forms import (
    AdjudicationForm,
    AgreementFilterForm,
    DisagreementFilterForm,
    LabelForm,
    as_page_field,
    first_error,
    parse_claims,
    posted_claims,
    shown_spans,
)
from groundview.review.listing import Histograms, answer_page, histograms
from groundview.review.models import Verdict
from groundview.review.verdicts import LabelError
from groundview.review.words import plain

# Sessions are offered as a drop-down up to this many; beyond it, a text field.
SESSION_CHOICES_LIMIT = 300

# The keys for each verdict, listed only here: the answer page hands review.js the map from key to
# verdict (KEY_VERDICTS, as JSON in the label form's data-verdict-keys) and shows the keys on its
# buttons and in its shortcuts help.
VERDICT_KEYS = {
    Verdict.SUPPORTED: ("1", "s"),
    Verdict.PARTIALLY_SUPPORTED: ("2", "p"),
    Verdict.UNSUPPORTED: ("3", "u"),
    Verdict.CONTRADICTED: ("4", "c"),
    Verdict.NO_CHECK_NEEDED: ("5", "x"),
}
# Short button captions so five verdicts fit on one row of the claims panel.
VERDICT_SHORT = {
    Verdict.SUPPORTED: "Supported",
    Verdict.PARTIALLY_SUPPORTED: "Partly",
    Verdict.UNSUPPORTED: "Unsupported",
    Verdict.CONTRADICTED: "Contradicted",
    Verdict.NO_CHECK_NEEDED: "No check",
}
VERDICTS = [
    (value, label, *VERDICT_KEYS[value], VERDICT_SHORT[value]) for value, label in Verdict.choices
]
KEY_VERDICTS = {key: str(value) for value, keys in VERDICT_KEYS.items() for key in keys}
SORT_LABELS = {
    "-imported": "Recently imported",
    "-created": "Newest first",
    "created": "Oldest first",
    "score": "Our score, low to high",
    "-score": "Our score, high to low",
    "grounding": "Their score, low to high",
    "-grounding": "Their score, high to low",
    "name": "Name",
}


def filter_params(query) -> dict[str, str]:
    # Stripped as the filters read them, so the form shows the value that filtered the list.
    return {key: query.get(key, "").strip() for key in FILTER_PARAMS if query.get(key, "").strip()}


def came_from(request: HttpRequest) -> str:
    """The query of the answer list the page was opened from (`from`; the form posts it on)."""
    return (request.POST if request.method == "POST" else request.GET).get("from", "")


def list_url(request: HttpRequest) -> str:
    """The answer list the page was opened from, with only what the list reads of its query."""
    listed = QueryDict(came_from(request))
    query = filter_params(listed)
    if listed.get("page", "").isdigit():
        query["page"] = listed["page"]
    return reverse("review:answer_list") + ("?" + urlencode(query) if query else "")


def bar_link(params: dict[str, str], prefix: str, bar: Bar) -> str:
    """The list filtered to a histogram bar's answers: a bar holds its lower edge and not its
    upper one (an answer scored 0.6 is in the 0.6-0.7 bar), except the last, which holds 1.0."""
    edges: dict[str, str | None] = {
        f"{prefix}_min": f"{bar.low:g}",
        f"{prefix}_max": None,
        f"{prefix}_below": None,
    }
    edges[f"{prefix}_max" if bar.high >= 1 else f"{prefix}_below"] = f"{bar.high:g}"
    return with_params(params, **edges)


def with_params(base: dict[str, str], **changes) -> str:
    params = {k: v for k, v in base.items() if k != "page"}
    for key, value in changes.items():
        if value is None:
            params.pop(key, None)
        else:
            params[key] = value
    return "?" + urlencode(params)


@login_required
@require_GET
def answer_list(request: HttpRequest) -> HttpResponse:
    params = filter_params(request.GET)
    errors: list[FilterError] = []
    try:
        answers = filter_answers(Answer.objects.all(), params)
    except FilterError:
        # Only then look for the others, so the page can name them all at once.
        errors = filter_errors(params)
        answers = Answer.objects.none()

    filtered = bool(set(params) - {"sort"})
    charts = (
        histograms(answers, filtered=filtered)
        if not errors
        else Histograms(ours=[], theirs=[], unchecked=0, unscored=0, total=0)
    )
    page = answer_page(answers, request.GET.get("page"), charts.total)
    # Blind labelling, as on the answer page: others' verdicts once you have given yours.
    adjudicator = adjudication.can_adjudicate(request.user)
    for answer in page:
        labels = answer.labels.all()
        answer.verdicts_shown = adjudicator or any(x.reviewer_id == request.user.pk for x in labels)
    for prefix, bars in (("score", charts.ours), ("grounding", charts.theirs)):
        for bar in bars:
            bar.href = bar_link(params, prefix, bar)

    sessions = list(
        Session.objects.order_by("name").only("id", "name")[: SESSION_CHOICES_LIMIT + 1]
    )
    peak = max((bar.count for bar in [*charts.ours, *charts.theirs]), default=0)
    context = {
        "page": page,
        "params": params,
        # The way back from an answer to this very list: its filters, sort and page.
        "list_query": urlencode({**params, **({"page": page.number} if page.number > 1 else {})}),
        "errors": errors,
        "states": kept_choice(AnswerState.choices, params.get("state")),
        "skip_reasons": kept_choice(
            [(reason, plain(reason)) for reason in sorted(vertex_terms.SKIP_REASONS)],
            params.get("skip_reason"),
            also=("none", "any"),
        ),
        "label_statuses": kept_choice(
            [("unlabelled", "Unlabelled"), ("labelled", "Labelled")], params.get("label_status")
        ),
        "sessions": kept_choice(
            [(str(s.pk), s.short_name) for s in sessions[:SESSION_CHOICES_LIMIT]],
            params.get("session"),
        ),
        "sessions_as_text": len(sessions) > SESSION_CHOICES_LIMIT,
        "reviewers": reviewer_choices(params.get("reviewer")),
        "sorts": kept_choice(
            [(key, SORT_LABELS.get(key, key)) for key in SORT_LABELS if key.lstrip("-") in SORTS],
            params.get("sort"),
        ),
        "ours_svg": histogram_svg(charts.ours, title="Our score", css="bar bar-ours", peak=peak),
        "theirs_svg": histogram_svg(
            charts.theirs, title="Their score", css="bar bar-theirs", peak=peak
        ),
        "unchecked": charts.unchecked,
        "unscored": charts.unscored,
        "without_theirs": charts.total - sum(bar.count for bar in charts.theirs),
        # The date the list is sorted by, so the default order does not look unsorted.
        # (answer_sort reads a sort filter_answers accepted; with errors the list is empty.)
        "by_import": not errors and answer_sort(params)[0] == "imported_at",
        "queue_query": urlencode(params),
        "filtered": filtered,
    }
    return render(request, "review/answer_list.html", context, status=400 if errors else 200)


def reviewer_choices(selected: str | None) -> list:
    """Everyone who has labelled something, for a reviewer drop-down."""
    names = (
        get_user_model()
        .objects.filter(answer_labels__isnull=False)
        .distinct()
        .order_by("username")
        .values_list("username", flat=True)
    )
    return kept_choice([(name, name) for name in names], selected)


def kept_choice(choices: list, selected: str | None, *, also: tuple[str, ...] = ()) -> list:
    """A drop-down's choices, plus the value the URL holds when no choice offers it (a mistyped
    state, a session given by name, a reviewer with no labels): the form then shows what filtered
    the list rather than falling back to "Any". `also`: values the template offers itself."""
    if selected and selected not in also and selected not in {value for value, *_ in choices}:
        return [*choices, (selected, selected)]
    return choices


def queue_context(request: HttpRequest) -> dict:
    """Queue mode travels in the URL: ?queue=1 plus the queue's filters (in a POST: fields)."""
    if request.method == "POST":
        if request.POST.get("in_queue") != "1":
            return {"in_queue": False}
        return queue_mode(request, request.POST.get("queue_query", ""))
    if request.GET.get("queue") != "1":
        return {"in_queue": False}
    return queue_mode(request, urlencode(queue_params(request.GET)))


def queue_params(query) -> dict[str, str]:
    """The queue's own parameters in a query: its answer-list filters, and double review."""
    params = filter_params(query)
    if query.get("double") == "1":
        params["double"] = "1"
    return params


def queue_mode(request: HttpRequest, queue_query: str, *, progress_later: bool = False) -> dict:
    """`progress_later`: the page's script fetches the counts after the page (queue_progress)."""
    if progress_later:
        url = reverse("review:queue_progress") + ("?" + queue_query if queue_query else "")
        return {"in_queue": True, "queue_query": queue_query, "progress_url": url}
    return {"in_queue": True, "queue_query": queue_query, **progress_context(request, queue_query)}


def progress_context(request: HttpRequest, queue_query: str) -> dict:
    """The queue's progress for its filters ({} when the filters are bad: the queue says so)."""
    query = QueryDict(queue_query)
    try:
        progress = services.queue_progress(
            request.user, filter_params(query), double_review=query.get("double") == "1"
        )
    except FilterError:
        return {}
    return {"progress": progress}


@login_required
@require_GET
def answer_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return render_detail(request, pk)


def render_detail(
    request, pk, *, form=None, error=None, status=200, source=None, queue_query=None, page_url=""
) -> HttpResponse:
    """The answer page; `source`, `queue_query` default to the request's. `page_url`: the page's
    own address, for a page that answers a POST (the script shows it in the address bar)."""
    try:
        answer = selectors.load_answer(pk)
    except Answer.DoesNotExist:
        raise Http404("No such answer") from None
    if source is None:
        source = (request.POST if request.method == "POST" else request.GET).get("source", "")
    page = detail_page.build_page(answer, request.user, source)
    if form is not None and form.is_bound:
        # A refused save: show every claim as the reviewer left it, not as last saved.
        detail_page.show_posted_verdicts(page.claims, posted_claims(request.POST))
    # Blind labelling: others' verdicts only on claims the reviewer has given a verdict.
    shown = adjudication.verdicts_for_page(
        page, request.user, reveal=request.GET.get("reveal") == "1"
    )
    if form is None:
        initial = {}
        if page.label:
            # Left to the claims, it stays so: a later change of a claim changes it too.
            verdict = "" if page.label.verdict_from_claims else page.label.verdict
            initial = {"verdict": verdict, "note": page.label.note}
        form = LabelForm(initial=initial)
    context = {
        "page": page,
        "answer": answer,
        "list_url": list_url(request),
        "came_from": came_from(request),
        # A refused save shows the form again as posted, with the label version it was made
        # against: a second save must not overwrite what another tab saved in between.
        "label_saved_at": (
            request.POST.get("label_saved_at", "")
            if form is not None and form.is_bound
            else (page.label.updated_at.isoformat() if page.label else "")
        ),
        "form": form,
        "shown": shown,
        "label_error": error,
        "text_sha256": services.text_sha256(answer.answer_text),
        "unfinished": answer.state in UNFINISHED_STATES,
        "verdicts": VERDICTS,
        "key_verdicts": json.dumps(KEY_VERDICTS),
        "score_bands": vertex_terms.SCORE_BANDS,
        "skip_reasons": [
            (r.reason, vertex_terms.explain(vertex_terms.SKIP_REASONS, r.reason))
            for r in answer.skipped_reasons.all()
        ],
        "classifications": [
            (c, vertex_terms.explain(vertex_terms.QUERY_TYPES, c.type))
            for c in answer.query_classifications.all()
        ],
        "safety": (safety := [vertex_terms.SafetyView(s) for s in answer.safety_ratings.all()]),
        # Five green rows of "negligible" say one thing: fold them behind one line.
        "safety_clear": all(s.harmless for s in safety),
        "state_help": vertex_terms.explain(
            vertex_terms.ANSWER_STATES, answer.state or "STATE_UNSPECIFIED"
        ),
        "labels_elsewhere": labels_elsewhere(page),
        "last_claim": last_claim(page),
        "page_url": page_url,
        **(
            queue_context(request)
            if queue_query is None
            else queue_mode(request, queue_query, progress_later=bool(page_url))
        ),
    }
    return render(request, "review/answer_detail.html", context, status=status)


def last_claim(page):
    """The reviewer's most recently saved claim verdict here (what "Undo" removes), or None."""
    claims = page.label.claims.all() if page.label else []  # prefetched: no query
    return max(claims, key=lambda claim: claim.pk, default=None)


def labels_elsewhere(page) -> int:
    """How many of the reviewer's claim labels lie on claims this source does not show."""
    if page.label is None:
        return 0
    shown = {(claim.start, claim.end) for claim in page.claims}
    return sum((c.start_index, c.end_index) not in shown for c in page.label.claims.all())


@login_required
@require_POST
def save_label(request: HttpRequest, pk: int) -> HttpResponse:
    answer = get_object_or_404(Answer, pk=pk)
    form = LabelForm(request.POST)
    error = None
    if form.is_valid():
        try:
            claims = parse_claims(request.POST)
            services.save_label(
                answer,
                request.user,
                verdict=form.cleaned_data["verdict"],
                note=form.cleaned_data["note"],
                claims=claims,
                shown_spans=shown_spans(request.POST),
                shown_text_sha256=request.POST.get("text_sha256") or None,
                seen_saved_at=request.POST.get("label_saved_at"),
            )
        except LabelError as exc:
            error = as_page_field(exc, request.POST)
    else:
        error = first_error(form, LabelError)
    if error is not None:
        return render_detail(request, pk, form=form, error=error, status=400)

    messages.success(request, f"Saved your label of {answer.short_name}.")
    if request.POST.get("action") == "next":
        return queue_step(request, request.POST.get("queue_query", ""))
    # "Save and switch": the page asked before leaving a claim source with unsaved labels.
    return back_to_answer(request, pk, request.POST.get("switch_to"))


@login_required
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    params = filter_params(request.GET)
    double = request.GET.get("double") == "1"
    skipped = request.session.get("queue_skipped", [])
    try:
        answer = services.next_in_queue(request.user, params, double_review=double, exclude=skipped)
    except FilterError as exc:
        return render(request, "review/queue_empty.html", {"error": exc}, status=400)
    query = {"queue": "1", **params}
    if double:
        query["double"] = "1"
    if answer is None:
        progress = progress_context(request, urlencode(query))
        context = {"params": params, "skipped": len(skipped), **progress}
        return render(request, "review/queue_empty.html", context)
    return redirect(reverse("review:answer_detail", args=[answer.pk]) + "?" + urlencode(query))


@login_required
@require_POST
def queue_skip(request: HttpRequest, pk: int) -> HttpResponse:
    answer = get_object_or_404(Answer, pk=pk)
    services.release(answer, request.user)
    skipped = request.session.get("queue_skipped", [])
    if pk not in skipped:
        # The session remembers skips so "next" moves on; bounded so the cookie stays small.
        request.session["queue_skipped"] = (skipped + [pk])[-500:]
    return queue_step(request, request.POST.get("queue_query", ""))


def queue_step(request: HttpRequest, queue_query: str) -> HttpResponse:
    """On to the queue's next answer after a label or a skip, in one round trip.

    The page's script asks for the next page itself (respond=page): this response is that page,
    and the script puts its address in the address bar and fetches the progress counts after it
    (they read every answer in the filter: the slowest part of the step). Without script, a 303
    to the page, counts included, so that a reload never posts again. Either way the filters
    travel in `queue_query`.
    """
    query = QueryDict(queue_query)
    params, double = filter_params(query), query.get("double") == "1"
    try:
        answer = services.next_in_queue(
            request.user,
            params,
            double_review=double,
            exclude=request.session.get("queue_skipped", []),
        )
    except FilterError:
        answer = None
    if answer is None:
        # The queue's own page says why: nothing left, or filters it cannot use.
        return redirect(reverse("review:queue") + ("?" + queue_query if queue_query else ""))
    url = reverse("review:answer_detail", args=[answer.pk]) + "?"
    url += urlencode({"queue": "1", **params, **({"double": "1"} if double else {})})
    if request.POST.get("respond") != "page":
        return HttpResponseRedirect(url, status=303)
    return render_detail(request, answer.pk, source="", queue_query=queue_query, page_url=url)


@login_required
@require_GET
def queue_progress(request: HttpRequest) -> JsonResponse:
    """The queue's progress for the filters in the query string, for the page's script."""
    try:
        progress = services.queue_progress(
            request.user, filter_params(request.GET), double_review=request.GET.get("double") == "1"
        )
    except FilterError as exc:
        return JsonResponse({"error": {"field": exc.field, "message": exc.message}}, status=400)
    return JsonResponse(progress)


@login_required
@require_POST
def undo_claim(request: HttpRequest, pk: int) -> HttpResponse:
    """Undo: remove the reviewer's most recent claim verdict on this answer, then show it again."""
    answer = get_object_or_404(Answer, pk=pk)
    removed = services.undo_last_claim(answer, request.user)
    if removed is None:
        messages.info(request, "You have no claim verdict on this answer to undo.")
    else:
        verdict = Verdict(removed.verdict).label
        claim = removed.claim_text.rstrip()
        end = "" if claim and claim[-1] in ".!?。！？" else "."
        messages.success(request, f"Undid your verdict “{verdict}” on “{claim}”{end}")
    return back_to_answer(request, pk)


def back_to_answer(request: HttpRequest, pk: int, source: str | None = None) -> HttpResponse:
    """The answer page again after a POST from it, in the queue with its filters if it was."""
    query = {
        "source": source or request.POST.get("source", ""),
        "from": request.POST.get("from", ""),
    }
    if request.POST.get("in_queue") == "1":
        # Only the queue's own parameters: the query comes back from the client.
        query |= {"queue": "1", **queue_params(QueryDict(request.POST.get("queue_query", "")))}
    query = urlencode({k: v for k, v in query.items() if v})
    # Back to the claim the reviewer had selected (the script posts it): the page opens it and
    # puts focus there, rather than at the top with nothing selected.
    selected = request.POST.get("selected_claim", "") if source is None else ""
    fragment = "#" + selected if re.fullmatch(r"claim-[0-9]{1,5}", selected) else ""
    url = reverse("review:answer_detail", args=[pk]) + ("?" + query if query else "")
    return redirect(url + fragment)


@login_required
@require_POST
def queue_reset_skips(request: HttpRequest) -> HttpResponse:
    request.session["queue_skipped"] = []
    queue_query = request.POST.get("queue_query", "")
    return redirect(reverse("review:queue") + ("?" + queue_query if queue_query else ""))


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def rerun_check(request: HttpRequest, pk: int) -> HttpResponse:
    """Queue a check, or join the one already queued or running; never wait for it.

    The page's script asks for JSON and gets 202 at once, and reloads the page when the check
    is done (unless labels are unsaved); without script, a redirect back to the page, which
    offers a Reload link while the check is pending.
    """
    answer = get_object_or_404(Answer, pk=pk)
    run, created = services.recheck(answer, created_by=request.user)
    if created:
        message = f"Grounding check #{run.pk} queued."
    else:
        message = f"Grounding check #{run.pk} was already {run.status}: showing its progress."
    if wants_json(request):
        return JsonResponse(
            {
                "run": run.pk,
                "status": run.status,
                "joined": not created,
                "message": message,
                "status_url": reverse("review:check_status", args=[pk]),
            },
            status=202,
        )
    messages.success(request, message)
    return redirect(reverse("review:answer_detail", args=[pk]))


@login_required
@require_GET
def check_status(request: HttpRequest, pk: int) -> JsonResponse:
    """Small JSON for the page's progress poller: the answer's recent runs and its latest check."""
    answer = get_object_or_404(Answer.objects.only("id", "latest_check_id"), pk=pk)
    runs = list(
        CheckRun.objects.filter(answer_id=pk)
        .order_by("-queued_at", "-id")
        .values("id", "status", "support_score", "error")[:10]
    )
    return JsonResponse(
        {
            "latest_check": answer.latest_check_id,
            "pending": sum(r["status"] in UNFINISHED_RUNS for r in runs),
            "runs": runs,
        }
    )


@login_required
@require_GET
def agreement(request: HttpRequest) -> HttpResponse:
    form = AgreementFilterForm(request.GET or None)
    report = None
    status = 200
    if form.is_bound and not form.is_valid():
        status = 400
    else:
        data = form.cleaned_data if form.is_bound else {}
        report = services.agreement_report(
            session_id=data.get("session"),
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
        )
    calibration = None
    if report is not None:
        points = [
            (b.mean_score, b.share, b.count)
            for b in report.calibration
            if b.count and b.mean_score is not None and b.share is not None
        ]
        if points:
            calibration = calibration_svg(points, title="Claim score vs. share labelled supported")
    context = {
        "form": form,
        "report": report,
        "calibration_svg": calibration,
        "sessions": Session.objects.order_by("name").only("id", "name")[:SESSION_CHOICES_LIMIT],
    }
    return render(request, "review/agreement.html", context, status=status)


DISAGREEMENTS_PER_PAGE = 25


@login_required
@require_GET
def disagreements(request: HttpRequest) -> HttpResponse:
    return render_disagreements(request, request.GET)


def render_disagreements(request, query, *, error=None, status=200) -> HttpResponse:
    """Claims where reviewers disagree with each other or with the checker, newest first."""
    form = DisagreementFilterForm(query)
    rows = None
    if not form.is_valid():
        status = 400
    else:
        data = form.cleaned_data
        filters = adjudication.DisagreementFilters(
            kind=data["kind"],
            status=data["status"] or "open",
            session_id=data["session"],
            reviewer=data["reviewer"].strip(),
        )
        rows = Paginator(
            adjudication.select_disagreements(request.user, filters), DISAGREEMENTS_PER_PAGE
        ).get_page(query.get("page"))
        adjudication.complete(rows.object_list)
    params = {k: v for k, v in query.items() if k in form.fields and v}
    session = str(form["session"].value() or "").strip()
    context = {
        "form": form,
        "rows": rows,
        "error": error,
        "params": params,
        "back": urlencode({**params, **({"page": query["page"]} if query.get("page") else {})}),
        "adjudicator": adjudication.can_adjudicate(request.user),
        "verdicts": VERDICTS,
        "sessions": kept_choice(
            [
                (str(s.pk), s.short_name)
                for s in Session.objects.order_by("name").only("id", "name")[:SESSION_CHOICES_LIMIT]
            ],
            session,
        ),
        "session": session,
        "reviewers": reviewer_choices(str(form["reviewer"].value() or "").strip()),
    }
    return render(request, "review/disagreements.html", context, status=status)


@login_required
@require_POST
def adjudicate(request: HttpRequest) -> HttpResponse:
    """Settle a claim with a final verdict (or reopen it), then back to the same list page."""
    if not adjudication.can_adjudicate(request.user):
        raise PermissionDenied("Only staff or holders of the adjudicate permission settle claims.")
    back = QueryDict(request.POST.get("back", ""))
    form = AdjudicationForm(request.POST)
    if not form.is_valid():
        return render_disagreements(request, back, error=first_error(form, LabelError), status=400)
    data = form.cleaned_data
    answer = get_object_or_404(Answer, pk=data["answer"])
    span = {"start_index": data["start"], "end_index": data["end"]}
    try:
        if request.POST.get("action") == "reopen":
            if adjudication.clear_adjudication(answer, request.user, **span):
                messages.success(request, "Reopened the claim: it has no settled verdict now.")
            else:
                messages.info(request, "That claim had no settled verdict: nothing to reopen.")
        else:
            if not data["verdict"]:
                raise LabelError("verdict", "choose the final verdict")
            settled = adjudication.adjudicate_claim(
                answer, request.user, verdict=data["verdict"], note=data["note"], **span
            )
            messages.success(
                request,
                f"Settled “{settled.claim_text}” as {Verdict(settled.verdict).label.lower()}.",
            )
    except LabelError as exc:
        return render_disagreements(request, back, error=exc, status=400)
    query = urlencode(
        {k: v for k, v in back.items() if k in DisagreementFilterForm.base_fields or k == "page"}
    )
    return redirect(reverse("review:disagreements") + ("?" + query if query else ""))
