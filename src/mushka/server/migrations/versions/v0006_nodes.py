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

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the lease, node and chat tables and the new columns."""
    op.create_table(
        "mushka_leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("mushka_tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_mushka_leases_owner", "mushka_leases", ["owner"])
    op.create_index("ix_mushka_leases_expires_ms", "mushka_leases", ["expires_ms"])
    op.create_table(
        "mushka_nodes",
        sa.Column("instance", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("port", sa.Integer(), nullable=True),
        sa.Column("started_ms", sa.BigInteger(), nullable=False),
        sa.Column("seen_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_mushka_nodes_name", "mushka_nodes", ["name"])
    op.create_table(
        "mushka_chat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("mushka_tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("data", sa.Text(), nullable=False),
    )
    with op.batch_alter_table("mushka_tables") as batch:
        batch.add_column(sa.Column("next_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("address", sa.String(64), nullable=True))
        batch.add_column(sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("mushka_moves") as batch:
        batch.add_column(sa.Column("at_ms", sa.BigInteger(), nullable=True))
    # The tables of a single server of before: released, claimed by the first process up.
    # joined_at: they were made before anybody counted, so they count as joined.
    op.execute("INSERT INTO mushka_leases (table_id, owner, epoch, expires_ms) "
               "SELECT id, '', 0, 0 FROM mushka_tables WHERE status IN ('waiting', 'playing')")
    op.execute("UPDATE mushka_tables SET joined_at = created_at")


def downgrade() -> None:
    """Back to one process per database."""
    with op.batch_alter_table("mushka_moves") as batch:
        batch.drop_column("at_ms")
    with op.batch_alter_table("mushka_tables") as batch:
        batch.drop_column("joined_at")
        batch.drop_column("address")
        batch.drop_column("next_id")
    op.drop_table("mushka_chat")
    op.drop_index("ix_mushka_nodes_name", "mushka_nodes")
    op.drop_table("mushka_nodes")
    op.drop_index("ix_mushka_leases_expires_ms", "mushka_leases")
    op.drop_index("ix_mushka_leases_owner", "mushka_leases")
    op.drop_table("mushka_leases")
