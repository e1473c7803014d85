"""Dagster table metadata from DataFrames: the schema follows the dtypes, cells are values a
TableRecord holds, a missing value is None, and an empty frame is a table of no rows (or the
text asked for)."""

import math

import dagster as dg
import numpy as np
import pandas as pd
import pytest

from graphwiki_assets.defs.metadata import column_type, rows_table, table_metadata


def _schema(value: dg.TableMetadataValue) -> dict[str, str]:
    return {c.name: c.type for c in value.schema.columns}


def test_column_types_come_from_the_dtypes():
    frame = pd.DataFrame(
        {
            "name": ["a", "b"],
            "n": np.array([1, 2], dtype="int64"),
            "f1": [0.5, 1.0],
            "ok": [True, False],
            "at": pd.to_datetime(["2026-01-02", "2026-03-04"]),
            "maybe": pd.array([1, None], dtype="Int64"),
        }
    )

    value = table_metadata(frame)

    assert _schema(value) == {
        "name": "string",
        "n": "int",
        "f1": "float",
        "ok": "bool",
        "at": "datetime",
        "maybe": "int",
    }
    assert [c.name for c in value.schema.columns] == list(frame.columns)  # the frame's column order


def test_records_hold_plain_python_values_that_dagster_serialises():
    frame = pd.DataFrame({"n": np.array([3], dtype="int64"), "f1": np.array([0.25]), "ok": np.array([True])})

    [record] = table_metadata(frame).records

    assert record.data == {"n": 3, "f1": 0.25, "ok": True}
    assert [type(v) for v in record.data.values()] == [int, float, bool]
    dg.serialize_value(table_metadata(frame))  # numpy scalars would not serialise


def test_missing_values_become_none_whatever_their_kind():
    frame = pd.DataFrame(
        {
            "f": [1.5, np.nan],
            "s": ["x", None],
            "i": pd.array([None, 2], dtype="Int64"),
            "t": pd.to_datetime(["2026-01-02", None]),
        }
    )

    first, second = (r.data for r in table_metadata(frame).records)

    assert second["f"] is None and second["s"] is None and first["i"] is None and second["t"] is None
    assert first["f"] == 1.5 and second["i"] == 2 and first["t"] == "2026-01-02T00:00:00"
    assert not any(isinstance(v, float) and math.isnan(v) for r in (first, second) for v in r.values())


def test_a_column_of_python_objects_is_typed_by_its_values():
    # result dicts: an int column with a None stays int, lists and dicts become text
    value = rows_table(
        [
            {"id": "a", "count": 1, "paths": ["x.md", "y.md"], "extra": {"k": 1}, "mixed": 1},
            {"id": "b", "count": None, "paths": [], "mixed": "two"},
        ],
        ["id", "count", "paths", "extra", "mixed"],
    )

    assert _schema(value) == {"id": "string", "count": "int", "paths": "string", "extra": "string", "mixed": "string"}
    first, second = (r.data for r in value.records)
    assert first == {"id": "a", "count": 1, "paths": "x.md, y.md", "extra": '{"k": 1}', "mixed": "1"}
    assert second == {"id": "b", "count": None, "paths": "", "extra": None, "mixed": "two"}


@pytest.mark.parametrize(
    ("values", "expected"),
    [([1, 2.5], "float"), ([True, None], "bool"), ([None, None], "string"), ([1, True], "string")],
)
def test_object_columns_mixing_kinds(values, expected):
    assert column_type(pd.Series(values, dtype=object)) == expected


def test_an_empty_frame_is_a_table_of_no_rows_with_its_schema():
    frame = pd.DataFrame({"n": pd.Series([], dtype="int64"), "name": pd.Series([], dtype=object)})

    value = table_metadata(frame)

    assert isinstance(value, dg.TableMetadataValue)
    assert value.records == [] and _schema(value) == {"n": "int", "name": "string"}


def test_an_empty_frame_can_say_so_in_words_instead():
    value = rows_table([], ["path", "reason"], empty="none skipped")

    assert isinstance(value, dg.TextMetadataValue) and value.value == "none skipped"
    assert isinstance(table_metadata(pd.DataFrame({"a": [1]}), empty="none"), dg.TableMetadataValue)
