"""The turn timer of a table (P15): seconds per move, kept with the table so that a
restart keeps it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa

from mushka.server.migrations.ops import add_columns, drop_columns

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``mushka_tables.turn_seconds`` (null for the tables made before: no timer)."""
    add_columns("mushka_tables", sa.Column("turn_seconds", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Drop the column (every table then plays without a timer)."""
    drop_columns("mushka_tables", "turn_seconds")
