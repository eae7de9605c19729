"""Friends, friend links, mutes and blocks, reported chat lines, presence and notices (see
``docs/friends.md``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa

from mushka.server.migrations.ops import ACCOUNTS, create_table, drop_table, reference

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _account(name: str, *, primary_key: bool = False) -> sa.Column[str]:
    """A reference to an account, never empty (part of the key if ``primary_key``)."""
    return reference(name, ACCOUNTS, nullable=False, primary_key=primary_key)


def upgrade() -> None:
    """Add the social tables."""
    create_table(
        "mushka_friends",
        _account("from_id", primary_key=True),
        _account("to_id", primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        indexes=("to_id",),
    )
    create_table(
        "mushka_friend_codes",
        _account("account_id", primary_key=True),
        sa.Column("code", sa.String(32), nullable=False, unique=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )
    create_table(
        "mushka_hides",
        _account("owner_id", primary_key=True),
        _account("target_id", primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        indexes=("target_id",),
    )
    create_table(
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
        indexes=("table_id", "speaker_id", "created_ms"),
    )
    create_table(
        "mushka_presence",
        _account("account_id", primary_key=True),
        sa.Column("node", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seen_ms", sa.BigInteger(), nullable=False),
        indexes=("seen_ms",),
    )
    create_table(
        "mushka_notices",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _account("to_id"),
        _account("from_id"),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("seen", sa.Boolean(), nullable=False),
        indexes=("to_id", "created_ms"),
    )


def downgrade() -> None:
    """Drop them again."""
    drop_table("mushka_notices", ("to_id", "created_ms"))
    drop_table("mushka_presence", ("seen_ms",))
    drop_table("mushka_reports", ("table_id", "speaker_id", "created_ms"))
    drop_table("mushka_hides", ("target_id",))
    drop_table("mushka_friend_codes")
    drop_table("mushka_friends", ("to_id",))
