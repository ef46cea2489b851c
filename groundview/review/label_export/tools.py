"""The labelling tools' import formats: Argilla 2 records and Label Studio tasks."""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any

from groundview.review.models import Verdict

# Reviewers become Argilla users by a stable id: create the users with these ids (or map them)
# before logging responses, since Argilla takes a response only from a user it knows.
REVIEWER_NAMESPACE = uuid.UUID("6f1c3f0e-2b7a-5d39-9a35-1f3f0c6b8e21")

# --- Argilla ------------------------------------------------------------------------------------

VERDICTS = list(Verdict.values)

# The dataset these records fit, as Argilla 2's Python SDK builds it (for the README and users):
ARGILLA_SETTINGS = """\
rg.Settings(
    fields=[rg.TextField("question"), rg.TextField("answer"), rg.TextField("contexts")],
    questions=[
        rg.LabelQuestion("answer_verdict", labels=VERDICTS),
        rg.SpanQuestion("claims", field="answer", labels=VERDICTS, allow_overlapping=True),
        rg.SpanQuestion("final_claims", field="answer", labels=VERDICTS, allow_overlapping=True),
    ],
    metadata=[rg.TermsMetadataProperty("final_verdict"), rg.FloatMetadataProperty("checker_support_score")],
)"""


def reviewer_id(username: str) -> str:
    return str(uuid.uuid5(REVIEWER_NAMESPACE, username))


def contexts_text(contexts: list[dict[str, Any]]) -> str:
    parts = []
    for context in contexts:
        heading = f"[{context['reference'] + 1}] {context['title']}".rstrip()
        parts.append(f"{heading}\n{context['text']}")
    return "\n\n".join(parts)


def char_span(claim: dict[str, Any]) -> tuple[int, int] | None:
    if claim["start_char"] is None or claim["end_char"] is None:
        return None
    return claim["start_char"], claim["end_char"]


def argilla_record(document: dict[str, Any]) -> dict[str, Any]:
    responses: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for label in document["labels"]:
        responses["answer_verdict"].append(
            {"value": label["verdict"], "user_id": reviewer_id(label["reviewer"])}
        )
    spans_by_reviewer: dict[str, list[dict[str, Any]]] = defaultdict(list)
    final_spans, checker_spans, checker_scores = [], [], []
    for claim in document["claims"]:
        span = char_span(claim)
        if span is None:
            continue
        start, end = span
        for verdict in claim["verdicts"]:
            spans_by_reviewer[verdict["reviewer"]].append(
                {"label": verdict["verdict"], "start": start, "end": end}
            )
        if claim["final_verdict"]:
            final_spans.append({"label": claim["final_verdict"], "start": start, "end": end})
        if claim["checker_verdict"]:
            checker_spans.append({"label": claim["checker_verdict"], "start": start, "end": end})
            checker_scores.append(claim["checker_score"])
    for reviewer, spans in spans_by_reviewer.items():
        responses["claims"].append({"value": spans, "user_id": reviewer_id(reviewer)})
    checker = document["checker"] or {}
    suggestions: dict[str, dict[str, Any]] = {}
    if checker_spans:
        suggestions["claims"] = {
            "value": checker_spans,
            # Argilla takes one score per span, or none; a claim without a score has none.
            "score": checker_scores if None not in checker_scores else None,
            "agent": f"groundview {checker.get('engine_version', '')}".strip(),
        }
    if final_spans:
        suggestions["final_claims"] = {
            "value": final_spans,
            "score": None,
            "agent": "groundview final verdicts",
        }
    metadata = {
        "answer_id": document["answer_id"],
        "session": document["session"],
        "state": document["state"],
        "final_verdict": document["final_verdict"],
        "producer_grounding_score": document["producer_grounding_score"],
        "checker_support_score": checker.get("support_score"),
        "checker_engine_version": checker.get("engine_version"),
        "reviewers": [label["reviewer"] for label in document["labels"]],
    }
    return {
        "id": document["answer"],
        "fields": {
            "question": document["question"],
            "answer": document["answer_text"],
            "contexts": contexts_text(document["contexts"]),
        },
        # Argilla's metadata properties take values, not nulls.
        "metadata": {key: value for key, value in metadata.items() if value not in (None, [])},
        "suggestions": suggestions,
        "responses": dict(responses),
        "vectors": {},
    }


# --- Label Studio -------------------------------------------------------------------------------

# The labelling config the tasks fit (Label Studio: project settings, "Labeling Interface", Code).
LABEL_STUDIO_CONFIG = (
    "<View>\n"
    '  <Header value="Question"/>\n'
    '  <Text name="question" value="$question"/>\n'
    '  <Header value="Answer"/>\n'
    '  <Labels name="claim" toName="answer">\n'
    + "".join(f'    <Label value="{verdict}"/>\n' for verdict in Verdict.values)
    + "  </Labels>\n"
    '  <Text name="answer" value="$answer"/>\n'
    '  <Choices name="answer_verdict" toName="answer" choice="single">\n'
    + "".join(f'    <Choice value="{verdict}"/>\n' for verdict in Verdict.values)
    + "  </Choices>\n"
    '  <Header value="Contexts"/>\n'
    '  <Text name="contexts" value="$contexts"/>\n'
    "</View>\n"
)


def claim_region(claim: dict[str, Any], number: int, verdict: str) -> dict[str, Any]:
    # The same region id in every annotation, so Label Studio's agreement compares like with like.
    return {
        "id": f"claim-{number}",
        "from_name": "claim",
        "to_name": "answer",
        "type": "labels",
        "value": {
            "start": claim["start_char"],
            "end": claim["end_char"],
            "text": claim["text"],
            "labels": [verdict],
        },
    }


def answer_choice(verdict: str) -> dict[str, Any]:
    return {
        "id": "answer-verdict",
        "from_name": "answer_verdict",
        "to_name": "answer",
        "type": "choices",
        "value": {"choices": [verdict]},
    }


def label_studio_task(document: dict[str, Any]) -> dict[str, Any]:
    claims = [
        (number, claim)
        for number, claim in enumerate(document["claims"], start=1)
        if char_span(claim) is not None
    ]
    annotations = []
    authors = []
    for label in document["labels"]:
        result = [answer_choice(label["verdict"])]
        for number, claim in claims:
            for verdict in claim["verdicts"]:
                if verdict["reviewer"] == label["reviewer"]:
                    result.append(claim_region(claim, number, verdict["verdict"]))
        annotations.append(
            {
                "result": result,
                "ground_truth": False,
                "created_at": label["created_at"],
                "updated_at": label["updated_at"],
            }
        )
        authors.append(label["reviewer"])
    final = [
        claim_region(claim, number, claim["final_verdict"])
        for number, claim in claims
        if claim["final_verdict"]
    ]
    if document["final_verdict"]:
        final.insert(0, answer_choice(document["final_verdict"]))
    if final:
        # Label Studio's ground truth: the final verdicts, adjudicated or agreed.
        annotations.append({"result": final, "ground_truth": True})
        # No one person gave it; a name here could be a reviewer's ("final").
        authors.append(None)
    checker = document["checker"]
    predictions = []
    if checker:
        result = []
        for number, claim in claims:
            if claim["checker_verdict"]:
                region = claim_region(claim, number, claim["checker_verdict"])
                if claim["checker_score"] is not None:
                    region["score"] = claim["checker_score"]
                result.append(region)
        prediction: dict[str, Any] = {
            "model_version": " ".join(
                part for part in (checker["engine_version"], checker["model_id"]) if part
            )
            or "groundview",
            "result": result,
        }
        if checker["support_score"] is not None:
            prediction["score"] = checker["support_score"]
        predictions.append(prediction)
    return {
        "data": {
            "question": document["question"],
            "answer": document["answer_text"],
            "contexts": contexts_text(document["contexts"]),
            "groundview_answer": document["answer"],
        },
        # Who gave each annotation, in order: Label Studio ties `completed_by` to its own users.
        "meta": {"groundview_answer_id": document["answer_id"], "annotators": authors},
        "annotations": annotations,
        "predictions": predictions,
    }
