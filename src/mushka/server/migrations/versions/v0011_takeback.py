"""Taking back a card (P21): whether a table's creator let the players take back their last card
although other people play, kept with the table so that a restart or another process keeps it.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa

from mushka.server.migrations.ops import add_columns, drop_columns

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``mushka_tables.takeback`` (null for the tables made before: not allowed)."""
    add_columns("mushka_tables", sa.Column("takeback", sa.Boolean(), nullable=True))


def downgrade() -> None:
    """Drop the column (every table then keeps every card played, except against bots)."""
    drop_columns("mushka_tables", "takeback")
