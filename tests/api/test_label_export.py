"""Labels that stand alone (issue 16 item 5): one row per answer with question, answer, contexts,
every verdict and the checker's scores, as JSONL, CSV, Parquet, Argilla and Label Studio JSON,
readable with no database at hand."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET

import pandas as pd
import pytest
from django.core.management import call_command
from django.utils import timezone

from groundview.answers.models import Answer, CheckRun
from groundview.review import label_export
from groundview.review.models import Adjudication, AnswerLabel, ClaimLabel

from .conftest import import_documents, make_answer

pytestmark = pytest.mark.django_db

# Emoji (a flag: two code points, 8 bytes), CJK (3 bytes each) and a combining accent
# (e + U+0301: two code points, 3 bytes) before and inside the claims, so byte and character
# offsets differ and an off-by-one in either shows.
TEXT = "Le cafe\u0301 🇫🇷 est à Paris. 東京は日本の首都です。Bonne journée 😀!"
SENTENCES = ["Le cafe\u0301 🇫🇷 est à Paris. ", "東京は日本の首都です。", "Bonne journée 😀!"]


def byte_span(index: int) -> tuple[int, int]:
    start = len("".join(SENTENCES[:index]).encode())
    return start, start + len(SENTENCES[index].encode())


def body(response) -> bytes:
    assert response.status_code == 200, response.content
    assert response.streaming
    return b"".join(response.streaming_content)


@pytest.fixture
def labelled(reviewer, admin_user):
    document = make_answer(
        "lx",
        text=TEXT,
        citations=[],
        references=[
            {
                "unstructuredDocumentInfo": {
                    "document": "projects/p1/documents/d1",
                    "title": "Café",
                    "uri": "https://example.org/cafe",
                    "chunkContents": [
                        {"content": "Le café est à Paris."},
                        {"content": '=HYPERLINK("x")'},
                    ],
                }
            },
            {
                "chunkInfo": {
                    "chunk": "projects/p1/documents/d2/chunks/c7",
                    "content": "東京は日本の首都である。",
                    "documentMetadata": {"title": "東京"},
                }
            },
        ],
    )
    import_documents([document])
    answer = Answer.objects.get(name=document["name"])
    answer.query_text = "Où est le café ?"
    answer.save(update_fields=["query_text"])
    first, second, third = (byte_span(i) for i in range(3))
    rita = AnswerLabel.objects.create(answer=answer, reviewer=reviewer, verdict="supported")
    ada = AnswerLabel.objects.create(
        answer=answer, reviewer=admin_user, verdict="supported", verdict_from_claims=True
    )
    for label, verdicts in (
        (rita, ("supported", "supported")),
        (ada, ("supported", "unsupported")),
    ):
        ClaimLabel.objects.create(
            label=label,
            start_index=first[0],
            end_index=first[1],
            claim_text=SENTENCES[0],
            verdict=verdicts[0],
            corrected_citations=["0:0"],
        )
        ClaimLabel.objects.create(
            label=label,
            start_index=second[0],
            end_index=second[1],
            claim_text=SENTENCES[1],
            verdict=verdicts[1],
            note="=1+1" if label is rita else "",
        )
    Adjudication.objects.create(
        answer=answer,
        start_index=second[0],
        end_index=second[1],
        claim_text=SENTENCES[1],
        verdict="supported",
        note="the page says so",
        adjudicator=admin_user,
    )
    run = CheckRun.objects.create(
        answer=answer,
        status=CheckRun.Status.SUCCEEDED,
        engine_version="0.2.0",
        model_id="all-MiniLM-L6-v2+head-v2-features",
        citation_threshold=0.6,
        support_score=0.75,
        finished_at=timezone.now(),
        fact_sources=[
            {"reference": 0, "chunk": 0},
            {"reference": 0, "chunk": 1},
            {"reference": 1, "chunk": None},
        ],
        response={
            "supportScore": 0.75,
            "citedChunks": [
                {"chunkText": "Le café est à Paris.", "source": "0"},
                {"chunkText": "東京は日本の首都である。", "source": "2"},
            ],
            "claims": [
                {
                    "startPos": first[0],
                    "endPos": first[1],
                    "claimText": SENTENCES[0],
                    "citationIndices": [0],
                    "groundingCheckRequired": True,
                    "score": 0.9,
                },
                {
                    "startPos": second[0],
                    "endPos": second[1],
                    "claimText": SENTENCES[1],
                    "citationIndices": [1],
                    "groundingCheckRequired": True,
                    "score": 0.8,
                },
                {
                    "startPos": third[0],
                    "endPos": third[1],
                    "claimText": SENTENCES[2],
                    "groundingCheckRequired": False,
                },
            ],
        },
    )
    # A later run that has not finished must not hide the finished one.
    CheckRun.objects.create(answer=answer, status=CheckRun.Status.QUEUED)
    Answer.objects.filter(pk=answer.pk).update(latest_check=run)
    import_documents([make_answer("unlabelled")])
    return answer


def export(client, suffix: str, query: str = "") -> bytes:
    return body(client.get(f"/api/export/labelled-answers.{suffix}{query}"))


def test_jsonl_has_one_self_contained_row_per_labelled_answer(reviewer_client, labelled):
    lines = export(reviewer_client, "jsonl").decode().splitlines()

    assert len(lines) == 1  # the unlabelled answer is left out by default
    row = json.loads(lines[0])
    assert (row["answer"], row["question"], row["answer_text"]) == (
        labelled.name,
        "Où est le café ?",
        TEXT,
    )
    assert [(c["reference"], c["chunk"], c["text"]) for c in row["contexts"]] == [
        (0, 0, "Le café est à Paris."),
        (0, 1, '=HYPERLINK("x")'),
        (1, None, "東京は日本の首都である。"),
    ]
    assert [c["chunk_name"] for c in row["contexts"]] == [
        "",
        "",
        "projects/p1/documents/d2/chunks/c7",
    ]
    assert [
        (label["reviewer"], label["verdict"], label["verdict_from_claims"])
        for label in row["labels"]
    ] == [("rita", "supported", False), ("ada", "supported", True)]
    assert (row["final_verdict"], row["final_source"]) == ("supported", "agreed")
    assert row["checker"]["engine_version"] == "0.2.0"
    assert row["checker"]["support_score"] == 0.75
    first, second, third = row["claims"]
    assert (first["final_verdict"], first["final_source"]) == ("supported", "agreed")
    assert [v["corrected_citations"] for v in first["verdicts"]] == [["0:0"], ["0:0"]]
    assert (second["final_verdict"], second["final_source"], second["adjudicated_by"]) == (
        "supported",
        "adjudicated",
        "ada",
    )
    assert [v["verdict"] for v in second["verdicts"]] == ["supported", "unsupported"]
    assert (first["checker_score"], first["checker_citations"]) == (0.9, ["0:0"])
    assert (second["checker_verdict"], second["checker_citations"]) == ("supported", ["1"])
    # A claim only the checker saw is there too, with nobody's verdict.
    assert (third["verdicts"], third["checker_verdict"], third["final_verdict"]) == (
        [],
        "no_check_needed",
        None,
    )


def test_a_run_of_an_older_text_is_not_the_checker_of_the_export(reviewer_client, labelled):
    # given a re-import that changed the text, which leaves the answer with no latest check
    Answer.objects.filter(pk=labelled.pk).update(latest_check=None)

    row = json.loads(export(reviewer_client, "jsonl").decode().splitlines()[0])

    # then the old run's claims (spans of the old text) are not exported as the checker's
    assert row["checker"] is None
    assert [c.get("checker_score") for c in row["claims"]] == [None, None]


def test_byte_and_character_offsets_name_the_same_text(reviewer_client, labelled):
    row = json.loads(export(reviewer_client, "jsonl"))
    encoded = TEXT.encode()

    for index, claim in enumerate(row["claims"]):
        assert (claim["start_byte"], claim["end_byte"]) == byte_span(index)
        assert encoded[claim["start_byte"] : claim["end_byte"]].decode() == SENTENCES[index]
        assert TEXT[claim["start_char"] : claim["end_char"]] == SENTENCES[index]
        assert claim["text"] == SENTENCES[index]
    # Not the same numbers: the emoji, the accent and the CJK make bytes run ahead.
    assert row["claims"][1]["start_byte"] - row["claims"][1]["start_char"] == 8
    assert row["claims"][2]["start_char"] == len(SENTENCES[0]) + len(SENTENCES[1])


def test_char_offset_is_none_inside_a_character():
    # "a" (1 byte), "東" (3), U+0301 combining acute (2), "😀" (4): boundaries at 0, 1, 4, 6, 10.
    encoded = "a東\u0301😀".encode()
    boundaries = {0: 0, 1: 1, 4: 2, 6: 3, 10: 4}

    offsets = {offset: label_export.char_offset(encoded, offset) for offset in range(-1, 12)}

    assert offsets == {offset: boundaries.get(offset) for offset in range(-1, 12)}


def test_csv_and_parquet_open_in_pandas_with_one_row_per_answer(reviewer_client, labelled):
    frame_csv = pd.read_csv(io.BytesIO(export(reviewer_client, "csv")), keep_default_na=False)
    frame_parquet = pd.read_parquet(io.BytesIO(export(reviewer_client, "parquet")))

    assert len(frame_csv) == len(frame_parquet) == 1
    assert list(frame_csv.columns) == label_export.CSV_COLUMNS
    assert frame_csv.loc[0, "answer_text"] == TEXT == frame_parquet.loc[0, "answer_text"]
    assert frame_csv.loc[0, "checker_support_score"] == 0.75
    csv_claims = json.loads(frame_csv.loc[0, "claims"])
    parquet_claims = list(frame_parquet.loc[0, "claims"])
    assert [c["start_char"] for c in csv_claims] == [c["start_char"] for c in parquet_claims]
    assert parquet_claims[1]["verdicts"][1]["verdict"] == "unsupported"
    assert parquet_claims[2]["checker_score"] is None or pd.isna(parquet_claims[2]["checker_score"])
    assert frame_parquet.loc[0, "checker"]["model_id"] == "all-MiniLM-L6-v2+head-v2-features"
    # The CSV defuses formulas in text cells; JSON cells start with [ and stay as they are.
    assert '=HYPERLINK(\\"x\\")' in frame_csv.loc[0, "contexts"]
    assert json.loads(frame_csv.loc[0, "contexts"])[1]["text"] == '=HYPERLINK("x")'


def test_parquet_streams_a_row_group_per_chunk(reviewer_client, reviewer, monkeypatch):
    monkeypatch.setattr(label_export.reading, "CHUNK", 3)
    import_documents([make_answer(f"p{i}", text=f"Claim {i} 😀.", citations=[]) for i in range(7)])
    for answer in Answer.objects.all():
        AnswerLabel.objects.create(answer=answer, reviewer=reviewer, verdict="unsupported")

    response = reviewer_client.get("/api/export/labelled-answers.parquet?sort=name")
    pieces = list(response.streaming_content)

    import pyarrow.parquet as pq

    data = b"".join(pieces)
    parquet = pq.ParquetFile(io.BytesIO(data))
    assert parquet.metadata.num_rows == 7
    assert parquet.metadata.num_row_groups == 3
    assert len([piece for piece in pieces if piece]) >= 3  # sent as it was written
    assert parquet.read().column("answer_text").to_pylist() == [f"Claim {i} 😀." for i in range(7)]


def test_filters_are_the_answer_lists(reviewer_client, labelled, admin_user):
    assert export(reviewer_client, "jsonl", "?reviewer=nobody") == b""
    assert len(export(reviewer_client, "jsonl", "?reviewer=ada").splitlines()) == 1
    everything = export(reviewer_client, "jsonl", "?label_status=").decode().splitlines()
    assert {json.loads(line)["answer"].rsplit("/", 1)[1] for line in everything} == {
        "lx",
        "unlabelled",
    }
    response = reviewer_client.get("/api/export/labelled-answers.csv?score_min=2")
    assert response.status_code == 400
    assert "score_min" in response.json()


def verdict_of(region) -> str:
    value = region["value"]
    return (value.get("labels") or value["choices"])[0]


def test_label_studio_tasks_use_character_offsets_and_fit_the_config(reviewer_client, labelled):
    (task,) = json.loads(export(reviewer_client, "label-studio.json"))

    assert task["data"]["answer"] == TEXT and task["data"]["question"] == "Où est le café ?"
    assert task["meta"]["annotators"] == ["rita", "ada", None]
    rita, ada, final = task["annotations"]
    regions = [r for r in ada["result"] if r["type"] == "labels"]
    for region in regions:
        value = region["value"]
        assert TEXT[value["start"] : value["end"]] == value["text"]
    assert [r["value"]["labels"] for r in regions] == [["supported"], ["unsupported"]]
    assert final["ground_truth"] is True
    assert [verdict_of(r) for r in final["result"]] == [
        "supported",  # the answer-level choice
        "supported",
        "supported",
    ]
    # The region id names the claim, the same in every annotation.
    assert {r["id"] for r in rita["result"]} == {r["id"] for r in final["result"]}
    (prediction,) = task["predictions"]
    assert prediction["score"] == 0.75 and prediction["model_version"].startswith("0.2.0")
    assert [r.get("score") for r in prediction["result"]] == [0.9, 0.8, None]
    # Every from_name/to_name and label is one the shipped config declares.
    config = ET.fromstring(label_export.LABEL_STUDIO_CONFIG)
    controls = {element.get("name"): element for element in config.iter() if element.get("name")}
    for annotation in [*task["annotations"], prediction]:
        for region in annotation["result"]:
            control = controls[region["from_name"]]
            assert control.get("toName") == region["to_name"]
            assert controls[region["to_name"]].tag == "Text"
            values = region["value"].get("labels") or region["value"]["choices"]
            assert set(values) <= {child.get("value") for child in control}


def test_argilla_records_have_the_shape_record_from_dict_reads(reviewer_client, labelled):
    (record,) = json.loads(export(reviewer_client, "argilla.json"))

    assert set(record) == {"id", "fields", "metadata", "suggestions", "responses", "vectors"}
    assert record["id"] == labelled.name
    assert record["fields"]["answer"] == TEXT
    assert "[1] Café\nLe café est à Paris." in record["fields"]["contexts"]
    users = {r["user_id"] for r in record["responses"]["answer_verdict"]}
    assert len(users) == 2 and users == {r["user_id"] for r in record["responses"]["claims"]}
    for response in record["responses"]["claims"]:
        for span in response["value"]:
            assert set(span) == {"label", "start", "end"}
            assert TEXT[span["start"] : span["end"]] in SENTENCES
    suggestion = record["suggestions"]["claims"]
    assert [s["label"] for s in suggestion["value"]] == [
        "supported",
        "supported",
        "no_check_needed",
    ]
    assert suggestion["score"] is None  # one claim has no score: Argilla takes all or none
    assert [s["label"] for s in record["suggestions"]["final_claims"]["value"]] == [
        "supported",
        "supported",
    ]
    assert record["metadata"]["checker_support_score"] == 0.75
    assert None not in record["metadata"].values()


def test_a_span_off_character_boundaries_keeps_bytes_and_leaves_regions(reviewer_client, reviewer):
    import_documents([make_answer("odd", text="東京です。", citations=[])])
    answer = Answer.objects.get(name__endswith="/odd")
    label = AnswerLabel.objects.create(answer=answer, reviewer=reviewer, verdict="unsupported")
    ClaimLabel.objects.create(
        label=label, start_index=1, end_index=6, claim_text="京", verdict="unsupported"
    )

    (claim,) = json.loads(export(reviewer_client, "jsonl"))["claims"]
    (task,) = json.loads(export(reviewer_client, "label-studio.json"))

    assert (claim["start_byte"], claim["end_byte"]) == (1, 6)
    assert (claim["start_char"], claim["end_char"], claim["text"]) == (None, 2, "京")
    assert [r["type"] for r in task["annotations"][0]["result"]] == ["choices"]


def test_unicode_line_breaks_stay_inside_their_json_line(reviewer_client, reviewer):
    import_documents([make_answer("lb", text="one\u2028two\u2029three\u0085.", citations=[])])
    answer = Answer.objects.get(name__endswith="/lb")
    AnswerLabel.objects.create(answer=answer, reviewer=reviewer, verdict="supported")

    lines = export(reviewer_client, "jsonl").decode().splitlines()
    (task,) = json.loads(export(reviewer_client, "label-studio.json"))

    assert len(lines) == 1
    assert json.loads(lines[0])["answer_text"] == "one\u2028two\u2029three\u0085."
    assert task["data"]["answer"] == "one\u2028two\u2029three\u0085."


def test_management_command_writes_every_format_with_the_same_filters(labelled, tmp_path):
    for kind in label_export.FORMATS:
        path = tmp_path / f"out.{kind}"
        call_command(
            "export_labels", "--format", kind, "--output", str(path), "--state", "SUCCEEDED"
        )
        assert path.stat().st_size > 0
    assert json.loads((tmp_path / "out.jsonl").read_text())["answer_id"] == labelled.pk
    assert len(pd.read_parquet(tmp_path / "out.parquet")) == 1
    assert len(json.loads((tmp_path / "out.label-studio").read_text())) == 1

    out = io.StringIO()
    call_command("export_labels", "--format", "csv", "--label-status", "", stdout=out)
    assert len(pd.read_csv(io.StringIO(out.getvalue()))) == 2


def test_unknown_suffix_is_404_and_anonymous_is_refused(reviewer_client, anon, labelled):
    assert reviewer_client.get("/api/export/labelled-answers.xlsx").status_code == 404
    assert anon.get("/api/export/labelled-answers.jsonl").status_code in (401, 403)


def test_groundview_cli_export_labels_passes_filters_through(labelled, tmp_path, capsys):
    from groundview import cli

    path = tmp_path / "labels.csv"
    assert cli.main(["export-labels", "--format", "csv", "-o", str(path), "--reviewer", "ada"]) == 0
    assert len(pd.read_csv(path)) == 1
    assert cli.main(["export-labels", "--reviewer", "nobody", "-o", str(path)]) == 0
    assert path.read_text() == ""
    assert cli.main(["export-labels", "--score-min", "7"]) == 1
    assert "score_min" in capsys.readouterr().err
