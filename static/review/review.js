/* groundview review UI: keyboard labelling, claim selection, check progress.
 * Everything here is an enhancement: the pages work as plain HTML forms without it. */
(function () {
  "use strict";
  document.documentElement.classList.add("has-js");

  var VERDICT_KEYS = {
    "1": "supported", s: "supported",
    "2": "partially_supported", p: "partially_supported",
    "3": "unsupported", u: "unsupported",
    "4": "contradicted", c: "contradicted",
    "5": "no_check_needed", x: "no_check_needed"
  };
  var SHIFTED_DIGITS = { Digit1: "1", Digit2: "2", Digit3: "3", Digit4: "4", Digit5: "5" };

  function typingInField(target) {
    if (!target) return false;
    var tag = target.tagName;
    if (tag === "TEXTAREA" || tag === "SELECT") return true;
    if (tag === "INPUT") {
      var type = (target.getAttribute("type") || "text").toLowerCase();
      return ["radio", "checkbox", "button", "submit"].indexOf(type) === -1;
    }
    return target.isContentEditable;
  }

  function initLabelling(form) {
    var claims = Array.prototype.slice.call(document.querySelectorAll("li.claim[data-claim]"));
    var answerText = document.getElementById("answer-text");
    var current = -1;

    function segmentsOf(key) {
      if (!answerText) return [];
      return Array.prototype.filter.call(answerText.querySelectorAll(".hl[data-claims]"), function (el) {
        return el.getAttribute("data-claims").split(" ").indexOf(key) !== -1;
      });
    }

    var counter = document.getElementById("labelled-count");

    function markDone(card) {
      var checked = card.querySelector('input[type="radio"]:checked');
      card.classList.toggle("is-done", !!checked);
      if (counter) {
        var done = claims.filter(function (c) { return c.classList.contains("is-done"); }).length;
        counter.textContent = done + " of " + claims.length + " labelled";
      }
    }

    function select(index, options) {
      options = options || {};
      if (!claims.length) return;
      index = Math.max(0, Math.min(claims.length - 1, index));
      if (current !== -1 && claims[current]) {
        var previous = claims[current];
        previous.classList.remove("is-selected");
        var previousDetails = previous.querySelector("details.evidence");
        if (previousDetails && previousDetails.dataset.autoOpened) {
          previousDetails.open = false;
          delete previousDetails.dataset.autoOpened;
        }
        segmentsOf(previous.dataset.claim).forEach(function (el) { el.classList.remove("is-selected"); });
      }
      current = index;
      var card = claims[index];
      card.classList.add("is-selected");
      var details = card.querySelector("details.evidence");
      if (details && !details.open) {
        details.open = true;
        details.dataset.autoOpened = "1";
      }
      var segments = segmentsOf(card.dataset.claim);
      segments.forEach(function (el) { el.classList.add("is-selected"); });
      card.scrollIntoView({ block: "nearest", behavior: options.smooth === false ? "auto" : "smooth" });
      if (segments.length && !options.fromText) {
        segments[0].scrollIntoView({ block: "nearest", behavior: "smooth" });
      }
      card.focus({ preventScroll: true });
      if (history.replaceState) history.replaceState(null, "", "#" + card.dataset.claim);
    }

    function deselect() {
      if (current === -1) return;
      var card = claims[current];
      card.classList.remove("is-selected");
      segmentsOf(card.dataset.claim).forEach(function (el) { el.classList.remove("is-selected"); });
      current = -1;
    }

    function indexOfKey(key) {
      for (var i = 0; i < claims.length; i++) if (claims[i].dataset.claim === key) return i;
      return -1;
    }

    function setClaimVerdict(value) {
      if (!claims.length) return;
      if (current === -1) select(0);
      var card = claims[current];
      var radio = card.querySelector('input[type="radio"][value="' + value + '"]');
      if (!radio) return;
      radio.checked = true;
      markDone(card);
      // Like Prodigy: a verdict moves on to the next claim.
      if (current < claims.length - 1) select(current + 1);
    }

    function setAnswerVerdict(value) {
      var radio = form.querySelector('input[name="verdict"][value="' + value + '"]');
      if (radio) radio.checked = true;
    }

    function submit(action) {
      var button = form.querySelector('button[name="action"][value="' + action + '"]') ||
        form.querySelector('button[name="action"][value="save"]');
      if (form.requestSubmit) form.requestSubmit(button);
      else button.click();
    }

    if (answerText) {
      answerText.addEventListener("click", function (event) {
        var segment = event.target.closest(".hl[data-claim]");
        if (!segment) return;
        var index = indexOfKey(segment.getAttribute("data-claim"));
        if (index !== -1) select(index, { fromText: true });
      });
      answerText.addEventListener("mouseover", function (event) {
        var segment = event.target.closest(".hl[data-claim]");
        if (!segment) return;
        var key = segment.getAttribute("data-claim");
        segmentsOf(key).forEach(function (el) { el.classList.add("is-hover"); });
        segment.addEventListener("mouseleave", function leave() {
          segmentsOf(key).forEach(function (el) { el.classList.remove("is-hover"); });
          segment.removeEventListener("mouseleave", leave);
        });
      });
    }

    claims.forEach(function (card, index) {
      markDone(card);
      card.addEventListener("click", function (event) {
        if (event.target.closest("a, input, label, summary, textarea")) {
          if (event.target.closest("label.verdict")) {
            setTimeout(function () { markDone(card); }, 0);
          }
          if (current !== index && !event.target.closest("a")) select(index, { smooth: false });
          return;
        }
        select(index, { smooth: false });
      });
      card.addEventListener("mouseenter", function () {
        segmentsOf(card.dataset.claim).forEach(function (el) { el.classList.add("is-hover"); });
      });
      card.addEventListener("mouseleave", function () {
        segmentsOf(card.dataset.claim).forEach(function (el) { el.classList.remove("is-hover"); });
      });
    });

    // "+ cite" buttons: add a reference or chunk to the selected claim's corrected citations
    // (the claim a button sits in, for buttons inside a claim's evidence).
    document.addEventListener("click", function (event) {
      var button = event.target.closest("button.pick");
      if (!button) return;
      var owner = button.closest("li.claim");
      if (owner) select(indexOfKey(owner.dataset.claim), { smooth: false });
      if (current === -1) {
        button.title = "Select a claim first (click it, or press j)";
        button.classList.add("flash");
        setTimeout(function () { button.classList.remove("flash"); }, 800);
        return;
      }
      var card = claims[current];
      var input = card.querySelector('input[name$="-citations"]');
      if (!input) return;
      var values = input.value.split(/[\s,]+/).filter(Boolean);
      var value = button.getAttribute("data-cite");
      if (values.indexOf(value) === -1) values.push(value);
      input.value = values.join(", ");
      var details = card.querySelector("details.evidence");
      if (details) details.open = true;
      input.classList.add("flash");
      setTimeout(function () { input.classList.remove("flash"); }, 800);
    });

    var help = document.getElementById("shortcuts");
    var helpButton = document.querySelector('[data-action="help"]');
    if (helpButton && help) {
      helpButton.addEventListener("click", function () { help.hidden = !help.hidden; });
    }

    document.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (typingInField(event.target)) {
        if (event.key === "Escape") event.target.blur();
        return;
      }
      var key = event.key;
      if (event.shiftKey && SHIFTED_DIGITS[event.code]) {
        setAnswerVerdict(VERDICT_KEYS[SHIFTED_DIGITS[event.code]]);
        event.preventDefault();
        return;
      }
      if (event.shiftKey && key.length === 1 && VERDICT_KEYS[key.toLowerCase()] && /[A-Z]/.test(key)) {
        setAnswerVerdict(VERDICT_KEYS[key.toLowerCase()]);
        event.preventDefault();
        return;
      }
      if (key === "j") { select(current + 1); event.preventDefault(); }
      else if (key === "k") { select(current === -1 ? 0 : current - 1); event.preventDefault(); }
      else if (VERDICT_KEYS[key]) { setClaimVerdict(VERDICT_KEYS[key]); event.preventDefault(); }
      else if (key === "n") { submit("next"); event.preventDefault(); }
      else if (key === "?") { if (help) help.hidden = !help.hidden; event.preventDefault(); }
      else if (key === "Escape") { deselect(); }
    });

    // A link to #claim-3 (or a reload after selecting) opens that claim.
    if (location.hash && location.hash.indexOf("#claim-") === 0) {
      var start = indexOfKey(location.hash.slice(1));
      if (start !== -1) select(start, { smooth: false });
    }
  }

  function initCheckProgress(card) {
    var url = card.getAttribute("data-status-url");
    var note = document.getElementById("check-progress");
    function poll() {
      fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.json(); })
        .then(function (data) {
          if (data.pending === 0) {
            location.reload();
            return;
          }
          if (note) {
            var running = data.runs.filter(function (r) { return r.status === "running"; }).length;
            note.lastChild.textContent = " " + data.pending + " check(s) in progress" +
              (running ? " (" + running + " running)" : " (queued)") + "…";
          }
          setTimeout(poll, 1500);
        })
        .catch(function () { setTimeout(poll, 5000); });
    }
    setTimeout(poll, 1000);
  }

  // The agreement matrix carries its shading as data-heat: the Content-Security-Policy forbids
  // inline style attributes, but styles set from a script file are allowed.
  function initHeat() {
    var cells = document.querySelectorAll("[data-heat]");
    for (var i = 0; i < cells.length; i++) {
      cells[i].style.setProperty("--heat", cells[i].getAttribute("data-heat"));
    }
  }

  var started = false;
  function init() {
    if (started) return;
    started = true;
    initHeat();
    var form = document.getElementById("label-form");
    if (form) initLabelling(form);
    var checks = document.querySelector("[data-status-url]");
    if (checks) initCheckProgress(checks);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
