"""Friends, friend links, mutes and blocks, reported chat lines, presence and notices (see
``docs/friends.md``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _account(name: str, *, primary_key: bool = False) -> sa.Column[str]:
    return sa.Column(name, sa.String(32), sa.ForeignKey("mushka_accounts.id", ondelete="CASCADE"),
                     nullable=False, primary_key=primary_key)


def upgrade() -> None:
    """Add the social tables."""
    op.create_table(
        "mushka_friends",
        _account("from_id", primary_key=True),
        _account("to_id", primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_mushka_friends_to_id", "mushka_friends", ["to_id"])
    op.create_table(
        "mushka_friend_codes",
        _account("account_id", primary_key=True),
        sa.Column("code", sa.String(32), nullable=False, unique=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )
    op.create_table(
        "mushka_hides",
        _account("owner_id", primary_key=True),
        _account("target_id", primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_mushka_hides_target_id", "mushka_hides", ["target_id"])
    op.create_table(
        "mushka_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("line_at", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("speaker", sa.String(64), nullable=False),
        sa.Column("speaker_id", sa.String(32), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("reporter_id", sa.String(32), nullable=True),
        sa.Column("reporter_address", sa.String(64), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_mushka_reports_table_id", "mushka_reports", ["table_id"])
    op.create_index("ix_mushka_reports_speaker_id", "mushka_reports", ["speaker_id"])
    op.create_index("ix_mushka_reports_created_ms", "mushka_reports", ["created_ms"])
    op.create_table(
        "mushka_presence",
        _account("account_id", primary_key=True),
        sa.Column("node", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seen_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_mushka_presence_seen_ms", "mushka_presence", ["seen_ms"])
    op.create_table(
        "mushka_notices",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _account("to_id"),
        _account("from_id"),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("seen", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_mushka_notices_to_id", "mushka_notices", ["to_id"])
    op.create_index("ix_mushka_notices_created_ms", "mushka_notices", ["created_ms"])


def downgrade() -> None:
    """Drop them again."""
    op.drop_index("ix_mushka_notices_created_ms", table_name="mushka_notices")
    op.drop_index("ix_mushka_notices_to_id", table_name="mushka_notices")
    op.drop_table("mushka_notices")
    op.drop_index("ix_mushka_presence_seen_ms", table_name="mushka_presence")
    op.drop_table("mushka_presence")
    op.drop_index("ix_mushka_reports_created_ms", table_name="mushka_reports")
    op.drop_index("ix_mushka_reports_speaker_id", table_name="mushka_reports")
    op.drop_index("ix_mushka_reports_table_id", table_name="mushka_reports")
    op.drop_table("mushka_reports")
    op.drop_index("ix_mushka_hides_target_id", table_name="mushka_hides")
    op.drop_table("mushka_hides")
    op.drop_table("mushka_friend_codes")
    op.drop_index("ix_mushka_friends_to_id", table_name="mushka_friends")
    op.drop_table("mushka_friends")
