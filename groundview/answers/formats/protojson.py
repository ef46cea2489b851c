"""Any proto3 JSON form of a message, rewritten in the REST form that Vertex itself returns.

The proto3 JSON mapping lets a writer choose: field names in lowerCamelCase or as in the .proto
(snake_case), enums as names or numbers, 64-bit integers as strings or numbers, doubles as numbers
or numeric strings, and `null` for "not set". Google's client library uses several of those
choices (`Answer.to_json` writes enum numbers, `to_dict` snake_case names). groundview stores one
form, the REST one (camelCase, enum names, int64 as strings), so exports and comparisons do not
depend on who wrote the file. Fields the tables do not know are kept as they are: the resource
grows, and a newer writer's fields must survive a round trip.

The field and enum tables come from Google's library (see prototables.py), not from a list
written here.
"""

from __future__ import annotations

import json
import math
import re
from functools import cache
from pathlib import Path
from typing import Any

from groundview.answers.schema import RecordError, describe, join

TABLES = Path(__file__).with_name("vertex_v1.json")

INT_RANGES = {
    "int32": (-(2**31), 2**31 - 1),
    "uint32": (0, 2**32 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint64": (0, 2**64 - 1),
}
# What a proto3 JSON parser takes as an integer in a string: digits, optionally with an exponent
# or a zero fraction ("1e3", "2.0"), as long as the value is whole.
INTEGER_TEXT = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?\Z")
SPECIAL_DOUBLES = {"NaN", "Infinity", "-Infinity"}


@cache
def tables() -> dict[str, Any]:
    data = json.loads(TABLES.read_text(encoding="utf-8"))
    # Index every field by both of its names, the two a parser must accept.
    for message in data["messages"].values():
        message["by_name"] = {}
        for field in message["fields"]:
            message["by_name"][field["json"]] = field
            message["by_name"][field["name"]] = field
    return data


def root_type(name: str) -> str:
    return tables()["roots"][name]


def to_rest(value: Any, root: str, path: str = "") -> dict[str, Any]:
    """The REST form of `value`, a proto3 JSON rendering of the message `root` (e.g. "Answer")."""
    return message(value, root_type(root), path)


def message(value: Any, type_name: str, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(path, f"must be an object, not {describe(value)}")
    fields = tables()["messages"][type_name]["by_name"]
    result: dict[str, Any] = {}
    given_as: dict[str, str] = {}
    oneofs: dict[str, str] = {}
    for key, item in value.items():
        field = fields.get(key)
        if field is None:
            if key in given_as:
                raise RecordError(join(path, key), f"is given twice (also as {given_as[key]!r})")
            result[key] = item
            given_as[key] = key
            continue
        name = field["json"]
        if name in given_as:
            raise RecordError(join(path, key), f"is given twice (also as {given_as[name]!r})")
        given_as[name] = key
        if item is None:
            # proto3 JSON: null means the field is not set.
            continue
        if "oneof" in field:
            other = oneofs.setdefault(field["oneof"], key)
            if other != key:
                raise RecordError(
                    join(path, key), f"cannot be set together with {other!r} (one of them only)"
                )
        result[name] = field_value(item, field, join(path, key))
    return result


def field_value(value: Any, field: dict[str, Any], path: str) -> Any:
    if "map" in field:
        if not isinstance(value, dict):
            raise RecordError(path, f"must be an object, not {describe(value)}")
        return {key: single(item, field["map"], join(path, key)) for key, item in value.items()}
    if field.get("repeated"):
        if not isinstance(value, list):
            raise RecordError(path, f"must be an array, not {describe(value)}")
        items = []
        for index, item in enumerate(value):
            if item is None:
                raise RecordError(join(path, index), "must not be null")
            items.append(single(item, field, join(path, index)))
        return items
    return single(value, field, path)


def single(value: Any, field: dict[str, Any], path: str) -> Any:
    kind = field["kind"]
    if kind == "message":
        return message(value, field["type"], path)
    if kind == "enum":
        return enum(value, field["type"], path)
    if kind in INT_RANGES:
        number = integer(value, kind, path)
        # The REST form writes 64-bit integers as strings, 32-bit ones as numbers.
        return str(number) if kind.endswith("64") else number
    if kind == "double":
        return double(value, path)
    if kind == "float":
        number = double(value, path)
        # A 32-bit float: Google's parsers refuse a larger one, so an export of it could not be
        # read back.
        if abs(number) > FLOAT32_MAX:
            raise RecordError(path, f"{short(value)} is out of range for a 32-bit float")
        return number
    if kind == "bool":
        if not isinstance(value, bool):
            raise RecordError(path, f"must be a boolean, not {describe(value)}")
        return value
    if kind in ("string", "bytes", "timestamp", "duration", "fieldmask"):
        if not isinstance(value, str):
            raise RecordError(path, f"must be a string, not {describe(value)}")
        return value
    if kind == "struct" or kind == "any":
        if not isinstance(value, dict):
            raise RecordError(path, f"must be an object, not {describe(value)}")
        return value
    if kind == "listvalue":
        if not isinstance(value, list):
            raise RecordError(path, f"must be an array, not {describe(value)}")
        return value
    return value  # google.protobuf.Value: any JSON at all


def enum(value: Any, type_name: str, path: str) -> str:
    if isinstance(value, str):
        # A name this table does not know may be a newer value: kept, like unknown fields.
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        if not -(2**31) <= value < 2**31:
            raise RecordError(path, f"{value} is out of range for an enum (32 bits)")
        # proto3 enums are open: a number this table lacks is a value Google added since, kept
        # (as its digits, which Google's parsers read back as that number).
        return tables()["enums"][type_name].get(str(value), str(value))
    raise RecordError(path, f"must be an enum name or number, not {describe(value)}")


def integer(value: Any, kind: str, path: str) -> int:
    number: int | None = None
    if isinstance(value, bool):
        raise RecordError(path, "must be an integer, not a boolean")
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and len(value) <= 40 and INTEGER_TEXT.match(value):
        as_float = float(value)
        if "." not in value and "e" not in value.lower():
            number = int(value)
        elif math.isfinite(as_float) and as_float.is_integer():
            number = int(as_float)
    if number is None:
        raise RecordError(path, f"must be an integer, not {short(value)}")
    low, high = INT_RANGES[kind]
    if not low <= number <= high:
        raise RecordError(path, f"{number} is out of range for {kind} ({low} to {high})")
    return number


FLOAT32_MAX = 3.4028234663852886e38


def double(value: Any, path: str) -> float | int:
    if isinstance(value, bool):
        raise RecordError(path, "must be a number, not a boolean")
    if isinstance(value, int | float):
        number = value
    elif isinstance(value, str) and value not in SPECIAL_DOUBLES and len(value) <= 40:
        try:
            number = float(value)
        except ValueError:
            raise RecordError(path, f"must be a number, not {short(value)}") from None
    else:
        if isinstance(value, str) and value in SPECIAL_DOUBLES:
            # Allowed by proto3 JSON, but nothing downstream can compare or store it.
            raise RecordError(path, f"must be a finite number, not {value}")
        raise RecordError(path, f"must be a number, not {short(value)}")
    if isinstance(number, float) and not math.isfinite(number):
        raise RecordError(path, f"must be a finite number, not {short(value)}")
    return number


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
