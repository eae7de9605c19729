"""The steps the migrations repeat: a table with its indexes, a reference to a parent row,
columns added to or dropped from a table.

Every migration that uses a helper here depends on what it makes, so a helper
never changes what it makes (a new need gets a new helper).  An index is always
named ``ix_<table>_<column>`` and covers that one column.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

ACCOUNTS = "mushka_accounts.id"
"""The id of an account, which other rows refer to."""


def reference(name: str, parent: str, **column: Any) -> sa.Column[Any]:
    """Column ``name`` holding the id (32 characters) of a row of ``parent`` (``table.id``); the
    row goes with its parent (``ON DELETE CASCADE``)."""
    return sa.Column(name, sa.String(32), sa.ForeignKey(parent, ondelete="CASCADE"), **column)


def table_row(**column: Any) -> sa.Column[Any]:
    """``table_id``: a reference to a row of ``mushka_tables``."""
    return reference("table_id", "mushka_tables.id", **column)


def create_table(name: str, *columns: sa.Column[Any], indexes: tuple[str, ...] = ()) -> None:
    """Create table ``name`` of ``columns``, then an index on each column of ``indexes`` (in order)."""
    op.create_table(name, *columns)
    for column in indexes:
        op.create_index(f"ix_{name}_{column}", name, [column])


def drop_table(name: str, indexes: tuple[str, ...] = ()) -> None:
    """Undo :func:`create_table`: drop the indexes on ``indexes`` (last first), then the table."""
    for column in reversed(indexes):
        op.drop_index(f"ix_{name}_{column}", table_name=name)
    op.drop_table(name)


def add_columns(table: str, *columns: sa.Column[Any]) -> None:
    """Add ``columns`` to ``table`` (in batch mode, which SQLite needs to alter a table)."""
    with op.batch_alter_table(table) as batch:
        for column in columns:
            batch.add_column(column)


def drop_columns(table: str, *names: str) -> None:
    """Drop the columns ``names`` of ``table`` (in this order, in batch mode)."""
    with op.batch_alter_table(table) as batch:
        for name in names:
            batch.drop_column(name)
