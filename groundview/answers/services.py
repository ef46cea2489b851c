"""Answer services: what the API does with an import beyond storing it."""

from __future__ import annotations

from groundview.answers import checks
from groundview.answers.importing import ImportResult, import_text


def import_and_queue(text: str, *, csv: bool = False) -> ImportResult:
    """Import `text` (see importing.import_text), then queue grounding checks of the answers that
    are new or changed, when GROUNDVIEW_CHECK_ON_IMPORT is on; they go out once the import commits.

    `manage.py import_answers` queues once for all its files instead, so it calls the two itself.
    """
    result = import_text(text, csv=csv)
    checks.queue_checks_after_import(result.changed_answer_ids)
    return result
