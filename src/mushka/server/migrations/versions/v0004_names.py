"""The seats' names of a finished game in a column of their own, so that the list of
finished games reads a few short columns instead of parsing every game's record.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import context, op

from mushka.server.migrations.ops import add_columns, drop_columns

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``mushka_tables.names`` and fill it from the records of the games already over
    (a record that cannot be read leaves it empty; the server sets such a table aside
    when it is asked for)."""
    add_columns("mushka_tables", sa.Column("names", sa.Text(), nullable=True))
    if context.is_offline_mode():
        return  # printing the schema: no rows to fill
    conn = op.get_bind()
    tables = sa.table("mushka_tables", sa.column("id", sa.String), sa.column("record", sa.Text),
                      sa.column("names", sa.Text), sa.column("status", sa.String))
    rows = conn.execute(sa.select(tables.c.id, tables.c.record).where(tables.c.record.is_not(None))).all()
    for table_id, record in rows:
        try:
            seats = json.loads(record).get("seats", [])
            names = json.dumps([str(s) for s in seats], ensure_ascii=False)
        except (ValueError, TypeError, AttributeError, RecursionError):
            continue
        conn.execute(sa.update(tables).where(tables.c.id == table_id).values(names=names))


def downgrade() -> None:
    """Drop the column (the list of finished games then reads the records again)."""
    drop_columns("mushka_tables", "names")
