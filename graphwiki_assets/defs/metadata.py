"""Dagster table metadata from a DataFrame: one way to show a table in the UI.

The schema's column types come from the frame's dtypes; a column of Python objects (rows
built from Cypher maps or result dicts, where an int column may hold a None) is typed by
what its values are. Cells become what a ``TableRecord`` can hold: missing values (None,
NaN, NaT) become None, lists a comma-separated text, anything else that is not a string its
JSON or text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import dagster as dg
import pandas as pd
from pandas.api import types as ptypes

# what pandas' infer_dtype says of a column of objects -> the Dagster column type
_INFERRED = {
    "integer": "int",
    "floating": "float",
    "mixed-integer-float": "float",
    "decimal": "float",
    "boolean": "bool",
}


def column_type(column: pd.Series) -> str:
    dtype = column.dtype
    if ptypes.is_bool_dtype(dtype):
        return "bool"
    if ptypes.is_integer_dtype(dtype):
        return "int"
    if ptypes.is_float_dtype(dtype):
        return "float"
    if ptypes.is_datetime64_any_dtype(dtype):
        return "datetime"
    if ptypes.is_object_dtype(dtype):
        return _INFERRED.get(ptypes.infer_dtype(column, skipna=True), "string")
    return "string"


def _text(value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return json.dumps(value, default=str) if isinstance(value, dict) else str(value)


_CAST = {"int": int, "float": float, "bool": bool}


def _cells(column: pd.Series, kind: str) -> list:
    cast = _CAST.get(kind, _text)
    present = column.notna()  # a list in a cell is present: notna looks at each cell as one value
    return [cast(v) if ok else None for v, ok in zip(column.tolist(), present.tolist())]


def table_metadata(frame: pd.DataFrame, empty: str | None = None) -> dg.TableMetadataValue | dg.TextMetadataValue:
    """``frame`` as a table; ``empty`` (when given) is shown as text instead of a table of no
    rows, which the UI renders as a lone header."""
    if frame.empty and empty is not None:
        return dg.MetadataValue.text(empty)
    names = [str(c) for c in frame.columns]
    kinds = [column_type(frame.iloc[:, i]) for i in range(frame.shape[1])]
    cells = [_cells(frame.iloc[:, i], kind) for i, kind in enumerate(kinds)]
    records = [dg.TableRecord(dict(zip(names, row))) for row in zip(*cells)] if names else []
    schema = dg.TableSchema(columns=[dg.TableColumn(name, kind) for name, kind in zip(names, kinds)])
    return dg.MetadataValue.table(records=records, schema=schema)


def rows_table(
    rows: Sequence[dict], columns: Sequence[str], empty: str | None = None
) -> dg.TableMetadataValue | dg.TextMetadataValue:
    """Result dicts as a table of the given columns (a key a row lacks is a missing cell).
    The rows keep their Python values (object columns), so an int column with a None in it
    stays int rather than becoming float with NaN."""
    return table_metadata(pd.DataFrame(list(rows), columns=list(columns), dtype=object), empty)
