"""Play a whole game through what members see: the public buttons and their panels.

The driver never calls the service: it reads the channel as a member's client
shows it (the newest message that pings a member), clicks **My hand** on it and
makes one of the moves the panel offers, answers offers, and lets virtual time
run (the AI's moves at their pace, next deals after their delay, turn timers)
until the final standings are posted. It clicks at a member's pace (``PAUSE``
seconds of virtual time after each move), so the bot's own cooldown applies as
it does in production.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tests.cogs.helpers import history, message_text

#: virtual seconds a member takes between two moves
PAUSE = 2.0
#: virtual seconds without anything to do after which a game counts as stalled
STALL = 900.0


def title(message) -> str:
    return (message.embeds[0].title or "") if message.embeds else ""


def controls(message) -> list[tuple[str, str]]:
    """``(custom id, label)`` of every component of a stored message."""
    return [(c.custom_id or "", getattr(c, "label", "") or "")
            for row in message.components for c in row.children]


def offers_a_move(message) -> bool:
    """Whether a public message still has a control that makes a move or deals
    (anything but My hand and I'm back)."""
    for cid, _ in controls(message):
        parts = cid.split(":")
        if parts[:2] == ["commerce", "play"] and parts[-1] in ("hand", "back"):
            continue
        if parts[:2] in (["commerce", "play"], ["commerce", "answer"], ["commerce", "next"]):
            return True
    return False


def components(result) -> list[dict]:
    """The components of an interaction's response (a panel)."""
    if result.response is None:
        return []
    return [c for row in result.response.components for c in row.get("components", [])]


@dataclass
class Seen:
    """What the channel showed once the game was over."""

    showdowns: dict[int, int] = field(default_factory=dict)  #: deal number -> messages
    finals: int = 0
    moves: int = 0
    live_controls: list[str] = field(default_factory=list)  #: messages still offering a move


async def pick(actor, panel, rng: random.Random) -> None:
    """Make one of the moves ``panel`` offers: a button, or an option of a menu
    (and the player next, for an offer at a large table)."""
    comps = components(panel)
    buttons = [c for c in comps if c.get("type") == 2 and c["custom_id"].split(":")[1] == "pick"
               and c["custom_id"].split(":")[5] != "hint"]
    menus = [c for c in comps if c.get("type") == 3]
    if buttons and (not menus or rng.random() < 0.6):
        await actor.click(panel.response, custom_id=rng.choice(buttons)["custom_id"])
        return
    if not menus:
        return
    menu = rng.choice(menus)
    res = await actor.select(panel.response, [rng.choice(menu["options"])["value"]],
                             custom_id=menu["custom_id"])
    follow = [c for c in components(res) if c.get("type") == 3]
    if follow:
        await actor.select(res.response, [follow[0]["options"][0]["value"]],
                           custom_id=follow[0]["custom_id"])


async def answer(actor, offer, rng: random.Random) -> None:
    """Answer an offer: Accept (then a card to give back), or now and then
    refuse or decline where the rules allow it."""
    ids = dict((label, cid) for cid, label in controls(offer) if cid.startswith("commerce:answer"))
    accept = next((cid for label, cid in ids.items() if label.startswith("Accept")), None)
    other = next((cid for label, cid in ids.items() if not label.startswith("Accept")), None)
    if other is not None and (accept is None or rng.random() < 0.3):
        await actor.click(offer, custom_id=other)
        return
    assert accept is not None, ids
    res = await actor.click(offer, custom_id=accept)
    menus = [c for c in components(res) if c.get("type") == 3]
    if menus:
        await actor.select(res.response, [menus[0]["options"][0]["value"]],
                           custom_id=menus[0]["custom_id"])


def to_answer(history, actors):
    """The newest message pinging one of ``actors`` that asks for their move:
    ``(actor, message)``, or ``None``."""
    by_mention = {a.mention: a for a in actors}
    for message in reversed(history):
        who = next((a for m, a in by_mention.items() if (message.content or "").startswith(m)),
                   None)
        if who is not None and offers_a_move(message):
            return who, message
    return None


async def play_to_the_end(env, channel, actors, *, seed: int = 1, step: float = 1.0) -> Seen:
    """Play the game in ``channel`` through the members' own clicks until its
    final standings are posted. Raises AssertionError when nothing happens for
    ``STALL`` virtual seconds."""
    rng = random.Random(seed)
    seen = Seen()
    idle = 0.0
    while True:
        shown = history(env, channel)
        if any(title(m).startswith("Game over") for m in shown):
            break
        found = to_answer(shown, actors)
        if found is None:
            await env.advance_time(step)
            idle += step
            assert idle < STALL, "the game stalled:\n" + "\n---\n".join(
                message_text(m) for m in history(env, channel)[-4:])
            continue
        actor, message = found
        if any(cid.startswith("commerce:answer") for cid, _ in controls(message)):
            await answer(actor, message, rng)
        else:
            await pick(actor, await actor.click(message, label="My hand"), rng)
        seen.moves += 1
        idle = 0.0
        await env.advance_time(PAUSE)
    for message in channel.history():
        name = title(message)
        if name.startswith("Showdown"):
            number = int(name.rsplit(" ", 1)[-1])
            seen.showdowns[number] = seen.showdowns.get(number, 0) + 1
        seen.finals += name.startswith("Game over")
        if offers_a_move(message):
            seen.live_controls.append(message_text(message))
    return seen
