"""Plain words for the enum values the pages show, in one place.

Vertex sends names like NON_ANSWER_SEEKING_QUERY_IGNORED; a reviewer should read "Chit-chat, not
answered". Templates use the `plain` filter (review_tags), which reads only this mapping, so a
name is worded the same on every page. The longer explanations are in vertex_terms.py.
"""

from __future__ import annotations

from groundview.answers.models import AnswerState, CheckRun
from groundview.review.models import Verdict

ANSWER_STATES = dict(AnswerState.choices)

SKIP_REASONS = {
    "ANSWER_SKIPPED_REASON_UNSPECIFIED": "Skipped, no reason given",
    "ADVERSARIAL_QUERY_IGNORED": "Adversarial query",
    "NON_ANSWER_SEEKING_QUERY_IGNORED": "Chit-chat, not answered",
    "OUT_OF_DOMAIN_QUERY_IGNORED": "Out of domain",
    "POTENTIAL_POLICY_VIOLATION": "Possible policy violation",
    "NO_RELEVANT_CONTENT": "No relevant content",
    "JAIL_BREAKING_QUERY_IGNORED": "Jail-break attempt",
    "CUSTOMER_POLICY_VIOLATION": "Customer policy violation",
    "NON_ANSWER_SEEKING_QUERY_IGNORED_V2": "No clear intent, not answered",
    "LOW_GROUNDED_ANSWER": "Too weakly grounded",
    "UNHELPFUL_ANSWER": "Unhelpful answer withheld",
    "USER_DEFINED_CLASSIFICATION_QUERY_IGNORED": "A class the customer leaves unanswered",
}

QUERY_TYPES = {
    "TYPE_UNSPECIFIED": "Unclassified",
    "ADVERSARIAL_QUERY": "Adversarial",
    "NON_ANSWER_SEEKING_QUERY": "Chit-chat",
    "JAIL_BREAKING_QUERY": "Jail-break attempt",
    "NON_ANSWER_SEEKING_QUERY_V2": "No clear intent",
    "USER_DEFINED_CLASSIFICATION_QUERY": "Customer-defined class",
}

PLAIN_WORDS: dict[str, str] = {
    **ANSWER_STATES,
    **SKIP_REASONS,
    **QUERY_TYPES,
    **dict(CheckRun.Status.choices),
    **dict(Verdict.choices),
}


def plain(value: object) -> str:
    """The words for an enum value; an unknown one humanised rather than shown raw."""
    if value is None or value == "":
        return ""
    text = str(value)
    known = PLAIN_WORDS.get(text)
    if known is not None:
        return known
    # A value newer than this table: "SOME_NEW_REASON" reads "Some new reason".
    return text.replace("_", " ").strip().lower().capitalize()
