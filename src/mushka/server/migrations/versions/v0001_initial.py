"""The first schema: tables and their seats.

Revision ID: 0001
Revises:
Create Date: 2025-01-31
"""

from __future__ import annotations

import sqlalchemy as sa

from mushka.server.migrations.ops import create_table, drop_table, table_row

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``mushka_tables`` and ``mushka_seats``."""
    create_table(
        "mushka_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("title", sa.String(64), nullable=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("host", sa.Integer(), nullable=True),
        sa.Column("autostart", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("record", sa.Text(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        indexes=("status", "finished_at"),
    )
    create_table(
        "mushka_seats",
        table_row(primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )


def downgrade() -> None:
    """Drop both tables."""
    drop_table("mushka_seats")
    drop_table("mushka_tables", ("status", "finished_at"))
