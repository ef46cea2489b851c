"""Ragas and DeepEval rows, from CSV and JSONL, import as answers and keep their source rows."""

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from groundview.answers import importing
from groundview.answers.exporting import answer_jsonl
from groundview.answers.formats.rows import source_row
from groundview.answers.models import Answer, Reference, Session

RAGAS = [
    {
        "user_input": "What is the capital of France?",
        "retrieved_contexts": ["Paris is the capital of France.", "France is in Europe."],
        "response": "Paris is the capital of France.",
        "reference": "Paris",
        "faithfulness": 1.0,
    },
    {
        "user_input": "Who wrote Faust?",
        "retrieved_contexts": ["Goethe wrote Faust.\u2028A tragedy in two parts."],
        "response": "Goethe wrote it.",
        "reference": "Johann Wolfgang von Goethe",
        "faithfulness": 0.5,
    },
]
RAGAS_OLD = {
    "question": "Wie groß ist Berlin?",
    "contexts": ["Berlin hat 3,7 Millionen Einwohner."],
    "answer": "Berlin hat etwa 3,7 Millionen Einwohner.",
    "ground_truth": "3,7 Millionen",
}
DEEPEVAL = {
    "input": "東京の人口は？",
    "actual_output": "約1400万人です。",
    "expected_output": "1400万人",
    "retrieval_context": ["東京都の人口は約1400万人。"],
    "name": "tokyo-population",
    "id": "tc-7",
}


def jsonl(rows):
    return "\n".join(json.dumps(row, ensure_ascii=False) for row in rows)


def as_csv(rows, list_cell=repr):
    """What pandas' to_csv writes for a Ragas dataset: list columns as Python list literals."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    for row in rows:
        writer.writerow({k: list_cell(v) if isinstance(v, list) else v for k, v in row.items()})
    return out.getvalue()


def exported():
    return [json.loads(line) for line in answer_jsonl(Answer.objects.order_by("pk"))]


@pytest.mark.django_db
def test_ragas_jsonl_rows_become_answers_with_question_contexts_and_their_source_row():
    result = importing.import_text(jsonl([*RAGAS, RAGAS_OLD]))

    assert (result.created, result.problems) == (3, [])
    first = Answer.objects.get(query_text="What is the capital of France?")
    assert first.answer_text == "Paris is the capital of France."
    assert first.state == "SUCCEEDED"
    assert list(first.references.values_list("kind", "content")) == [
        ("chunkInfo", "Paris is the capital of France."),
        ("chunkInfo", "France is in Europe."),
    ]
    assert first.name.startswith(
        "projects/groundview/locations/global/collections/default_collection/engines/ragas/"
    )
    assert first.session.raw["turns"] == [
        {"query": {"text": "What is the capital of France?"}, "answer": first.name}
    ]
    old = Answer.objects.get(query_text="Wie groß ist Berlin?")
    assert old.answer_text == "Berlin hat etwa 3,7 Millionen Einwohner."
    assert [source_row(document) for document in exported()] == [*RAGAS, RAGAS_OLD]


@pytest.mark.django_db
@pytest.mark.parametrize("list_cell", [repr, json.dumps], ids=["python-list", "json-list"])
def test_ragas_csv_rows_import_the_same_answers_as_jsonl(list_cell):
    importing.import_text(jsonl(RAGAS))
    from_jsonl = sorted(Answer.objects.values_list("name", "answer_text", "query_text"))
    Answer.objects.all().delete()

    result = importing.import_text(as_csv(RAGAS, list_cell), csv=True)

    assert (result.created, result.problems) == (2, [])
    assert sorted(Answer.objects.values_list("name", "answer_text", "query_text")) == from_jsonl
    contexts = Reference.objects.filter(answer__query_text="Who wrote Faust?").values_list(
        "content", flat=True
    )
    assert list(contexts) == ["Goethe wrote Faust.\u2028A tragedy in two parts."]


@pytest.mark.django_db
def test_deepeval_test_case_keeps_its_id_and_reimport_changes_nothing():
    importing.import_text(json.dumps([DEEPEVAL], ensure_ascii=False))
    again = importing.import_text(jsonl([DEEPEVAL]))
    # Exported and imported again: the same answer, unchanged.
    round_trip = importing.import_text("".join(answer_jsonl(Answer.objects.all())))

    assert (again.unchanged, round_trip.unchanged, round_trip.problems) == (1, 1, [])
    answer = Answer.objects.get()
    assert "/engines/deepeval/" in answer.name
    assert answer.query_text == "東京の人口は？"
    assert answer.raw["groundviewSource"] == {"format": "deepeval", "row": DEEPEVAL, "id": "tc-7"}
    assert Session.objects.count() == 1


@pytest.mark.django_db
def test_a_row_id_names_the_answer_so_a_changed_row_updates_it():
    importing.import_text(jsonl([DEEPEVAL]))

    result = importing.import_text(jsonl([{**DEEPEVAL, "actual_output": "1400万人。"}]))

    assert result.updated == 1
    assert Answer.objects.get().answer_text == "1400万人。"


@pytest.mark.django_db
def test_bad_rows_are_named_by_line_and_column_and_good_rows_still_import(tmp_path, capsys):
    rows = [
        RAGAS[0],
        {"user_input": "No answer here", "retrieved_contexts": []},
        {"input": "q", "actual_output": 42},
        {"user_input": "q", "response": "r", "retrieved_contexts": ["ok", 7]},
        {"user_input": "q", "response": "r\ud800"},
        {"unrelated": "columns"},
        DEEPEVAL,
    ]
    path = tmp_path / "rows.jsonl"
    # ASCII JSON, so the lone surrogate is written as the escape "\ud800".
    path.write_text("\n".join(json.dumps(row) for row in rows), encoding="utf-8")

    with pytest.raises(CommandError) as raised:
        call_command("import_answers", str(path))

    assert raised.value.returncode == 1
    out, err = capsys.readouterr()
    assert f"{path}: 2 imported (2 new, 0 updated, 0 unchanged), 5 rejected" in out
    assert err.splitlines() == [
        f"{path}: line 2: response: is required (a ragas row names its response or answer)",
        f"{path}: line 3: actual_output: must be a string, not a number",
        f"{path}: line 4: retrieved_contexts[1]: must be a string, not a number",
        f"{path}: line 5: response: is not valid Unicode (it has a lone surrogate)",
        f"{path}: line 6: name: is required: answers are keyed by their resource name",
    ]


@pytest.mark.django_db
def test_csv_rows_are_named_by_their_first_line_and_need_row_columns(tmp_path, capsys):
    text = (
        "input,actual_output,retrieval_context\n"
        '"multi\nline question",fine,"[""ctx""]"\n'
        'q,r,"[\'unclosed"\n'
        "q2,r2,ctx,extra\n"
    )
    (tmp_path / "cases.csv").write_text(text, encoding="utf-8")
    (tmp_path / "other.csv").write_text("a,b\n1,2\n", encoding="utf-8")

    with pytest.raises(CommandError):
        call_command("import_answers", str(tmp_path / "cases.csv"), str(tmp_path / "other.csv"))

    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"{tmp_path / 'cases.csv'}: line 4: retrieval_context: looks like a list but is neither "
        "JSON nor a Python list literal",
        f"{tmp_path / 'cases.csv'}: line 5: has 4 cells but the header names 3 columns",
        f"{tmp_path / 'other.csv'}: line 2: has neither Ragas columns (user_input, response, "
        "retrieved_contexts; or question, answer, contexts) nor DeepEval ones (input, "
        "actual_output, retrieval_context)",
    ]
    assert list(Answer.objects.values_list("query_text", flat=True)) == ["multi\nline question"]


@pytest.mark.django_db
def test_a_changed_response_of_a_labelled_row_is_refused_naming_its_column(django_user_model):
    from tests.factories import create_label

    row = {"id": "t-1", "input": "Höhe?", "actual_output": "333 m 🗼.", "retrieval_context": []}
    importing.import_text(json.dumps(row, ensure_ascii=False))
    create_label(Answer.objects.get(), django_user_model.objects.create_user("rita"))

    result = importing.import_text(json.dumps({**row, "actual_output": "334 m."}))

    (problem,) = result.problems
    assert problem.field == "actual_output"
    assert "differs from the stored answer's text" in problem.message
    assert Answer.objects.get().answer_text == "333 m 🗼."
