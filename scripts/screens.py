"""Screenshots of every family in the offline sandbox: ``docs/screens/``.

    .venv/bin/python scripts/screens.py [--out docs/screens] [--only foster,jaques]
                                        [--language de]

For each family (foster: trade and barter; widow; oldway: lives and the middle;
jaques: the discard pile and chips) the real bot plays a whole game against
SimCord's simulated Discord: Ann opens a table, adds two AI seats and starts, and
plays every move of hers from her private panel. Five stages are photographed
through SimCord's preview page in headless Chromium: the lobby, the table (as
Sam, a member who is not seated, sees it), Ann's private panel (as Ann sees it),
the first showdown and the final standings. The public shots are checked to hold
no private answer of Ann's. SimCord's preview draws Discord's dark theme.
``--language`` (``de``, ``fr``, ``es``; default English) plays the games in a
server of that Discord locale with Ann's client in it too, and writes the shots
to ``docs/screens/<language>/`` (English ones stay in ``docs/screens/``).

Run it before a release (``./scripts/test`` does not: it needs a browser).
It needs Debian's Chromium (``apt-get install chromium``) and Playwright in a
virtualenv of its own, never ``playwright install`` (the browser is Debian's):

    python3 -m venv .venv-shots && .venv-shots/bin/pip install playwright

(``SCREENS_PYTHON`` names another interpreter with Playwright). Where either is
missing the script says so and exits 0 without taking any picture.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
WIDTH, HEIGHT = 1000, 1000
#: the games photographed: (file prefix, preset, /commerce new options)
GAMES = (("foster", "foster", {}), ("widow", "widow", {}), ("oldway", "oldway", {}),
         ("jaques", "jaques", {"chips": 2}))
#: the moves Ann prefers on her panel, best first (to end deals quickly, yet play), by
#: the action that ends their buttons' ids (their labels are in the server's language)
PREFERRED = ("knock", "stand", "keep_hand", "decline_horse", "pass")
#: Discord's locale of each language the bot speaks besides English
LOCALES = {"de": "de", "fr": "fr", "es": "es-ES"}

CAPTURE = r"""
import asyncio, sys
from playwright.async_api import async_playwright

async def main(url, out, width, height, chromium):
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        try:
            context = await browser.new_context(
                viewport={"width": width, "height": height}, device_scale_factor=1,
                bypass_csp=True, reduced_motion="reduce")
            page = await context.new_page()
            await page.goto(url, wait_until="domcontentloaded")
            await page.wait_for_function(
                "() => window.simcordPreview && window.simcordPreview.ready === true",
                timeout=120000)
            await page.wait_for_timeout(800)  # pictures, fonts and emoji settle
            await page.screenshot(path=out, type="png")
            sys.stdout.write(await page.inner_text("body"))
        finally:
            await browser.close()

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]))
"""


def shots_python() -> str | None:
    """An interpreter that can import Playwright, or ``None``."""
    candidates = [os.environ.get("SCREENS_PYTHON"), str(ROOT / ".venv-shots" / "bin" / "python"),
                  sys.executable]
    for python in candidates:
        if not python or not Path(python).exists():
            continue
        found = subprocess.run([python, "-c", "import playwright.async_api"],
                               capture_output=True, check=False)
        if found.returncode == 0:
            return python
    return None


class Camera:
    """Photographs a channel through SimCord's preview, as one member sees it."""

    def __init__(self, env, python: str, out: Path, locale: str = "en-US",
                 private_word: str = "Your hand") -> None:
        self.env, self.python, self.out, self.locale = env, python, out, locale
        #: words only a private panel shows ("Your hand", in the game's language)
        self.private_word = private_word
        self.taken: list[Path] = []

    async def shoot(self, channel, viewer, name: str) -> str:
        """Save ``name``.png as ``viewer`` sees ``channel``; returns the page's text."""
        path = self.out / f"{name}.png"
        for attempt in range(3):  # a busy machine can be slow to draw the page: try again
            try:
                return await self._shoot(channel, viewer, path)
            except RuntimeError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _shoot(self, channel, viewer, path: Path) -> str:
        """One capture of ``path`` (``shoot``)."""
        name = path.stem
        async with self.env.preview(channel, viewers=[viewer], layout="channel", width=WIDTH,
                                    height=HEIGHT, port=0, locale=self.locale,
                                    presentation_time=self.env.now()) as preview:
            proc = await asyncio.create_subprocess_exec(
                self.python, "-c", CAPTURE, preview.url, str(path), str(WIDTH), str(HEIGHT),
                CHROMIUM, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            text, err = await proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError(f"capture of {name} failed: {err.decode()[-800:]}")
        self.taken.append(path)
        return text.decode()


def buttons(result, kind: int = 2) -> list[dict]:
    """The buttons (``kind`` 3: the menus) of an interaction's response (a panel)."""
    if result.response is None:
        return []
    return [c for row in result.response.components for c in row["components"]
            if c.get("type") == kind and not c.get("custom_id", "").endswith(":hint")]  # moves


def action(control: dict) -> str:
    """The action a panel's button makes (``commerce:pick:table:deal:seq:action[:value]``)."""
    return control["custom_id"].split(":")[5]


async def click(actor, message, ending: str):
    """``actor`` presses the button of ``message`` whose id ends with ``ending``
    (``:ai``, ``:start``, ``:hand``...; its label is in the server's language)."""
    ids = [c.custom_id for row in message.components for c in row.children
           if (c.custom_id or "").endswith(ending) or (c.custom_id or "").startswith(ending)]
    return await actor.click(message, custom_id=ids[0])


async def ann_moves(panel, ann, rng: random.Random, eager: bool) -> None:
    """Ann makes one move of her ``panel``: a card move while ``eager`` (so the
    pictures show play: a button or a menu's option), else whatever ends the deal
    soonest."""
    choices, menus = buttons(panel), buttons(panel, 3)
    preferred = sorted((c for c in choices if action(c) in PREFERRED),
                       key=lambda c: PREFERRED.index(action(c)))
    cards = [c for c in choices if action(c) not in PREFERRED]
    if (eager or not (preferred or cards)) and menus and not cards:
        menu = rng.choice(menus)
        await ann.select(panel.response, [rng.choice(menu["options"])["value"]],
                         custom_id=menu["custom_id"])
        return
    pool = (cards or preferred) if eager else (preferred or cards)
    if pool:
        await ann.click(panel.response, custom_id=rng.choice(pool[:3])["custom_id"])


async def play_family(env, bot, camera: Camera, guild, prefix: str, preset: str,
                      options: dict) -> None:
    """One whole game of ``preset`` in a channel of its own, photographed: the
    table as Sam sees it and Ann's panel on her first turn, the first showdown."""
    channel = guild.create_text_channel(f"{prefix}-table")
    ann = guild.add_member(env.create_user(f"ann-{prefix}"))
    sam = guild.add_member(env.create_user(f"sam-{prefix}"))
    rng = random.Random(prefix)
    res = await ann.slash(channel, "commerce new", rules=preset, **options)
    assert res.ephemeral, res.response.content
    lobby = channel.history()[-2]  # then the fair-shuffle message
    await click(ann, lobby, ":ai")
    await click(ann, lobby, ":ai")
    await camera.shoot(channel, sam, f"{prefix}-1-lobby")
    await click(ann, lobby, ":start")
    live = bot.service.in_channel(channel.id)
    taken: set[str] = set()
    for _ in range(600):
        if live.game.complete:
            break
        if live.deal.finished:
            if "showdown" not in taken:
                await camera.shoot(channel, sam, f"{prefix}-4-showdown")
                taken.add("showdown")
            await click(ann, channel.history()[-1], "commerce:next:")
            continue
        if live.deal.to_act != live.seat_of(ann.id):
            await env.advance_time(1)
            continue
        if "table" not in taken:
            public = await camera.shoot(channel, sam, f"{prefix}-2-table")
            if camera.private_word in public:
                raise RuntimeError(f"{prefix}: Sam's page shows Ann's hand")
            taken.add("table")
        message = next(m for m in channel.history() if m.id == live.row.table_message_id)
        panel = await click(ann, message, ":hand")
        if "panel" not in taken and (buttons(panel) or buttons(panel, 3)):
            await camera.shoot(channel, ann, f"{prefix}-3-panel")
            taken.add("panel")
        await ann_moves(panel, ann, rng, eager=live.deal_number == 1 and
                        len(live.deal.operations) < 4)
    if not live.game.complete:
        raise RuntimeError(f"{prefix}: the game did not end")
    await camera.shoot(channel, sam, f"{prefix}-5-final")


def speak(locale: str) -> None:
    """Every interaction SimCord sends carries ``locale`` (it sends ``en-US``), and
    its guild's own preferred locale: the members' clients speak the language."""
    import simcord.interactions as simcord_interactions

    made = simcord_interactions.base_payload

    def base_payload(backend, *, user_id, guild_id, **kwargs):
        record, payload = made(backend, user_id=user_id, guild_id=guild_id, **kwargs)
        payload["locale"] = locale
        if guild_id is not None:
            payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
        return record, payload

    simcord_interactions.base_payload = base_payload


async def main(out: Path, only: set[str] | None, language: str = "en") -> int:
    python = shots_python()
    if not Path(CHROMIUM).exists() or python is None:
        missing = "Debian's Chromium (apt-get install chromium)" if not Path(CHROMIUM).exists() \
            else "Playwright (python3 -m venv .venv-shots && .venv-shots/bin/pip install playwright)"
        print(f"screens: skipped, {missing} is missing; no screenshot was taken.")
        return 0
    import simcord

    from bot import create_bot, i18n

    locale = LOCALES.get(language, "en-US")
    if language in LOCALES:
        speak(locale)
        out = out / language
    with i18n.use(language):
        private_word = i18n._("**Your hand:** ").strip("* :")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="commerce-screens-") as tmp:
        bot = create_bot(Path(tmp) / "screens.db", rng=random.Random(3), cooldown=None,
                         ai_pace=0)
        try:
            async with simcord.run(bot) as env:
                owner = env.create_user("owner")
                guild = env.create_guild(name="Commerce club", owner=owner,
                                         preferred_locale=locale)
                host = guild.add_member(owner)
                await bot.service.update_settings(guild.id, host.id, table_mode="here",
                                                  next_deal_delay=30, turn_timer=120)
                camera = Camera(env, python, out, locale, private_word)
                for prefix, preset, options in GAMES:
                    if only and prefix not in only:
                        continue
                    await play_family(env, bot, camera, guild, prefix, preset, options)
        finally:
            await bot.close_storage()
    for path in camera.taken:
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} "
              f"({path.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screens")
    parser.add_argument("--only", default="", help="comma-separated prefixes: foster,widow,...")
    parser.add_argument("--language", default="en", choices=["en", *LOCALES],
                        help="the server's and the members' language")
    args = parser.parse_args()
    chosen = {p for p in args.only.split(",") if p} or None
    if shutil.which("chromium") is None and not Path(CHROMIUM).exists():
        print("screens: skipped, Debian's Chromium is missing (apt-get install chromium).")
        sys.exit(0)
    sys.exit(asyncio.run(main(args.out, chosen, args.language)))
