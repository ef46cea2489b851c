"""Trigram indexes for the reviewers' full-text filter (answer and question text).

The filter is a case-insensitive substring match, which PostgreSQL runs as
`UPPER(col) LIKE UPPER('%...%')`; a GIN trigram index on `UPPER(col)` serves it instead of a scan of
every answer. SQLite (the embedded default) has no such index and does not need one at its scale.
"""

from django.db import migrations

COLUMNS = ["answer_text", "query_text"]


def create_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for column in COLUMNS:
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS answers_answer_{column}_trgm "
            f"ON answers_answer USING gin (UPPER({column}) gin_trgm_ops)"
        )


def drop_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for column in COLUMNS:
        schema_editor.execute(f"DROP INDEX IF EXISTS answers_answer_{column}_trgm")


class Migration(migrations.Migration):
    dependencies = [("answers", "0002_checkrun_fact_sources")]

    operations = [migrations.RunPython(create_indexes, drop_indexes)]
