"""The Check Grounding request: validation of the parsed JSON into plain dataclasses.

Input is untrusted (it comes straight from an HTTP body or a CLI line), so every field's type and every
limit in README.md ("Semantics") is checked here and reported as a `RequestError` naming the field, which the HTTP layer
turns into Google's 400 body. Proto3 JSON rules apply: lowerCamel or original snake_case field names, and
a double may be given as a numeric string.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

MAX_FACTS = 200
MAX_FACT_CHARS = 10_000
MAX_TOTAL_FACT_CHARS = MAX_FACTS * MAX_FACT_CHARS
MAX_ANSWER_TOKENS = 4096
# Vertex counts its model's sub-word tokens; counting words instead, one 5 MB "word" or a page of
# emoji would be a single token or none. Ten characters a token bounds what the count misses.
MAX_ANSWER_CHARS = 10 * MAX_ANSWER_TOKENS
MAX_LABELS = 64
MAX_LABEL_CHARS = 63

_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
# A token is a word (each CJK character counts as one) or a sentence-ending punctuation mark.
_TOKEN_RE = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+|[.!?。！？｡]")


class RequestError(Exception):
    """An invalid request (HTTP 400 INVALID_ARGUMENT). `field` is the JSON path of the culprit."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.message = f"{field}: {problem}" if field else problem
        super().__init__(self.message)

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": 400, "message": self.message, "status": "INVALID_ARGUMENT"}}


@dataclass(frozen=True)
class Fact:
    text: str
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class CheckRequest:
    answer: str
    facts: list[Fact]
    citation_threshold: float
    enable_claim_level_score: bool = False
    user_labels: dict[str, str] = field(default_factory=dict)


def score_argument(text: str) -> float:
    """An argparse type for a score in [0, 1] (`--min-support`)."""
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value}")
    return value


def count_tokens(text: str) -> int:
    return sum(1 for _ in _TOKEN_RE.finditer(text))


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return type(value).__name__


def _pick(obj: Mapping[str, Any], camel: str, snake: str, path: str) -> Any:
    if camel in obj and snake in obj:
        raise RequestError(f"{path}{camel}", f"given twice (as {camel!r} and {snake!r})")
    return obj.get(camel, obj.get(snake))


def _check_unknown(obj: Mapping[str, Any], known: set[str], path: str) -> None:
    for key in obj:
        if key not in known:
            raise RequestError(
                f"{path}{key}",
                f'Invalid JSON payload received. Unknown name "{key}": Cannot find field.',
            )


def _string(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise RequestError(path, f"must be a string, got {_type_name(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RequestError(path, "must be valid UTF-8 text (contains a lone surrogate)") from None
    return value


def _string_map(value: Any, path: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RequestError(path, f"must be an object of string values, got {_type_name(value)}")
    out: dict[str, str] = {}
    for key, val in value.items():
        out[_string(key, path)] = _string(val, f"{path}.{key}")
    return out


def parse_threshold(value: Any, path: str = "groundingSpec.citationThreshold") -> float:
    """A number or numeric string in [0, 1] (proto3 JSON allows doubles as strings)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise RequestError(path, f"must be a number in [0, 1], got {_type_name(value)}")
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            raise RequestError(
                path, f"must be a number in [0, 1], got the string {value!r}"
            ) from None
    else:
        try:
            number = float(value)
        except OverflowError:  # an integer of hundreds of digits
            raise RequestError(path, f"must be in [0, 1], got {str(value)[:20]}…") from None
    if not math.isfinite(number) or not 0.0 <= number <= 1.0:
        raise RequestError(path, f"must be in [0, 1], got {value!r}")
    return number


def _label_char_ok(ch: str) -> bool:
    # Lowercase letters, digits, "_" and "-"; non-ASCII letters count as "international characters".
    return (
        ch.islower()
        or ch.isdigit()
        or ch in "_-"
        or (not ch.isascii() and ch.isalpha() and not ch.isupper())
    )


def _user_labels(value: Any) -> dict[str, str]:
    labels = _string_map(value, "userLabels")
    if len(labels) > MAX_LABELS:
        raise RequestError(
            "userLabels", f"at most {MAX_LABELS} labels are allowed, got {len(labels)}"
        )
    for key, val in labels.items():
        path = f"userLabels.{key}" if key else "userLabels"
        if not 1 <= len(key) <= MAX_LABEL_CHARS:
            raise RequestError(
                path, f"label keys must be 1-{MAX_LABEL_CHARS} characters long, got {len(key)}"
            )
        first = key[0]
        if not (
            first.islower() or (not first.isascii() and first.isalpha() and not first.isupper())
        ):
            raise RequestError(
                path,
                f"label key {key!r} must start with a lowercase letter or international character",
            )
        if not all(_label_char_ok(ch) for ch in key):
            raise RequestError(
                path,
                f"label key {key!r} may contain only lowercase letters, digits, underscores and dashes",
            )
        if len(val) > MAX_LABEL_CHARS:
            raise RequestError(
                path, f"label values must be at most {MAX_LABEL_CHARS} characters, got {len(val)}"
            )
        if not all(_label_char_ok(ch) for ch in val):
            raise RequestError(
                path,
                f"label value {val!r} may contain only lowercase letters, digits, underscores and dashes",
            )
    return labels


def _facts(value: Any, max_facts: int, max_fact_chars: int) -> list[Fact]:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise RequestError("facts", f"must be an array of facts, got {_type_name(value)}")
    if len(value) > max_facts:
        raise RequestError("facts", f"at most {max_facts} facts are allowed, got {len(value)}")
    facts: list[Fact] = []
    for i, item in enumerate(value):
        path = f"facts[{i}]"
        if not isinstance(item, Mapping):
            raise RequestError(path, f"must be an object, got {_type_name(item)}")
        _check_unknown(item, {"factText", "fact_text", "attributes"}, f"{path}.")
        # proto3: an absent or null string is the empty one (Google's REST client leaves "" out).
        raw_text = _pick(item, "factText", "fact_text", f"{path}.")
        text = "" if raw_text is None else _string(raw_text, f"{path}.factText")
        if len(text) > max_fact_chars:
            raise RequestError(
                f"{path}.factText",
                f"must be at most {max_fact_chars} characters, got {len(text)}",
            )
        facts.append(Fact(text, _string_map(item.get("attributes"), f"{path}.attributes")))
    total = sum(len(f.text) for f in facts)
    if total > MAX_TOTAL_FACT_CHARS:
        raise RequestError(
            "facts", f"must hold at most {MAX_TOTAL_FACT_CHARS} characters in all, got {total}"
        )
    return facts


_TOP_LEVEL = {
    "answerCandidate",
    "answer_candidate",
    "facts",
    "groundingSpec",
    "grounding_spec",
    "userLabels",
    "user_labels",
    # The resource name travels in the URL; tolerate clients that also echo it in the body.
    "groundingConfig",
    "grounding_config",
}


def parse_request(
    payload: Any,
    default_threshold: float = 0.6,
    max_facts: int = MAX_FACTS,
    max_fact_chars: int = MAX_FACT_CHARS,
) -> CheckRequest:
    """Validate a parsed Check Grounding request body. Raises RequestError naming the field."""
    if not isinstance(payload, Mapping):
        raise RequestError("", f"the request body must be a JSON object, got {_type_name(payload)}")
    _check_unknown(payload, _TOP_LEVEL, "")
    raw_answer = _pick(payload, "answerCandidate", "answer_candidate", "")
    answer = "" if raw_answer is None else _string(raw_answer, "answerCandidate")
    if len(answer) > MAX_ANSWER_CHARS:
        raise RequestError(
            "answerCandidate",
            f"must be at most {MAX_ANSWER_CHARS} characters long, got {len(answer)}",
        )
    tokens = count_tokens(answer)
    if tokens > MAX_ANSWER_TOKENS:
        raise RequestError(
            "answerCandidate", f"must be at most {MAX_ANSWER_TOKENS} tokens long, got {tokens}"
        )
    facts = _facts(payload.get("facts"), max_facts, max_fact_chars)

    spec = _pick(payload, "groundingSpec", "grounding_spec", "")
    threshold = default_threshold
    claim_scores = False
    if spec is not None:
        if not isinstance(spec, Mapping):
            raise RequestError("groundingSpec", f"must be an object, got {_type_name(spec)}")
        _check_unknown(
            spec,
            {
                "citationThreshold",
                "citation_threshold",
                "enableClaimLevelScore",
                "enable_claim_level_score",
            },
            "groundingSpec.",
        )
        raw_threshold = _pick(spec, "citationThreshold", "citation_threshold", "groundingSpec.")
        if raw_threshold is not None:
            threshold = parse_threshold(raw_threshold)
        raw_flag = _pick(
            spec, "enableClaimLevelScore", "enable_claim_level_score", "groundingSpec."
        )
        if raw_flag is not None:
            if not isinstance(raw_flag, bool):
                raise RequestError(
                    "groundingSpec.enableClaimLevelScore",
                    f"must be true or false, got {_type_name(raw_flag)}",
                )
            claim_scores = raw_flag

    labels = _user_labels(_pick(payload, "userLabels", "user_labels", ""))
    return CheckRequest(answer, facts, threshold, claim_scores, labels)
