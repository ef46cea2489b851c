"""Import never crashes: every malformed input is a per-record error, and good records still import."""

import json
import threading

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundview.answers import importing
from groundview.answers.exporting import answer_jsonl
from groundview.answers.models import Answer, Reference, Session

SESSION = "projects/1/locations/global/collections/default_collection/engines/e/sessions/s1"
NAME = f"{SESSION}/answers/a1"


def good(name=NAME, **fields):
    return {
        "name": name,
        "state": "SUCCEEDED",
        "answerText": "Paris is the capital of France.",
        "references": [{"chunkInfo": {"content": "Paris is the capital of France."}}],
        "citations": [{"startIndex": "0", "endIndex": "31", "sources": [{"referenceId": "0"}]}],
        **fields,
    }


def line_of(document_text):
    """A JSONL file: a good record, the hostile one on line 2, and another good record."""
    return "\n".join(
        [json.dumps(good(NAME + "-before")), document_text, json.dumps(good(NAME + "-after"))]
    )


DEEP = '{"name": "' + NAME + '", "x": ' + "[" * 10_000 + "]" * 10_000 + "}"
BIG_INT = '{"name": "' + NAME + '", "citations": [{"startIndex": ' + "9" * 5000 + "}]}"
HOSTILE = [
    # (line 2 of the file, expected problem)
    (
        json.dumps(good(relatedQuestions=["ok", "\ud800 lone"])),
        f"line 2 ({NAME}): relatedQuestions[1]: is not valid Unicode (it has a lone surrogate)",
    ),
    (
        json.dumps(good(references=[{"chunkInfo": {"content": "x", "title\udfff": 1}}])),
        f"line 2 ({NAME}): references[0].chunkInfo: has a key that is not valid Unicode "
        "(it has a lone surrogate)",
    ),
    (
        json.dumps(good(name=NAME + "\udc80")),
        "line 2: name: is not valid Unicode (it has a lone surrogate)",
    ),
    (DEEP, "line 2: malformed JSON: nested too deeply to read"),
    (
        json.dumps(good()).replace('"state"', '"answerText": "Rome.", "state"'),
        f"line 2 ({NAME}): gives the key 'answerText' twice",
    ),
    (
        '{"name": "' + NAME + '", "x": ' + "[" * 150 + "]" * 150 + "}",
        f"line 2 ({NAME}): x" + "[0]" * 100 + ": is nested more than 100 levels deep",
    ),
    (
        BIG_INT,
        f"line 2 ({NAME}): citations[0].startIndex: 999999999999…(5000 chars) "
        "is too large an integer (at most 64 bits)",
    ),
    (
        # 21 digits: refused unread, as the Check Grounding route refuses it (one MAX_INT_DIGITS).
        json.dumps(good(extra={"n": 1})).replace('"n": 1', '"n": -100000000000000000000'),
        f"line 2 ({NAME}): extra.n: -100000000000000000000 is too large an integer (at most 64 bits)",
    ),
    (
        json.dumps(good(groundingScore=0.5)).replace("0.5", "NaN"),
        f"line 2 ({NAME}): groundingScore: NaN is not JSON: JSON has no NaN or Infinity",
    ),
    (
        json.dumps(good(extra={"v": 1})).replace('"v": 1', '"v": -Infinity'),
        f"line 2 ({NAME}): extra.v: -Infinity is not JSON: JSON has no NaN or Infinity",
    ),
    (
        json.dumps(good(groundingScore=0.5)).replace("0.5", "1e400"),
        f"line 2 ({NAME}): groundingScore: 1e400 is out of range for a number "
        "(the largest is about 1.8e308)",
    ),
    (
        json.dumps(good(groundingScore="Infinity")),
        f"line 2 ({NAME}): groundingScore: must be a finite number, not Infinity",
    ),
    (
        json.dumps(good(state="S" * 65)),
        f"line 2 ({NAME}): state: is 65 characters long; at most 64 can be stored",
    ),
    (
        json.dumps(good(name="n" * 1100)),
        f"line 2 ({'n' * 1100}): name: is 1100 characters long; at most 1024 can be stored",
    ),
    (
        json.dumps(good(name=SESSION + "/answers/" + "東" * 900), ensure_ascii=False),
        f"line 2 ({SESSION}/answers/{'東' * 900}): name: is {len(SESSION) + 9 + 2700} bytes in UTF-8; "
        "at most 2048 can be indexed",
    ),
    (
        json.dumps(
            good(references=[{"unstructuredDocumentInfo": {"uri": "https://x.org/" + "a" * 3000}}])
        ),
        f"line 2 ({NAME}): references[0].unstructuredDocumentInfo.uri: is 3014 characters long; "
        "at most 2048 can be stored",
    ),
    (
        json.dumps({"answer": good(), "session": {"name": SESSION, "userPseudoId": "u" * 1025}}),
        f"line 2 ({NAME}): session.userPseudoId: is 1025 characters long; at most 1024 can be "
        "stored",
    ),
    (
        json.dumps(good(createTime="9999-12-31T23:59:59-23:59")),
        f"line 2 ({NAME}): createTime: is not a valid timestamp: date value out of range",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("line", "problem"), HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_record_is_a_problem_and_its_neighbours_import(line, problem):
    result = importing.import_text(line_of(line))

    assert [str(p) for p in result.problems] == [problem]
    assert sorted(Answer.objects.values_list("name", flat=True)) == [
        NAME + "-after",
        NAME + "-before",
    ]


@pytest.mark.django_db
def test_command_lists_hostile_records_and_exits_non_zero(tmp_path, capsys):
    path = tmp_path / "hostile.jsonl"
    path.write_text(line_of(BIG_INT) + "\n" + DEEP + "\n", encoding="utf-8")

    with pytest.raises(CommandError) as raised:
        call_command("import_answers", str(path))

    assert raised.value.returncode == 1
    out, err = capsys.readouterr()
    assert f"{path}: 2 imported (2 new, 0 updated, 0 unchanged), 2 rejected" in out
    assert f"{path}: line 2 ({NAME}): citations[0].startIndex: 999999999999…" in err
    assert f"{path}: line 4: malformed JSON: nested too deeply to read" in err


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["", "\n\n", "[]"])
def test_an_input_with_no_records_is_a_failure_not_a_silent_success(tmp_path, text):
    path = tmp_path / "empty.jsonl"
    path.write_text(text, encoding="utf-8")

    with pytest.raises(CommandError, match="nothing to import") as raised:
        call_command("import_answers", str(path))

    assert raised.value.returncode == 1


# -- line breaks inside strings -----------------------------------------------------------------

BREAKS = "one\u2028two\u2029three\u0085four\x0bfive\x1cend"


@pytest.mark.django_db
def test_jsonl_splits_on_newline_only_so_unicode_line_breaks_stay_in_their_string():
    first = good(NAME + "-1", answerText=BREAKS, citations=[])
    second = good(NAME + "-2")
    text = json.dumps(first, ensure_ascii=False) + "\n" + json.dumps(second, ensure_ascii=False)
    assert len(text.splitlines()) > 2  # what the old reader split it into

    result = importing.import_text(text)

    assert result.problems == []
    assert Answer.objects.get(name=NAME + "-1").answer_text == BREAKS


@pytest.mark.django_db
def test_export_escapes_the_line_breaks_json_allows_so_any_reader_splits_lines_correctly():
    importing.import_text(json.dumps(good(answerText=BREAKS, citations=[]), ensure_ascii=False))

    lines = list(answer_jsonl(Answer.objects.all()))

    assert len(lines) == 1
    assert lines[0].count("\n") == 1 and len(lines[0].splitlines()) == 1
    assert "\\u2028" in lines[0] and "\\u2029" in lines[0] and "\\u0085" in lines[0]
    assert json.loads(lines[0])["answerText"] == BREAKS
    # Re-importing the export is lossless and changes nothing.
    again = importing.import_text("".join(lines))
    assert (again.unchanged, again.problems) == (1, [])


# -- concurrency --------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_concurrent_imports_of_the_same_new_file_neither_fail_nor_duplicate():
    session = {
        "name": SESSION,
        "turns": [{"query": {"text": f"q{i}"}, "answer": f"{NAME}-{i}"} for i in range(5)],
    }
    text = "\n".join(
        json.dumps({"answer": good(f"{NAME}-{i}"), "session": session}) for i in range(5)
    )
    results, errors = [], []
    start = threading.Barrier(8)

    def run():
        try:
            start.wait()
            results.append(importing.import_text(text))
        except Exception as error:  # noqa: BLE001 - the test reports any failure
            errors.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert [r.problems for r in results] == [[]] * 8
    assert sum(r.created for r in results) == 5
    assert sum(r.imported for r in results) == 40
    assert Answer.objects.count() == 5
    assert Session.objects.count() == 1
    assert Reference.objects.count() == 5


# -- fuzzing ------------------------------------------------------------------------------------

hostile_strings = st.sampled_from(
    ["\ud800", "a\udfffb", "\x00", "x" * 3000, "東" * 1100, "\u2028\u0085", "NaN", "-1", "1e400"]
) | st.text(max_size=20)
hostile_numbers = st.sampled_from(
    ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "9" * 5000, "-" + "9" * 30, "1.5", "-0"]
)
json_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70).map(str),
    hostile_numbers,
    hostile_strings.map(lambda s: json.dumps(s)),
)


def json_text(children):
    return st.one_of(
        st.lists(children, max_size=4).map(lambda items: "[" + ",".join(items) + "]"),
        st.dictionaries(
            st.sampled_from(list(good()) + ["answer", "session", "turns", "sources", "x"])
            | hostile_strings,
            children,
            max_size=4,
        ).map(lambda d: "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in d.items()) + "}"),
    )


hostile_values = st.recursive(
    json_leaves.map(lambda v: v if isinstance(v, str) else json.dumps(v)), json_text, max_leaves=12
)
FIELDS = [
    "name",
    "state",
    "answerText",
    "groundingScore",
    "citations",
    "references",
    "relatedQuestions",
    "createTime",
    "steps",
    "safetyRatings",
    "answer_text",
    "grounding_supports",
]


@st.composite
def hostile_records(draw):
    """A good answer with some fields replaced by hostile JSON text, or hostile JSON alone."""
    if draw(st.booleans()):
        return draw(hostile_values)
    document = {key: json.dumps(value) for key, value in good(f"{NAME}-fuzz").items()}
    for key in draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=3)):
        document[key] = draw(hostile_values)
    depth = draw(st.sampled_from([0, 0, 0, 120, 2000]))
    text = "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in document.items()) + "}"
    if depth:
        text = text[:-1] + ',"deep":' + "[" * depth + "]" * depth + "}"
    return text


@pytest.mark.django_db
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records=st.lists(hostile_records(), min_size=1, max_size=3))
def test_hostile_json_never_raises_and_the_good_record_after_it_imports(records):
    Answer.objects.all().delete()
    text = "\n".join([*records, json.dumps(good(NAME + "-last"))])

    result = importing.import_text(text)

    assert Answer.objects.filter(name=NAME + "-last").exists()
    assert result.imported + result.rejected >= 1
    for problem in result.problems:
        assert problem.record.startswith(("line ", "record", "item "))


@pytest.mark.django_db
def test_a_key_given_twice_refuses_its_record_alone():
    twice = json.dumps(good(NAME + "-twice"), indent=2).replace(
        '"state"', '"answerText": "Rome.",\n  "state"'
    )
    pretty = importing.import_text(twice)
    array = importing.import_text(f"[{json.dumps(good())}, {twice}]")

    # A pretty-printed document is one record, not one per line
    assert [str(p) for p in pretty.problems] == [
        f"record ({NAME}-twice): gives the key 'answerText' twice"
    ]
    # and in an array, the other items still import
    assert [str(p) for p in array.problems] == [
        f"item 1 ({NAME}-twice): gives the key 'answerText' twice"
    ]
    assert list(Answer.objects.values_list("name", flat=True)) == [NAME]
