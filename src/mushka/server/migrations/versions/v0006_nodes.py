"""Several server processes on one database: the table leases, the nodes, the stored chat,
the rematch link, the creating address, when a person first came, when a move was stored.

Every table that waits or plays gets a released lease (no owner, expired), so that the
first process to start after the upgrade claims it.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from mushka.server.migrations.ops import add_columns, create_table, drop_columns, drop_table, table_row

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the lease, node and chat tables and the new columns."""
    create_table(
        "mushka_leases",
        table_row(primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        indexes=("owner", "expires_ms"),
    )
    create_table(
        "mushka_nodes",
        sa.Column("instance", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("port", sa.Integer(), nullable=True),
        sa.Column("started_ms", sa.BigInteger(), nullable=False),
        sa.Column("seen_ms", sa.BigInteger(), nullable=False),
        indexes=("name",),
    )
    create_table(
        "mushka_chat",
        table_row(primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("data", sa.Text(), nullable=False),
    )
    add_columns("mushka_tables", sa.Column("next_id", sa.String(32), nullable=True),
                sa.Column("address", sa.String(64), nullable=True),
                sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True))
    add_columns("mushka_moves", sa.Column("at_ms", sa.BigInteger(), nullable=True))
    # The tables of a single server of before: released, claimed by the first process up.
    # joined_at: they were made before anybody counted, so they count as joined.
    op.execute("INSERT INTO mushka_leases (table_id, owner, epoch, expires_ms) "
               "SELECT id, '', 0, 0 FROM mushka_tables WHERE status IN ('waiting', 'playing')")
    op.execute("UPDATE mushka_tables SET joined_at = created_at")


def downgrade() -> None:
    """Back to one process per database."""
    drop_columns("mushka_moves", "at_ms")
    drop_columns("mushka_tables", "joined_at", "address", "next_id")
    drop_table("mushka_chat")
    drop_table("mushka_nodes", ("name",))
    drop_table("mushka_leases", ("owner", "expires_ms"))
