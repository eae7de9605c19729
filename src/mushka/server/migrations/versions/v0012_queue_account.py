"""The account of a person waiting in the quick match's queue, so that the seat he is given is
his account's (P18), whichever process makes the table.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``mushka_queue.account_id``."""
    with op.batch_alter_table("mushka_queue") as batch:
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drop it again."""
    with op.batch_alter_table("mushka_queue") as batch:
        batch.drop_column("account_id")
