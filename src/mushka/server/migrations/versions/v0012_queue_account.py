"""The account of a person waiting in the quick match's queue, so that the seat he is given is
his account's (P18), whichever process makes the table.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa

from mushka.server.migrations.ops import add_columns, drop_columns

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``mushka_queue.account_id``."""
    add_columns("mushka_queue", sa.Column("account_id", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drop it again."""
    drop_columns("mushka_queue", "account_id")
