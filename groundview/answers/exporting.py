"""Export of stored answers: the documents in the REST form they were stored in.

An Answer resource holds no question: Vertex keeps it in the session's turns. With sessions, each
answer that has a stored session goes out as an `:answer` response (`{"answer": …, "session": …}`),
the shape it was most likely imported in, so that another groundview importing the file gets the
questions too; answers without one go out as they are.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from django.db.models import QuerySet

from groundview.answers.models import Answer

# JSON allows these unescaped inside strings, but str.splitlines() and JavaScript before ES2019
# treat them as line ends, so a JSONL reader would cut the record in two. Escaped, they read back
# as the same characters.
LINE_BREAKS_JSON_ALLOWS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def jsonl_line(document: Any) -> str:
    """One JSON Lines record: UTF-8 text as is, except the characters that would split a line."""
    line = json.dumps(document, ensure_ascii=False)
    # json.dumps escapes every other control character; these three can only occur in strings.
    for character, escaped in LINE_BREAKS_JSON_ALLOWS.items():
        if character in line:
            line = line.replace(character, escaped)
    return line + "\n"


def answer_documents(
    answers: QuerySet[Answer], *, with_sessions: bool = False
) -> Iterator[dict[str, Any]]:
    # Only the JSON columns, in chunks, so a large export never holds every row in memory.
    ordered = answers.order_by("pk")
    if not with_sessions:
        yield from ordered.values_list("raw", flat=True).iterator(chunk_size=500)
        return
    for answer, session in ordered.values_list("raw", "session__raw").iterator(chunk_size=500):
        yield answer if session is None else {"answer": answer, "session": session}


def answer_jsonl(answers: QuerySet[Answer], *, with_sessions: bool = False) -> Iterator[str]:
    for document in answer_documents(answers, with_sessions=with_sessions):
        yield jsonl_line(document)
