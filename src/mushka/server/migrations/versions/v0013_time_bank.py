"""P15's time bank: every seat's bank for the whole game (a chess clock's), and what is left of
each, kept with the table so that a restart or a failover keeps them.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa

from mushka.server.migrations.ops import add_columns, drop_columns

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``mushka_tables.bank_seconds`` and ``mushka_tables.banks`` (null for the tables made
    before: no bank)."""
    add_columns("mushka_tables", sa.Column("bank_seconds", sa.Integer(), nullable=True),
                sa.Column("banks", sa.Text(), nullable=True))


def downgrade() -> None:
    """Drop them (every table then plays without a bank)."""
    drop_columns("mushka_tables", "banks", "bank_seconds")
