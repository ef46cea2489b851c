"""Builds `vertex_v1.json`, the field and enum tables `protojson` reads, from Google's client library.

The tables are generated rather than written by hand so that they say what the library says.
The library is a test dependency only, so the result is checked in; a test rebuilds it and
compares. To regenerate after upgrading `google-cloud-discoveryengine`:

    python -m groundview.answers.formats.prototables > groundview/answers/formats/vertex_v1.json
"""

from __future__ import annotations

import json
import sys
from typing import Any

# The messages an import file may hold at its top level, and the Check Grounding request body
# (groundview/api/vertex.py reads it in any proto3 JSON form too).
ROOTS = ("Answer", "Session", "AnswerQueryResponse", "CheckGroundingRequest")

# Well-known types have their own JSON forms, so they are not walked into.
WELL_KNOWN = {
    "google.protobuf.Timestamp": "timestamp",
    "google.protobuf.Duration": "duration",
    "google.protobuf.FieldMask": "fieldmask",
    "google.protobuf.Struct": "struct",
    "google.protobuf.Value": "value",
    "google.protobuf.ListValue": "listvalue",
    "google.protobuf.Any": "any",
    "google.protobuf.BoolValue": "bool",
    "google.protobuf.StringValue": "string",
    "google.protobuf.BytesValue": "bytes",
    "google.protobuf.DoubleValue": "double",
    "google.protobuf.FloatValue": "float",
    "google.protobuf.Int32Value": "int32",
    "google.protobuf.UInt32Value": "uint32",
    "google.protobuf.Int64Value": "int64",
    "google.protobuf.UInt64Value": "uint64",
}


def scalar_kinds() -> dict[int, str]:
    from google.protobuf.descriptor import FieldDescriptor as F

    return {
        F.TYPE_DOUBLE: "double",
        F.TYPE_FLOAT: "float",
        F.TYPE_INT64: "int64",
        F.TYPE_SINT64: "int64",
        F.TYPE_SFIXED64: "int64",
        F.TYPE_UINT64: "uint64",
        F.TYPE_FIXED64: "uint64",
        F.TYPE_INT32: "int32",
        F.TYPE_SINT32: "int32",
        F.TYPE_SFIXED32: "int32",
        F.TYPE_UINT32: "uint32",
        F.TYPE_FIXED32: "uint32",
        F.TYPE_BOOL: "bool",
        F.TYPE_STRING: "string",
        F.TYPE_BYTES: "bytes",
    }


def build() -> dict[str, Any]:
    from google.cloud import discoveryengine_v1

    kinds = scalar_kinds()
    messages: dict[str, Any] = {}
    enums: dict[str, dict[str, str]] = {}

    def kind_of(field: Any) -> dict[str, Any]:
        if field.enum_type is not None:
            enum = field.enum_type
            enums[enum.full_name] = {str(value.number): value.name for value in enum.values}
            return {"kind": "enum", "type": enum.full_name}
        if field.message_type is not None:
            name = field.message_type.full_name
            if name in WELL_KNOWN:
                return {"kind": WELL_KNOWN[name]}
            walk(field.message_type)
            return {"kind": "message", "type": name}
        return {"kind": kinds[field.type]}

    def walk(descriptor: Any) -> None:
        if descriptor.full_name in messages:
            return
        fields: list[dict[str, Any]] = []
        messages[descriptor.full_name] = {"fields": fields}
        for field in descriptor.fields:
            entry: dict[str, Any] = {"name": field.name, "json": field.json_name}
            oneof = field.containing_oneof
            # proto3 `optional` is a synthetic oneof named "_field"; only real oneofs exclude.
            if oneof is not None and not oneof.name.startswith("_"):
                entry["oneof"] = oneof.name
            message = field.message_type
            if message is not None and message.GetOptions().map_entry:
                entry["map"] = kind_of(message.fields_by_name["value"])
            else:
                entry.update(kind_of(field))
                if field.is_repeated:
                    entry["repeated"] = True
            fields.append(entry)

    roots = {}
    for root in ROOTS:
        descriptor = getattr(discoveryengine_v1, root).pb().DESCRIPTOR
        walk(descriptor)
        roots[root] = descriptor.full_name
    return {
        "source": "google-cloud-discoveryengine, discoveryengine_v1 (see prototables.py)",
        "roots": roots,
        "messages": dict(sorted(messages.items())),
        "enums": dict(sorted(enums.items())),
    }


if __name__ == "__main__":
    json.dump(build(), sys.stdout, indent=1, sort_keys=False)
    sys.stdout.write("\n")
