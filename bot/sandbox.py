"""An offline sandbox: the real bot against SimCord's simulated Discord, shown
as a Discord-like page on 127.0.0.1 (needs the ``sandbox`` extra)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import tempfile
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import simcord


async def run_sandbox(port: int = 8765, db_path: str | None = None,
                      seconds: float | None = None) -> int:
    """Serve the sandbox until interrupted (or for ``seconds`` of real time).

    Returns the exit code. Virtual time advances one second per real second so
    the automatic next deal fires, and the page is refreshed whenever the bot
    posted or changed something on its own. The member "ann" (you) owns the server,
    so ``/commerce-admin`` can be tried too. SIGTERM stops it like Ctrl+C.
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
    task = asyncio.current_task()
    if task is not None:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    bot = create_bot(db_path)
    try:
        async with simcord.run(bot) as env:
            # the pause between two AI moves shown is declared to SimCord, so that a
            # click does not wait for it: the clock below brings the moves one at a
            # time, as Discord would show them
            bot.publisher.showing.pause = lambda seconds: env.external_wait(
                asyncio.sleep(seconds), reason="the AI's pace (bot.showing)")
            user = env.create_user("ann")
            guild = env.create_guild(name="Commerce sandbox", owner=user)
            channel = guild.create_text_channel("commerce")
            you = guild.add_member(user)
            await bot.service.update_settings(guild.id, you.id, table_mode="here",
                                              next_deal_delay=10)
            try:
                preview_cm = env.preview(channel, viewers=[you], layout="channel", port=port)
                preview = await preview_cm.__aenter__()
            except simcord.SetupError as exc:
                print(f"The sandbox could not start its page on port {port} ({exc}); "
                      "try another with --port.")
                return 1
            try:
                print("Commerce sandbox is running. Open this address in a browser:")
                print(f"  {preview.url}")
                print("Type /commerce new, press Add AI twice, then Start. Ctrl+C stops.")
                elapsed = 0.0
                seen = _fingerprint(channel)
                while seconds is None or elapsed < seconds:
                    await asyncio.sleep(1)
                    elapsed += 1
                    with contextlib.suppress(Exception):
                        await env.advance_time(1)
                    if preview._closed:  # the page server stopped
                        break
                    now = _fingerprint(channel)
                    if now != seen:  # the bot posted or edited on its own: show it
                        seen = now
                        with contextlib.suppress(Exception):
                            await preview.refresh()
            finally:
                await preview_cm.__aexit__(None, None, None)
    except asyncio.CancelledError:
        pass
    finally:
        await bot.close_storage()
        if tmp is not None:
            tmp.cleanup()
    return 0


def _fingerprint(channel: simcord.ChannelHandle) -> tuple[tuple[int, datetime | None], ...]:
    """What the channel shows: the id and last edit of each of its last 30
    messages (for refreshes)."""
    return tuple((m.id, m.edited_at) for m in channel.history()[-30:])
