"""Vertex AI Search vocabulary in plain words: skip reasons, query types, harm categories and
levels, answer states, and the colour bands of support scores. The short labels used in lists and
badges are in words.py; these are the longer explanations the answer page shows."""

from __future__ import annotations

from dataclasses import dataclass

from groundview.answers.models import (
    SafetyRating,
)

SKIP_REASONS = {
    "ANSWER_SKIPPED_REASON_UNSPECIFIED": "No reason was given.",
    "ADVERSARIAL_QUERY_IGNORED": "The query looked adversarial, so no answer was generated.",
    "NON_ANSWER_SEEKING_QUERY_IGNORED": "The query was chit-chat rather than a question, so it "
    "was not answered.",
    "OUT_OF_DOMAIN_QUERY_IGNORED": "No search result was relevant enough: the query is outside "
    "what the data store covers.",
    "POTENTIAL_POLICY_VIOLATION": "A possible policy violation (e.g. violent or toxic content) "
    "was detected, so the answer was withheld.",
    "NO_RELEVANT_CONTENT": "The retrieved search results held nothing relevant to answer from.",
    "JAIL_BREAKING_QUERY_IGNORED": "The query tried to make the assistant break its rules (a "
    "jail-break), so it was not answered.",
    "CUSTOMER_POLICY_VIOLATION": "The answer would have violated a policy the customer defined.",
    "NON_ANSWER_SEEKING_QUERY_IGNORED_V2": "The query had no clear intent, so it was not answered.",
    "LOW_GROUNDED_ANSWER": "No answer well grounded in the sources could be generated.",
    "UNHELPFUL_ANSWER": "The generated answer was judged unhelpful, so it was withheld.",
    "USER_DEFINED_CLASSIFICATION_QUERY_IGNORED": "The query fell in a class of queries the "
    "customer chose to leave unanswered.",
}

QUERY_TYPES = {
    "TYPE_UNSPECIFIED": "A classification Vertex did not name.",
    "ADVERSARIAL_QUERY": "Whether the query is adversarial.",
    "NON_ANSWER_SEEKING_QUERY": "Whether the query is chit-chat rather than a question.",
    "JAIL_BREAKING_QUERY": "Whether the query tries to make the assistant break its rules.",
    "NON_ANSWER_SEEKING_QUERY_V2": "Whether the query lacks a clear intent.",
    "USER_DEFINED_CLASSIFICATION_QUERY": "Whether the query falls in a class the customer defined.",
}

HARM_CATEGORIES = {
    "HARM_CATEGORY_UNSPECIFIED": "Unspecified harm category.",
    "HARM_CATEGORY_HATE_SPEECH": "Hate speech: negative or harmful comments targeting identity "
    "or protected attributes.",
    "HARM_CATEGORY_DANGEROUS_CONTENT": "Dangerous content: promotes or enables access to harmful "
    "goods, services or activities.",
    "HARM_CATEGORY_HARASSMENT": "Harassment: malicious, intimidating, bullying or abusive content "
    "aimed at someone.",
    "HARM_CATEGORY_SEXUALLY_EXPLICIT": "Sexually explicit content.",
    "HARM_CATEGORY_CIVIC_INTEGRITY": "Civic integrity: content that could undermine elections or "
    "civic processes.",
}
HARM_NAMES = {
    "HARM_CATEGORY_UNSPECIFIED": "Unspecified harm",
    "HARM_CATEGORY_HATE_SPEECH": "Hate speech",
    "HARM_CATEGORY_DANGEROUS_CONTENT": "Dangerous content",
    "HARM_CATEGORY_HARASSMENT": "Harassment",
    "HARM_CATEGORY_SEXUALLY_EXPLICIT": "Sexually explicit",
    "HARM_CATEGORY_CIVIC_INTEGRITY": "Civic integrity",
}
HARM_PROBABILITIES = {
    "HARM_PROBABILITY_UNSPECIFIED": "probability not given",
    "NEGLIGIBLE": "negligible chance it is harmful",
    "LOW": "low chance it is harmful",
    "MEDIUM": "medium chance it is harmful",
    "HIGH": "high chance it is harmful",
}
HARM_SEVERITIES = {
    "HARM_SEVERITY_UNSPECIFIED": "severity not given",
    "HARM_SEVERITY_NEGLIGIBLE": "negligible severity",
    "HARM_SEVERITY_LOW": "low severity",
    "HARM_SEVERITY_MEDIUM": "medium severity",
    "HARM_SEVERITY_HIGH": "high severity",
}
ANSWER_STATES = {
    "STATE_UNSPECIFIED": "Unknown state.",
    "IN_PROGRESS": "The answer was still being generated.",
    "FAILED": "Generating the answer failed.",
    "SUCCEEDED": "The answer was generated.",
    "STREAMING": "The answer was being streamed.",
}

# Colour bands by support score; the legend shows the same bands. The names say what people made
# of each band on held-out sets (bench/evaluate.py): 0.8 or more was judged supported 71-80% of
# the time on Wikipedia, chat and fact-check claims, 0.6 to 0.8 only 25-62%, so the lighter band
# is cited (Vertex's threshold is 0.6) but not called supported.
SCORE_BANDS = [
    # Each band takes in its lower end only, so the labels say where a 0.8 goes.
    (0.8, "hl-s4", "0.8 or more: supported"),
    (0.6, "hl-s3", "0.6 to under 0.8: cited, but unsure"),
    (0.4, "hl-s2", "0.4 to under 0.6: weak"),
    (0.0, "hl-s1", "under 0.4: poorly supported"),
]


def explain(table: dict[str, str], value: str) -> str:
    return table.get(value) or f"{value}: no description known for this value."


@dataclass
class SafetyView:
    """A safety rating in plain words: "Harassment: low chance it is harmful (0.12), ..."."""

    rating: SafetyRating

    @property
    def name(self) -> str:
        category = self.rating.category
        return (
            HARM_NAMES.get(category)
            or category.removeprefix("HARM_CATEGORY_").replace("_", " ").capitalize()
        )

    @property
    def category_help(self) -> str:
        return explain(HARM_CATEGORIES, self.rating.category)

    @property
    def level(self) -> str:
        return (self.rating.probability or "unspecified").lower()

    @property
    def harmless(self) -> bool:
        """Negligible on both scales, and not blocked: nothing a reviewer need read."""
        r = self.rating
        return (
            self.level == "negligible"
            and r.severity in ("", "HARM_SEVERITY_NEGLIGIBLE", "HARM_SEVERITY_UNSPECIFIED")
            and not r.blocked
        )

    @property
    def sentence(self) -> str:
        r = self.rating
        parts = []
        if r.probability:
            text = HARM_PROBABILITIES.get(r.probability, f"probability {r.probability}")
            if r.probability_score is not None:
                text += f" ({r.probability_score:.2f})"
            parts.append(text)
        if r.severity:
            text = HARM_SEVERITIES.get(r.severity, f"severity {r.severity}")
            if r.severity_score is not None:
                text += f" ({r.severity_score:.2f})"
            parts.append(text)
        if r.blocked:
            parts.append("the content was blocked")
        return ", ".join(parts) or "no rating given"


def score_band(score: float | None) -> str:
    if score is None:
        return "hl-unscored"
    for low, css, _ in SCORE_BANDS:
        if score >= low:
            return css
    return "hl-s1"
