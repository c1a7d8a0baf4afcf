"""Class 2: hostile names in the table and showdown pictures (rendered, saved to
/tmp/attack-pictures for a look)."""

from __future__ import annotations

import os

from tests.cogs.golden import play_to_the_end, title
from tests.cogs.test_hostile_names import table_of

OUT = "/tmp/attack-pictures"

NICKS = ["👨‍👩‍👧‍👦" * 4 + "👍🏽" * 2,   # 32 code points of wide emoji, a sequence cut
         "🦄" * 32,
         "W" * 32,
         "Z\u0336\u0337a\u0338\u0339l\u033ag\u033bo",
         "مرحبا بالعالم 123",
         "🤖\ufe0f"]


async def test_pictures_of_hostile_names(simcord_env):
    env = simcord_env
    os.makedirs(OUT, exist_ok=True)
    guild, _, channel, actors = await table_of(env, NICKS, ai=1)
    table = channel.history()[-1]
    [att] = table.attachments
    with open(f"{OUT}/table.png", "wb") as f:
        f.write(await att.read())
    await play_to_the_end(env, channel, actors[:1], seed=2)
    for m in channel.history():
        if title(m).startswith("Showdown") and m.attachments:
            with open(f"{OUT}/showdown.png", "wb") as f:
                f.write(await m.attachments[0].read())
            break
    for m in channel.history():
        for row in m.components:
            for c in row.children:
                assert len(getattr(c, "label", "") or "") <= 80
    env.errors  # noqa: B018
