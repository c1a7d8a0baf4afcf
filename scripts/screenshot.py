"""Capture the README screenshot ``docs/table.png``: a Commerce table in the offline sandbox.

    .venv/bin/python scripts/screenshot.py [--out docs/table.png] [--seed 3]

The real bot runs against SimCord's simulated Discord (as ``python -m bot
sandbox`` does): Ann opens a table in #commerce, adds two AI seats, starts,
looks at her hand and trades once -- all driven from Python through SimCord
actors, not through the browser. The channel is then served with
``env.preview(..., layout="channel")`` and photographed as seen by Sam, a
member who is not seated, so the picture is the public table: Ann's hand
(an ephemeral answer) must not be in it, and the script checks that.

Playwright is a dev-only tool, not a dependency of the bot: install it into
the venv for the capture only (``.venv/bin/pip install playwright``) and use
Debian's Chromium (``apt-get install chromium``); never ``playwright
install``. SimCord's own ``Preview.screenshot`` launches Playwright's bundled
browser, which is why this script drives Chromium itself.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def select_values(result) -> list[str]:
    """Option values of the first select in an interaction's response."""
    for row in result.response.components:
        for comp in row.get("components", []):
            if comp.get("type") == 3:
                return [o["value"] for o in comp["options"]]
    raise RuntimeError(f"no select in the response: {result.response.content!r}")


async def stage(env, bot):
    """A guild, #commerce, Ann seated with two AI seats, the game started and one trade
    made. Returns (channel, ann, sam)."""
    guild = env.create_guild(name="Commerce club")
    channel = guild.create_text_channel("commerce")
    ann = guild.add_member(env.create_user("ann"))
    sam = guild.add_member(env.create_user("sam"))
    await bot.service.update_settings(guild.id, ann.id, table_mode="here", next_deal_delay=0,
                                      turn_timer=0)
    res = await ann.slash(channel, "commerce new")
    assert res.ephemeral, res.response.content
    lobby = channel.history()[-1]
    for label in ("Add AI", "Add AI", "Start"):
        await ann.click(lobby, label=label)
    live = bot.service.in_channel(channel.id)
    assert live is not None and live.deal is not None
    table_msg = next(m for m in channel.history() if m.id == live.row.table_message_id)
    hand = await ann.click(table_msg, label="My hand")
    assert hand.ephemeral
    if live.deal.to_act == live.seat_of(ann.id):
        res = await ann.click(table_msg, label="Trade")
        assert res.ephemeral, res.response.content
        await ann.select(res.response, [select_values(res)[0]])
    return channel, ann, sam


async def capture(url: str, out: Path, width: int, height: int) -> str:
    """Photograph the preview page with Debian's Chromium; returns the page's text."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        sys.exit("Playwright is missing: .venv/bin/pip install playwright (dev only; "
                 "uses /usr/bin/chromium, never run `playwright install`)")
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = await browser.new_context(viewport={"width": width, "height": height},
                                                device_scale_factor=1, bypass_csp=True,
                                                reduced_motion="reduce")
            page = await context.new_page()
            await page.goto(url, wait_until="domcontentloaded")
            await page.wait_for_function(
                "() => window.simcordPreview && window.simcordPreview.ready === true",
                timeout=30_000)
            await page.wait_for_timeout(500)  # fonts and emoji settle
            await page.screenshot(path=str(out), type="png")
            text = await page.inner_text("body")
        finally:
            await browser.close()
    return text


async def main(out: Path, seed: int, width: int, height: int) -> None:
    import simcord

    from bot import create_bot

    with tempfile.TemporaryDirectory(prefix="commerce-shot-") as tmp:
        bot = create_bot(Path(tmp) / "shot.db", rng=random.Random(seed))
        try:
            async with simcord.run(bot) as env:
                channel, ann, sam = await stage(env, bot)
                # Sam first: the page opens as Sam, who sees only public messages
                async with env.preview(channel, viewers=[sam, ann], layout="channel",
                                       width=width, height=height, port=0) as preview:
                    text = await capture(preview.url, out, width, height)
                # Ann's answers were ephemeral: SimCord shows them to her, never to Sam
                mine = [m for m in channel.history(viewer=ann) if m.flags.ephemeral]
                theirs = [m for m in channel.history(viewer=sam) if m.flags.ephemeral]
        finally:
            await bot.close_storage()
    assert mine and any("Your hand" in m.content for m in mine), "no private hand was sent"
    problems = [f"Sam's history holds {len(theirs)} ephemeral message(s)"] if theirs else []
    problems += [f"the page shows {phrase!r}" for phrase in ("Your hand", "You traded")
                 if phrase in text]
    problems += [f"the page lacks {phrase!r}" for phrase in ("Commerce table", "My hand",
                                                             "Knock") if phrase not in text]
    if problems:
        sys.exit("bad screenshot: " + "; ".join(problems))
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB): the public table as Sam sees it; "
          f"Ann's {len(mine)} private answer(s) are not in it")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "table.png")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--width", type=int, default=1000)
    parser.add_argument("--height", type=int, default=860)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(main(args.out, args.seed, args.width, args.height))
