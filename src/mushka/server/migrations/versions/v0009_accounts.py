"""Player accounts: a claimed name, its password hash or passkeys, the signed-in sessions, the
passkey challenges in flight, the sign-in limits, and the account a seat was taken by.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from mushka.server.migrations.ops import ACCOUNTS, create_table, drop_table, reference

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the account tables and ``mushka_seats.account_id``."""
    create_table(
        "mushka_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    create_table(
        "mushka_passwords",
        reference("account_id", ACCOUNTS, primary_key=True),
        sa.Column("hash", sa.String(255), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    create_table(
        "mushka_passkeys",
        sa.Column("credential_id", sa.String(255), primary_key=True),
        reference("account_id", ACCOUNTS, nullable=False),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", sa.String(128), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        indexes=("account_id",),
    )
    create_table(
        "mushka_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        reference("account_id", ACCOUNTS, nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("seen_ms", sa.BigInteger(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        indexes=("account_id", "expires_ms"),
    )
    create_table(
        "mushka_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("user_handle", sa.String(64), nullable=True),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        indexes=("expires_ms",),
    )
    create_table(
        "mushka_signin_limits",
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("window_ms", sa.BigInteger(), nullable=False),
        sa.Column("blocked_until_ms", sa.BigInteger(), nullable=False),
        indexes=("blocked_until_ms",),
    )
    with op.batch_alter_table("mushka_seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))
        batch.create_index("ix_mushka_seats_account_id", ["account_id"])


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("mushka_seats") as batch:
        batch.drop_index("ix_mushka_seats_account_id")
        batch.drop_column("account_id")
    drop_table("mushka_signin_limits", ("blocked_until_ms",))
    drop_table("mushka_challenges", ("expires_ms",))
    drop_table("mushka_sessions", ("account_id", "expires_ms"))
    drop_table("mushka_passkeys", ("account_id",))
    drop_table("mushka_passwords")
    drop_table("mushka_accounts")
