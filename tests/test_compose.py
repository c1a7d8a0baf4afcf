"""compose.yaml runs N bot processes on one PostgreSQL: every shard is served by
exactly one process, every service restarts by itself, the database is checked
healthy before the bots start and keeps its data on a volume, and no secret is
written in the file (they come from .env, as .env.example documents)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from bot.shards import parse_shards

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
SERVICES = COMPOSE["services"]
BOTS = {name: s for name, s in SERVICES.items() if name.startswith("bot")}


def test_every_shard_is_served_by_exactly_one_bot_process():
    assert len(BOTS) >= 2
    counts = {s["environment"]["SHARD_COUNT"] for s in BOTS.values()}
    assert len(counts) == 1
    served = []
    for service in BOTS.values():
        env = service["environment"]
        shards = parse_shards(env["SHARD_COUNT"], env["SHARD_IDS"])
        assert shards is not None and shards.ids is not None
        served += shards.ids
    assert sorted(served) == list(range(int(counts.pop())))


def test_the_bots_wait_for_a_healthy_database_and_restart_by_themselves():
    db = SERVICES["postgres"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert any(v.endswith(":/var/lib/postgresql/data") and v.split(":")[0] in COMPOSE["volumes"]
               for v in db["volumes"])
    for service in (db, *BOTS.values()):
        assert service["restart"] in ("unless-stopped", "always")
    for service in BOTS.values():
        assert service["build"] == "."
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["env_file"] == ".env"
        assert service["environment"]["DATABASE_URL"].startswith("postgresql://")
        assert "@postgres:5432/" in service["environment"]["DATABASE_URL"]


def test_secrets_come_from_dot_env():
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert "DISCORD_TOKEN" not in re.sub(r"#.*", "", text)  # the bots read it from .env
    assert SERVICES["postgres"]["environment"]["POSTGRES_PASSWORD"].startswith(
        "${POSTGRES_PASSWORD:?")
    for service in BOTS.values():
        assert ":${POSTGRES_PASSWORD:?" in service["environment"]["DATABASE_URL"]
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in ("DISCORD_TOKEN", "POSTGRES_PASSWORD", "SHARD_COUNT", "SHARD_IDS"):
        assert re.search(rf"^{name}=$", example, re.MULTILINE), name
