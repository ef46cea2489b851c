"""Which head the engine scores with: the default checker version's, else the packaged one.

The engine (groundview/grounding) reads its head from a file and keeps one engine per configuration
per process. A version's head is therefore written to a file named by the hash of its content: the
same default gives the same path, so every call finds the engine already loaded, and a new default
gives a new path, so every web and worker process picks it up on its next check without a restart.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection

from groundview.answers.models import CheckerVersion

logger = logging.getLogger(__name__)


def get_default_version() -> CheckerVersion | None:
    """The version every engine uses now; None means the packaged head."""
    try:
        return CheckerVersion.objects.filter(is_default=True).first()
    except DatabaseError:
        # A database that was never migrated (e.g. `groundview check` on a fresh install) has no
        # versions; the packaged head is right there. Inside a transaction the error must surface.
        if connection.in_atomic_block:
            raise
        logger.warning("cannot read the default checker version; using the packaged head")
        return None


def head_file(spec: dict[str, Any]) -> Path:
    """A file holding this head spec, written once per content (atomically, for parallel workers)."""
    text = json.dumps(spec, sort_keys=True, ensure_ascii=False, indent=1)
    digest = hashlib.sha256(text.encode()).hexdigest()[:24]
    try:
        return write_once(Path(settings.DATA_DIR) / "checker-heads", digest, text)
    except OSError:
        # A read-only data folder (some container setups) must not stop checks.
        return write_once(Path(tempfile.gettempdir()) / "groundview-checker-heads", digest, text)


def write_once(folder: Path, digest: str, text: str) -> Path:
    path = folder / f"head-{digest}.json"
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".head-{digest}.{os.getpid()}.{threading.get_ident()}.tmp"
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    return path
