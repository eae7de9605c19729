"""The quick match's queue: people waiting to be seated together, in the shared store so that
every process of a server sees the same queue.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa

from mushka.server.migrations.ops import create_table, drop_table

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``mushka_queue``."""
    create_table(
        "mushka_queue",
        sa.Column("ticket", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("group_id", sa.String(32), nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("url", sa.String(160), nullable=True),
        sa.Column("node", sa.String(64), nullable=True),
        indexes=("created_ms", "group_id"),
    )


def downgrade() -> None:
    """Drop it."""
    drop_table("mushka_queue", ("created_ms", "group_id"))
