"""One way for every benchmark to get its own PostgreSQL database and a configured Django.

from benchdb import use_database
use_database("gv_bench_pages", reseed=args.reseed)   # creates it if missing, migrates, django.setup()
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def configure(name: str, *, debug: bool = False) -> str:
    """Point Django's settings at database `name` (call before django.setup()); returns its URL."""
    sys.path.insert(0, str(ROOT))
    url = f"postgres://postgres@127.0.0.1:5432/{name}"
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "groundview.settings")
    # Timing with DEBUG off: no query log.
    os.environ["DEBUG"] = "1" if debug else "0"
    os.environ.setdefault("SECRET_KEY", "bench-only-not-secret")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    return url


def create_database(name: str, *, reseed: bool = False) -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        if reseed:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def use_database(name: str, *, reseed: bool = False) -> None:
    """Create (or recreate) database `name`, set Django up on it and migrate."""
    configure(name)
    create_database(name, reseed=reseed)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
