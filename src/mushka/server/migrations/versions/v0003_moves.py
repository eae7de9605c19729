"""The journal of moves: one row per action, appended, so that an action costs one small insert.

Revision ID: 0003
Revises: 0002
Create Date: 2025-02-08
"""

from __future__ import annotations

import sqlalchemy as sa

from mushka.server.migrations.ops import create_table, drop_table, table_row

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``mushka_moves``.

    Deal rows stored before keep their actions; moves appended from now on
    follow them when a table is loaded.
    """
    create_table(
        "mushka_moves",
        table_row(primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("picks", sa.Text(), nullable=True),
    )


def downgrade() -> None:
    """Drop the journal (games in progress then lose the actions of their current deals)."""
    drop_table("mushka_moves")
