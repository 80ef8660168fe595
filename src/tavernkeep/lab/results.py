"""The results file: every game of a simulation as one row of a Parquet file.

Rows reach the writer a block at a time, in whatever order the workers finish; the
writer puts the blocks back in game order and cuts them into row groups of a fixed size,
so the same seed and game count give the same file byte for byte, whether one worker,
two or a Ray cluster played the games. The file is written beside its destination and
renamed into place at the end: a run that fails or is interrupted leaves no half file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from tavernkeep.engine.errors import TavernkeepError
from tavernkeep.engine.records import destination_problem

ROW_GROUP = 65_536
"""Rows a row group: large enough to compress well, small enough to stream."""
FORMAT = "tavernkeep results 1"
META_KEY = b"tavernkeep"
REQUIRED = (
    "game",
    "game_index",
    "seats",
    "win_share",
    "won",
    "turns",
    "ending",
)


class ResultsError(TavernkeepError):
    """A results file that is missing, unreadable or not written by `simulate --out`."""


def check_destination(path: Path) -> None:
    """Fail before any game is played if the file could not be written."""
    if path.is_dir():
        raise ResultsError(f"{path}: is a folder; --out takes a file name")
    if not path.parent.is_dir():
        raise ResultsError(f"{path}: no such folder '{path.parent}'")
    if path.suffix.lower() != ".parquet":
        raise ResultsError(f"{path}: results are written as Parquet: name the file *.parquet")
    problem = destination_problem(path)
    if problem is not None:
        raise ResultsError(f"{path}: cannot write the results there: {problem}")


class RowWriter:
    """Writes numbered blocks of rows to one Parquet file in block-number order."""

    def __init__(self, path: str | Path, meta: dict[str, Any]) -> None:
        self.path = Path(path)
        check_destination(self.path)
        self.temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.part")
        self.meta = dict(meta, format=FORMAT)
        self.pending: dict[int, pa.Table] = {}
        self.next = 0
        self.buffer: list[pa.Table] = []
        self.buffered = 0
        self.writer: pq.ParquetWriter | None = None
        self.rows = 0

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if kind is None:
            self.close()
        else:
            self.abort()

    def add(self, number: int, table: pa.Table) -> None:
        self.pending[number] = table
        while self.next in self.pending:
            self._push(self.pending.pop(self.next))
            self.next += 1

    def _push(self, table: pa.Table) -> None:
        self.buffer.append(table)
        self.buffered += table.num_rows
        if self.buffered >= ROW_GROUP:
            self._flush(final=False)

    def _flush(self, final: bool) -> None:
        if not self.buffer:
            return
        combined = pa.concat_tables(self.buffer)
        whole = len(combined) if final else len(combined) - len(combined) % ROW_GROUP
        for start in range(0, whole, ROW_GROUP):
            group = combined.slice(start, min(ROW_GROUP, whole - start)).combine_chunks()
            self._write(group)
        rest = combined.slice(whole)
        self.buffer = [rest] if len(rest) else []
        self.buffered = len(rest)

    def _write(self, group: pa.Table) -> None:
        if self.writer is None:
            schema = group.schema.with_metadata({META_KEY: json.dumps(self.meta).encode()})
            self.writer = pq.ParquetWriter(self.temp, schema, compression="zstd")
        self.writer.write_table(group.replace_schema_metadata(self.writer.schema.metadata))
        self.rows += len(group)

    def close(self) -> None:
        self._flush(final=True)
        if self.pending:
            raise RuntimeError(f"blocks {sorted(self.pending)} never followed block {self.next}")
        if self.writer is not None:
            self.writer.close()
            os.replace(self.temp, self.path)

    def abort(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.temp.unlink(missing_ok=True)


def read_results(
    path: str | Path, columns: Callable[[list[str]], list[str]] | None = None
) -> tuple[pa.Table, dict[str, Any]]:
    """The rows and the run's description from a results file, or one clear error."""
    path = Path(path)
    if not path.exists():
        raise ResultsError(f"{path}: no such results file")
    if path.is_dir():
        raise ResultsError(f"{path}: is a folder; give the .parquet file simulate --out wrote")
    try:
        file = pq.ParquetFile(path)
        raw = (file.schema_arrow.metadata or {}).get(META_KEY)
    except (pa.ArrowException, OSError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ResultsError(f"{path}: not a readable Parquet file ({first})") from None
    if raw is None:
        raise ResultsError(f"{path}: a Parquet file, but not results written by simulate --out")
    try:
        meta = json.loads(raw)
    except ValueError:
        raise ResultsError(f"{path}: its tavernkeep description is not valid JSON") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ResultsError(f"{path}: results in a format this version does not read")
    names = file.schema_arrow.names
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        raise ResultsError(f"{path}: results without the column(s) {', '.join(missing)}")
    chosen = columns(names) if columns else names
    # Text read as dictionaries: a million games name a handful of endings and cards.
    text = [
        file.schema.column(i).path
        for i in range(len(file.schema))
        if file.schema.column(i).path.split(".")[0] in chosen
        and file.schema.column(i).physical_type == "BYTE_ARRAY"
    ]
    try:
        table = pq.read_table(path, columns=chosen, read_dictionary=text)
    except (pa.ArrowException, OSError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ResultsError(f"{path}: the rows cannot be read ({first})") from None
    if table.num_rows == 0:
        raise ResultsError(f"{path}: holds no games")
    return table, meta
