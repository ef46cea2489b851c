/* groundview review UI: keyboard labelling, claim selection, check progress.
 * Everything here is an enhancement: the pages work as plain HTML forms without it. */
(function () {
  "use strict";
  document.documentElement.classList.add("has-js");

  // Which key gives which verdict ({"1": "supported", "s": "supported", ...}): the label form
  // carries the server's map as JSON (review/views.py VERDICT_KEYS), so it is listed only there.
  function verdictKeys(form) {
    return JSON.parse(form.getAttribute("data-verdict-keys") || "{}");
  }

  // Digits by key position (event.code): on AZERTY the unshifted digit row types "&é\"'(",
  // so event.key would never be "1". The number pad counts too.
  function digitOf(event) {
    var match = /^(?:Digit|Numpad)([0-9])$/.exec(event.code || "");
    return match ? match[1] : "";
  }

  // The letter a shortcut means: the typed letter on Latin layouts (s, p, u, c, x, j, k, n exist on
  // all of them, wherever they sit), the key's QWERTY letter where the layout types another script.
  function letterOf(event) {
    var key = event.key || "";
    if (key.length === 1 && /[a-z]/i.test(key)) return key.toLowerCase();
    if (key.length === 1 && /^Key[A-Z]$/.test(event.code || "")) return event.code.slice(3).toLowerCase();
    return "";
  }

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

  // Set by initLabelling on pages with a label form.
  var unsavedLabels = function () { return false; };

  function initLabelling(form) {
    var claims = Array.prototype.slice.call(document.querySelectorAll("li.claim[data-claim]"));
    var answerText = document.getElementById("answer-text");
    var current = -1;
    var keyVerdicts = verdictKeys(form);

    function segmentsOf(key) {
      if (!answerText) return [];
      return Array.prototype.filter.call(answerText.querySelectorAll(".hl[data-claims]"), function (el) {
        return el.getAttribute("data-claims").split(" ").indexOf(key) !== -1;
      });
    }

    var counter = document.getElementById("labelled-count");
    // Unsaved changes: switching the claim source reloads the page, so ask first (below).
    var dirty = false;
    var switchPrompt = null;
    form.addEventListener("input", function () { dirty = true; });
    form.addEventListener("change", function () { dirty = true; });
    form.addEventListener("submit", function () { dirty = false; });
    // The check progress reads it too: a finished check must not reload away unsaved labels.
    unsavedLabels = function () { return dirty; };

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
      if (form.elements.selected_claim) form.elements.selected_claim.value = card.dataset.claim;
      if (options.keepFocus) return;
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

    // A claim still waiting for a verdict (a claim whose span does not fit has no radios: it
    // cannot be labelled, so it is never waited for).
    function isOpen(card) {
      return !card.classList.contains("is-done") && !!card.querySelector('input[type="radio"]');
    }

    // j: the next claim without a verdict after the selected one, wrapping round to the top;
    // once every claim has one, simply the next claim, so j still walks through them all.
    function nextOpen() {
      for (var step = 1; step <= claims.length; step++) {
        var index = (current + step) % claims.length;
        if (isOpen(claims[index])) return index;
      }
      return current + 1;
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
      dirty = true;
      markDone(card);
      // Like Prodigy: a verdict moves on, to the next claim still without one (as j does).
      select(nextOpen());
    }

    // A mis-keyed verdict can be taken back: the claim is saved without one (and a verdict
    // saved before is removed, as for any claim the form shows without one).
    function clearClaimVerdict() {
      if (current === -1) return;
      var card = claims[current];
      var checked = card.querySelector('input[type="radio"]:checked');
      if (!checked) return;
      checked.checked = false;
      dirty = true;
      markDone(card);
    }

    function setAnswerVerdict(value) {
      var radio = form.querySelector('input[name="verdict"][value="' + value + '"]');
      if (radio) { radio.checked = true; dirty = true; }
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
      // Tab into a claim's controls, and the keys act on that claim, not on the last one clicked.
      card.addEventListener("focusin", function () {
        if (current !== index) select(index, { keepFocus: true });
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

    switchPrompt = initSourceSwitch(form, function () { return dirty; });

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
      if (switchPrompt && switchPrompt.open) return;
      var key = event.key;
      var digit = digitOf(event);
      if (!keyVerdicts[digit]) digit = "";
      var letter = letterOf(event);
      if (event.shiftKey && (digit || keyVerdicts[letter])) {
        setAnswerVerdict(keyVerdicts[digit || letter]);
        event.preventDefault();
        return;
      }
      if (digit) { setClaimVerdict(keyVerdicts[digit]); event.preventDefault(); }
      else if (letter === "j") { select(nextOpen()); event.preventDefault(); }
      else if (letter === "k") { select(current === -1 ? 0 : current - 1); event.preventDefault(); }
      else if (keyVerdicts[letter]) { setClaimVerdict(keyVerdicts[letter]); event.preventDefault(); }
      else if (letter === "n") { submit("next"); event.preventDefault(); }
      else if (key === "?") { if (help) help.hidden = !help.hidden; event.preventDefault(); }
      else if (key === "Escape") { deselect(); }
      else if (key === "Backspace" || key === "Delete" || (digit === "" && digitOf(event) === "0")) {
        clearClaimVerdict();
        event.preventDefault();
      }
    });

    // A link to #claim-3 (or a reload after selecting) opens that claim.
    if (location.hash && location.hash.indexOf("#claim-") === 0) {
      var start = indexOfKey(location.hash.slice(1));
      if (start !== -1) select(start, { smooth: false });
    }
  }

  // Before leaving a claim source with unsaved labels: save and switch, switch anyway, or stay.
  // Saving posts the form with switch_to, and the server saves, then opens the other source.
  function initSourceSwitch(form, isDirty) {
    var tabs = document.querySelectorAll(".tabs a[href]");
    if (!tabs.length || typeof HTMLDialogElement === "undefined") return null;
    var dialog = document.createElement("dialog");
    dialog.className = "unsaved-prompt";
    dialog.setAttribute("aria-labelledby", "unsaved-title");
    var title = document.createElement("h2");
    title.id = "unsaved-title";
    title.textContent = "Unsaved labels";
    var text = document.createElement("p");
    var actions = document.createElement("div");
    actions.className = "form-actions";
    function button(label, css, action) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "btn " + css;
      b.textContent = label;
      b.dataset.choice = action;
      actions.appendChild(b);
      return b;
    }
    var stay = button("Stay here", "btn-quiet", "stay");
    var discard = button("Switch without saving", "", "discard");
    var save = button("Save, then switch", "btn-primary", "save");
    dialog.appendChild(title);
    dialog.appendChild(text);
    dialog.appendChild(actions);
    document.body.appendChild(dialog);
    var target = null;

    Array.prototype.forEach.call(tabs, function (tab) {
      tab.addEventListener("click", function (event) {
        if (!isDirty() || tab.getAttribute("aria-current")) return;
        event.preventDefault();
        target = tab;
        text.textContent = "You labelled claims here that are not saved yet. Save them before " +
          "showing the claims from “" + tab.textContent.trim() + "”?";
        dialog.showModal();
        save.focus();
      });
    });
    stay.addEventListener("click", function () { dialog.close(); });
    discard.addEventListener("click", function () { dialog.close(); location.href = target.href; });
    save.addEventListener("click", function () {
      var source = new URL(target.href, location.href).searchParams.get("source") || "";
      var field = form.querySelector('input[name="switch_to"]');
      if (!field) {
        field = document.createElement("input");
        field.type = "hidden";
        field.name = "switch_to";
        form.appendChild(field);
      }
      field.value = source;
      dialog.close();
      var saveButton = form.querySelector('button[name="action"][value="save"]');
      if (form.requestSubmit) form.requestSubmit(saveButton);
      else saveButton.click();
    });
    return dialog;
  }

  // Queue steps (save & next, skip) ask for the next answer's page itself, so the step is one
  // round trip; without this field (no script) the server redirects instead. That page answers a
  // POST, so it names its own address, which goes in the address bar: a reload then reloads it.
  function initQueueStep() {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-queue-step]"), function (form) {
      var field = document.createElement("input");
      field.type = "hidden";
      field.name = "respond";
      field.value = "page";
      form.appendChild(field);
    });
    var own = document.querySelector("link[rel=canonical][data-replace-url]");
    if (own && history.replaceState) history.replaceState(null, "", own.href);
    var progress = document.querySelector("[data-progress-url]");
    if (progress && window.fetch) {
      fetch(progress.getAttribute("data-progress-url"), {
        credentials: "same-origin",
        headers: { Accept: "application/json" }
      })
        .then(function (response) {
          if (!response.ok) throw new Error("status " + response.status);
          return response.json();
        })
        .then(function (data) {
          var strong = document.createElement("strong");
          strong.textContent = data.left + " of " + data.total + " left";
          progress.textContent = "";
          progress.appendChild(strong);
          progress.appendChild(document.createTextNode(" · you labelled " + data.done));
        })
        .catch(function () { progress.textContent = ""; });
    }
  }

  // Re-run check: the request returns at once (202); the page shows progress and polls.
  function initRerun(form) {
    var card = document.getElementById("checks");
    var button = form.querySelector("button[type=submit]");
    form.addEventListener("submit", function (event) {
      if (!window.fetch || !card) return;
      event.preventDefault();
      button.disabled = true;
      fetch(form.action, {
        method: "POST",
        body: new FormData(form),
        credentials: "same-origin",
        headers: { Accept: "application/json" }
      })
        .then(function (response) {
          if (response.status !== 202) throw new Error("status " + response.status);
          return response.json();
        })
        .then(function (data) {
          var note = document.getElementById("check-progress");
          if (!note) {
            note = document.createElement("p");
            note.id = "check-progress";
            note.className = "notice";
            note.setAttribute("role", "status");
            var spinner = document.createElement("span");
            spinner.className = "spinner";
            spinner.setAttribute("aria-hidden", "true");
            note.appendChild(spinner);
            note.appendChild(document.createTextNode(""));
            card.querySelector(".card-head").insertAdjacentElement("afterend", note);
          }
          note.lastChild.textContent = " " + data.message;
          button.disabled = false;
          if (!card.getAttribute("data-status-url")) {
            card.setAttribute("data-status-url", data.status_url);
            initCheckProgress(card);
          }
        })
        .catch(function () {
          // Fall back to the plain form post (a redirect back to this page).
          button.disabled = false;
          form.submit();
        });
    });
  }

  // Polls until no run is pending (a finished run, or one the workers gave up on, is failed with
  // its reason): then the page reloads to show it. Slower the longer it waits, and not for ever:
  // a stranded run is sent again by the workers' sweep, which can take a few minutes.
  var POLL_GIVE_UP_MS = 30 * 60 * 1000;

  function initCheckProgress(card) {
    var url = card.getAttribute("data-status-url");
    var note = document.getElementById("check-progress");
    var started = Date.now();
    var delay = 1500;
    function later(ms) {
      if (Date.now() - started > POLL_GIVE_UP_MS) {
        if (note) {
          note.lastChild.textContent = " Still not finished after 30 minutes; this page stopped " +
            "checking. Reload it to look again.";
        }
        return;
      }
      setTimeout(poll, ms);
    }
    function poll() {
      fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.json(); })
        .then(function (data) {
          if (data.pending === 0) {
            if (!unsavedLabels()) {
              location.reload();
            } else if (note) {
              note.textContent = "The check has finished. Save your labels, then reload the " +
                "page to see it.";
            }
            return;
          }
          if (note) {
            var running = data.runs.filter(function (r) { return r.status === "running"; }).length;
            note.lastChild.textContent = " " + data.pending + " check" + (data.pending === 1 ? "" : "s") +
              " in progress" +
              (running ? " (" + running + " running)" : " (queued)") + "…";
          }
          delay = Math.min(delay * 1.2, 15000);
          later(delay);
        })
        .catch(function () { later(5000); });
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

  // The claims panel scrolls on its own beside the answer, and its Save bar sticks to the
  // panel's bottom. CSS can size the panel only for when it is stuck under the top bar; before
  // the page scrolls it starts lower and its bottom, Save with it, would sit under the fold.
  function initSidePanel(panel) {
    var wide = window.matchMedia("(min-width: 1001px)");
    var pending = false;
    function fit() {
      pending = false;
      if (!wide.matches) { panel.style.removeProperty("max-height"); return; }
      // Where the panel sticks (its CSS top), or lower while the page has not scrolled yet.
      var top = Math.max(panel.getBoundingClientRect().top, parseFloat(getComputedStyle(panel).top) || 0);
      panel.style.maxHeight = Math.max(240, window.innerHeight - top - 16) + "px";
    }
    function later() {
      if (!pending) { pending = true; window.requestAnimationFrame(fit); }
    }
    window.addEventListener("scroll", later, { passive: true });
    window.addEventListener("resize", later);
    // Text the page fills in above the panel (queue progress, a re-run notice) moves it too.
    if (window.ResizeObserver) new ResizeObserver(later).observe(document.querySelector("main") || document.body);
    fit();
  }

  var started = false;
  function init() {
    if (started) return;
    started = true;
    initHeat();
    initQueueStep();
    var form = document.getElementById("label-form");
    if (form) initLabelling(form);
    var panel = document.querySelector(".detail-grid .col-side");
    if (panel) initSidePanel(panel);
    var checks = document.querySelector("[data-status-url]");
    if (checks) initCheckProgress(checks);
    var rerun = document.querySelector("form.rerun-form");
    if (rerun) initRerun(rerun);
    // On a phone the filters and the histograms would fill the first screens: fold the filters
    // unless some are in use, and the histograms always (a tap opens them).
    var phone = window.matchMedia("(max-width: 700px)").matches;
    var filters = document.querySelector("details.filters-box");
    if (filters && phone && !filters.querySelector(".count")) {
      filters.open = false;
    }
    var charts = document.querySelector("details.charts-box");
    if (charts && phone) charts.open = false;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
