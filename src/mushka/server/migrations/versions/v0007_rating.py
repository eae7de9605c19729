"""How an ended game counts for the ratings, decided by its table: rated or not (bots only, a
tutorial, left at once), and who lost by forfeit.

Games stored before it have none: they count as before, except tables of bots only.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa

from mushka.server.migrations.ops import add_columns, drop_columns

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``mushka_tables.rating``."""
    add_columns("mushka_tables", sa.Column("rating", sa.Text(), nullable=True))


def downgrade() -> None:
    """Drop it again."""
    drop_columns("mushka_tables", "rating")
