"""Issue 14 item 7: axe-core on the review pages, light and dark.

axe-core comes inside the axe-playwright-python package (nothing is downloaded). Each page fails
on a serious or critical finding; the counts for every impact level go to
tests/artifacts/axe.json, which the README's quality table quotes.
"""

import json

import pytest
from axe_playwright_python.sync_playwright import Axe

from groundview.answers.models import Answer
from groundview.review.services import save_label
from groundview.review.verdicts import ClaimVerdict

from .test_responsive import demo_with_a_check
from .test_review_flow import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IMPACTS = ["critical", "serious", "moderate", "minor"]
BLOCKING = {"critical", "serious"}
OPTIONS = {"resultTypes": ["violations", "incomplete"]}
VIEWPORT = {"width": 1440, "height": 900}
# axe leaves the contrast of very short text (a digit in a <kbd>, an axis tick) to a person; this
# measures it the same way: text colour (an SVG's fill), alpha-blended over the backgrounds behind.
SHORT_TEXT_CONTRAST_JS = """
(selector) => {
  var el = document.querySelector(selector);
  function rgba(c) {
    var v = c.match(/[\\d.]+/g).map(Number);
    return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
  }
  function over(top, under) {
    return [0, 1, 2].map(function (i) { return top[i] * top[3] + under[i] * (1 - top[3]); })
      .concat([1]);
  }
  function lum(c) {
    var v = c.slice(0, 3).map(function (x) {
      x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  }
  var svg = el instanceof SVGElement;
  var fg = rgba(getComputedStyle(el)[svg ? "fill" : "color"]);
  var layers = [];
  for (var node = svg ? el.closest("svg") : el; node; node = node.parentElement) {
    var b = rgba(getComputedStyle(node).backgroundColor);
    if (b[3] > 0) layers.push(b);
    if (b[3] === 1) break;
  }
  var bg = [255, 255, 255, 1];
  for (var i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
  fg = over(fg, bg);
  var a = lum(fg), z = lum(bg);
  return (Math.max(a, z) + 0.05) / (Math.min(a, z) + 0.05);
}
"""


def labelled_by_two(answer, first, second):
    """Two reviewers disagree on one claim, so the agreement page has every part to show."""
    spans = sorted(answer.latest_check.response["claims"], key=lambda c: c["startPos"])
    verdicts = [["supported", "unsupported", "partially_supported"], ["supported", "supported"]]
    for reviewer, theirs in zip((first, second), verdicts, strict=True):
        claims = [
            ClaimVerdict(claim["startPos"], claim["endPos"], verdict)
            for claim, verdict in zip(spans, theirs, strict=False)
        ]
        save_label(answer, reviewer, verdict="partially_supported", claims=claims)


def counts_of(results):
    counts = {impact: 0 for impact in IMPACTS}
    for violation in results["violations"]:
        counts[violation["impact"]] += len(violation["nodes"])
    counts["needs_review"] = sum(len(item["nodes"]) for item in results["incomplete"])
    return counts


def low_contrast_short_text(page, results):
    """Short text axe could not judge, measured here: [(selector, ratio)] below WCAG AA."""
    low = []
    for item in results["incomplete"]:
        if item["id"] != "color-contrast":
            continue
        for node in item["nodes"]:
            selector = node["target"][-1]
            ratio = page.evaluate(SHORT_TEXT_CONTRAST_JS, selector)
            if ratio < 4.5:
                low.append((selector, round(ratio, 2)))
    return low


def describe(violations):
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in violations
        if v["impact"] in BLOCKING
    )


def test_review_pages_have_no_serious_axe_findings_light_and_dark(
    live_server, browser, reviewer, django_user_model, artifacts
):
    answer = demo_with_a_check()
    other = django_user_model.objects.create_user(username="otto", password="pw-otto-123")
    labelled_by_two(answer, reviewer, other)
    # The queue offers an answer nobody has labelled yet.
    assert Answer.objects.exclude(pk=answer.pk).exists()
    pages = {
        "list": "/",
        "detail": f"/answers/{answer.pk}/",
        "queue": "/queue/",
        "agreement": "/agreement/",
    }
    axe = Axe()
    report, failures = {}, []
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=VIEWPORT, color_scheme=scheme)
        page = context.new_page()
        try:
            log_in(page, live_server, "rita", "pw-rita-123")
            for name, path in pages.items():
                page.goto(live_server.url + path)
                if name == "queue":
                    assert "queue=1" in page.url  # the queue lands on an answer to label
                if name in ("detail", "queue"):
                    # With a claim selected its chunk panel is open and in the check too.
                    page.keyboard.press("j")
                    page.locator("li.claim.is-selected").wait_for()
                results = axe.run(page, options=OPTIONS).response
                report[f"{name}-{scheme}"] = counts_of(results)
                page.screenshot(path=str(artifacts / f"axe-{name}-{scheme}.png"))
                if any(v["impact"] in BLOCKING for v in results["violations"]):
                    failures.append(f"{name} ({scheme}):\n{describe(results['violations'])}")
                low = low_contrast_short_text(page, results)
                if low:
                    failures.append(f"{name} ({scheme}): short text below 4.5:1: {low}")
        finally:
            context.close()

    (artifacts / "axe.json").write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    assert not failures, "\n\n".join(failures)


def test_axe_would_catch_a_serious_finding(live_server, page, reviewer):
    # Given a page made worse on purpose: text in the page's colour on its own background
    log_in(page, live_server, "rita", "pw-rita-123")
    # (set through the CSSOM: the Content-Security-Policy refuses inline style attributes)
    page.evaluate(
        "(() => { var p = document.createElement('p'); p.textContent = 'unreadable';"
        " p.style.color = '#777'; p.style.background = '#888';"
        " document.querySelector('main').prepend(p); })()"
    )
    # When axe runs, then the check above would fail on it
    violations = Axe().run(page).response["violations"]
    assert any(v["id"] == "color-contrast" and v["impact"] == "serious" for v in violations)


# The box that shows an element's focus: its own, or its label's when the control itself is
# hidden (the verdict radios are 1 px; their label draws the ring).
FOCUS_BOX_JS = """
() => {
  var el = document.activeElement;
  if (!el || el === document.body) return null;
  var shown = el;
  var r = el.getBoundingClientRect();
  if ((r.width < 4 || r.height < 4) && el.closest("label")) shown = el.closest("label");
  r = shown.getBoundingClientRect();
  var name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (el.className && el.className.baseVal === undefined ? "." + el.className.trim().split(/\\\\s+/).join(".") : "")
    + " " + (el.textContent || el.value || "").trim().slice(0, 30);
  return {name: name, x: r.x, y: r.y, width: r.width, height: r.height};
}
"""
MAX_TAB_STOPS = 60


def focus_is_drawn(page, box):
    """The element's surroundings differ with and without focus (outline offset included)."""
    margin = 5
    clip = {
        "x": max(box["x"] - margin, 0),
        "y": max(box["y"] - margin, 0),
        "width": box["width"] + 2 * margin,
        "height": box["height"] + 2 * margin,
    }
    focused = page.screenshot(clip=clip, animations="disabled")
    page.evaluate("window.__focused = document.activeElement; document.activeElement.blur()")
    blurred = page.screenshot(clip=clip, animations="disabled")
    page.evaluate("window.__focused.focus({focusVisible: true, preventScroll: true})")
    return focused != blurred


def test_every_tab_stop_shows_visible_focus_light_and_dark(live_server, browser, reviewer):
    answer = demo_with_a_check()
    pages = {
        "list": "/",
        "detail": f"/answers/{answer.pk}/",
        "agreement": "/agreement/",
    }
    invisible = []
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=VIEWPORT, color_scheme=scheme)
        page = context.new_page()
        try:
            log_in(page, live_server, "rita", "pw-rita-123")
            for name, path in pages.items():
                page.goto(live_server.url + path)
                checked = 0
                for _ in range(MAX_TAB_STOPS):
                    page.keyboard.press("Tab")
                    box = page.evaluate(FOCUS_BOX_JS)
                    if box is None:
                        break
                    if box["width"] == 0 or box["height"] == 0:
                        invisible.append(f"{name} ({scheme}): {box['name']} has no size")
                        continue
                    if not focus_is_drawn(page, box):
                        invisible.append(f"{name} ({scheme}): {box['name']}")
                    checked += 1
                assert checked > 5, (name, scheme, checked)
        finally:
            context.close()
    assert not invisible, "focus not visible on:\n" + "\n".join(invisible)


def test_focus_check_would_catch_a_removed_ring(live_server, page, reviewer):
    # Given a link whose focus ring is taken away (the CSSOM; the policy refuses inline styles)
    log_in(page, live_server, "rita", "pw-rita-123")
    page.keyboard.press("Tab")
    box = page.evaluate(FOCUS_BOX_JS)
    assert focus_is_drawn(page, box)
    page.evaluate("document.activeElement.style.outline = 'none'")
    # When it has focus, then nothing shows it
    assert not focus_is_drawn(page, box)
