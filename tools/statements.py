"""The SQL statements a store's engine runs while a block runs, for the tests and benchmarks that count a request's
statements (the driver-level reads of `store.engine.Database.read` tell the same listeners)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from sqlalchemy import Engine, event

TRANSACTION = ("BEGIN", "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK")  # a transaction's own, not counted


@contextlib.contextmanager
def statements(engine: Engine) -> Iterator[list[tuple[str, object]]]:
    """The statements the engine runs meanwhile, each with its parameters, in order."""
    seen: list[tuple[str, object]] = []

    def note(connection, cursor, statement, parameters, context, executemany) -> None:  # noqa: ANN001
        if statement not in TRANSACTION:
            seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)
