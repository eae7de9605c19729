"""One row per deal, so that a save writes only the deals that changed.

Revision ID: 0002
Revises: 0001
Create Date: 2025-02-01
"""

from __future__ import annotations

import sqlalchemy as sa

from mushka.server.migrations.ops import add_columns, create_table, drop_columns, drop_table, table_row

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``mushka_deals`` and the first dealer of each table.

    Tables stored before keep their whole record in ``mushka_tables.record``;
    the server reads it when a table has no deal rows yet.
    """
    create_table(
        "mushka_deals",
        table_row(primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("data", sa.Text(), nullable=False),
    )
    add_columns("mushka_tables", sa.Column("first_dealer", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Drop them again (games in progress then lose their deals since the upgrade)."""
    drop_columns("mushka_tables", "first_dealer")
    drop_table("mushka_deals")
