"""Alembic's entry point: runs the migrations on the server's engine.

The server passes its engine in ``config.attributes["engine"]``; the
``alembic`` command line may give ``sqlalchemy.url`` instead.  In offline
mode (``command.upgrade(config, "head", sql=True)``) the SQL is printed for
the URL's dialect, which shows the schema as PostgreSQL or SQLite would get it.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine

from mushka.server.sqlstore import Base

config = context.config
url = config.get_main_option("sqlalchemy.url") or "sqlite:///mushka.db"

if context.is_offline_mode():
    context.configure(url=url, target_metadata=Base.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    engine: Engine | None = config.attributes.get("engine")
    if engine is None:
        engine = create_engine(url)
    with engine.begin() as connection:
        # Batch mode lets later migrations alter SQLite tables (which cannot ALTER columns).
        context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
