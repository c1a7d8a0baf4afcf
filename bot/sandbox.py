"""An offline sandbox: the real bot against SimCord's simulated Discord, shown
as a Discord-like page on 127.0.0.1 (needs the ``sandbox`` extra)."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from pathlib import Path


async def run_sandbox(port: int = 8765, db_path: str | None = None,
                      seconds: float | None = None) -> int:
    """Serve the sandbox until interrupted (or for ``seconds`` of real time).

    Returns the exit code. Virtual time advances one second per real second so
    the automatic next deal fires.
    """
    try:
        import simcord
    except ImportError:
        print("The sandbox needs the simcord extra: pip install -e '.[sandbox]'")
        return 1
    from .app import create_bot

    tmp = None
    if db_path is None:
        tmp = tempfile.TemporaryDirectory(prefix="commerce-sandbox-")
        db_path = str(Path(tmp.name) / "sandbox.db")
    bot = create_bot(db_path)
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild(name="Commerce sandbox")
            channel = guild.create_text_channel("commerce")
            you = guild.add_member(env.create_user("you"))
            await bot.service.update_settings(guild.id, you.id, table_mode="here",
                                              next_deal_delay=10)
            async with env.preview(channel, viewers=[you], layout="channel",
                                   port=port) as preview:
                print("Commerce sandbox is running. Open this address in a browser:")
                print(f"  {preview.url}")
                print("Type /commerce new, press Add AI twice, then Start. Ctrl+C stops.")
                elapsed = 0.0
                while seconds is None or elapsed < seconds:
                    await asyncio.sleep(1)
                    elapsed += 1
                    with contextlib.suppress(Exception):
                        await env.advance_time(1)
                    if preview._closed:  # the page server stopped
                        break
    finally:
        await bot.close_storage()
        if tmp is not None:
            tmp.cleanup()
    return 0
