"""Answer services: what the API does with an import beyond storing it."""

from __future__ import annotations

from typing import Any

from groundview.answers import checks, schema
from groundview.answers.formats import otlp
from groundview.answers.importing import ImportResult, import_spans, import_text


def import_and_queue(text: str, *, csv: bool = False) -> ImportResult:
    """Import `text` (see importing.import_text), then queue grounding checks of the answers that
    are new or changed, when GROUNDVIEW_CHECK_ON_IMPORT is on; they go out once the import commits.

    `manage.py import_answers` queues once for all its files instead, so it calls the two itself.
    """
    result = import_text(text, csv=csv)
    checks.queue_checks_after_import(result.changed_answer_ids)
    return result


def import_traces_and_queue(export: dict[str, Any]) -> ImportResult:
    """Store the traces of one OTLP export (parsed JSON, or protobuf via otlp.from_protobuf), one
    answer per trace, merged with spans of the same traces stored before; then queue checks as
    import_and_queue does, for the answers whose trace is complete.

    A malformed export raises RecordError naming the field, and nothing of it is stored; a trace
    that cannot be mapped (no OpenInference span, too many spans) is a problem of the result.
    """
    schema.check_storable(export, "")
    result = import_spans(otlp.read_export(export))
    checks.queue_checks_after_import(result.changed_answer_ids)
    return result
