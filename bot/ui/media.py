"""The card pictures of ``pictures`` as Discord attachments.

The public pictures (the table and the showdown) are built from the public
observation ``deal.observation(None)`` and the seats' plain names only; the
hand picture from its owner's observation, and it is only ever sent to that
owner (ephemerally). Each attachment carries a description saying what the
picture shows, in the current language, for screen readers and clients that
show no images: the public pictures' from the public observation only
(``pictures.table_alt``, ``pictures.showdown_alt``), the hand's from its
owner's (``pictures.hand_alt``).
"""

from __future__ import annotations

import io
import threading
from functools import lru_cache

import discord

from .. import i18n
from ..engine import Observation
from ..i18n import _, deck
from ..service import LiveTable
from . import payments, pictures
from .render import seat_labels

TABLE_FILE = "table.png"
SHOWDOWN_FILE = "showdown.png"
HAND_FILE = "hand.png"


_warming: threading.Thread | None = None


def warm_up() -> threading.Thread:
    """Draw every card sprite (``pictures.warm``) in a background thread, once
    per process, so that the first moves after a start do not pay for it; the
    thread (the one already started, on later calls) is returned. It only fills
    the pictures' caches: whatever it has not drawn yet is drawn when first
    needed, as without it."""
    global _warming
    if _warming is None:
        _warming = threading.Thread(target=pictures.warm, name="card-sprites", daemon=True)
        _warming.start()
    return _warming


def plain_names(live: LiveTable) -> list[str]:
    """Every seat's name as pictures show it (never a mention)."""
    return list(seat_labels(live))


def table_title(live: LiveTable) -> str:
    """The table picture's header: the preset and the deal's number."""
    game = live.game
    deal = (_("deal {number} of {total}") if game is not None and game.deals_total
            else _("deal {number}")).format(number=live.deal_number,
                                            total=game.deals_total if game is not None else 0)
    return f"{live.rules.name} · {deal}"


class Picture(bytes):
    """A picture's PNG bytes that know their description (``alt``): equal to, and
    sent as, the bytes alone."""

    alt: str


def table_png(live: LiveTable) -> Picture:
    """PNG of the current deal's table, from the public observation only, with
    its description (``Picture.alt``, ``pictures.table_alt``). The same table
    shown again (a move's answer on the table message, then the refresh after
    it) is drawn once (``_table_picture``)."""
    deal, game = live.deal, live.game
    assert deal is not None and game is not None
    return _table_picture(deal.observation(None), tuple(plain_names(live)),
                          tuple(game.running_balances), table_title(live), i18n.current())


@lru_cache(maxsize=64)
def _table_picture(obs: Observation, names: tuple[str, ...], balances: tuple[int, ...],
                   title: str, language: str) -> Picture:
    """``table_png``'s picture of what it shows, in ``language`` (the current one)."""
    scene = pictures.table_scene(obs, names, balances, title)  # one scene for both
    picture = Picture(pictures.draw_table(scene))
    picture.alt = pictures.table_scene_alt(scene)
    return picture


def showdown_png(live: LiveTable) -> Picture:
    """PNG of the current (finished) deal's showdown, from the public observation
    and each seat's payments by reason (``payments.tallies``: public amounts),
    with its description (``Picture.alt``, ``pictures.showdown_alt``)."""
    deal = live.deal
    assert deal is not None
    obs, names = deal.observation(None), plain_names(live)
    title = _("Showdown · deal {number}").format(number=live.deal_number)
    paid = [t.items_text() for t in payments.tallies(deal)]
    scene = pictures.showdown_scene(obs, names, title, paid)  # one scene for both
    picture = Picture(pictures.draw_showdown(scene))
    picture.alt = pictures.showdown_scene_alt(scene)
    return picture


def table_file(live: LiveTable) -> discord.File:
    """The table picture as an attachment (the embed shows it as ``attachment://table.png``)."""
    return picture_file(table_png(live))


def picture_file(png: bytes) -> discord.File:
    """``png``, a table picture (``table_png``), as its attachment, described by
    its ``Picture.alt`` (plain bytes: in general words)."""
    alt = getattr(png, "alt", None) or _("The table: seats, pool, stock and face-up cards.")
    return discord.File(io.BytesIO(png), filename=TABLE_FILE, description=alt)


def showdown_file(live: LiveTable) -> discord.File:
    """The showdown picture as an attachment (``attachment://showdown.png``),
    described by what it shows (``showdown_png``)."""
    picture = showdown_png(live)
    return discord.File(io.BytesIO(picture), filename=SHOWDOWN_FILE, description=picture.alt)


def hand_png(obs: Observation) -> bytes:
    """PNG of the private hand of ``obs.seat``, from its own observation only,
    in the current deck (``deck.current()``: the member's own, two or four colours).

    Raises:
        ValueError: ``obs`` is the public observation.
    """
    four = deck.current() == deck.FOUR
    return pictures.hand_png(obs, pictures.FOUR_COLOUR_INK if four else pictures.SUIT_INK)


def hand_file(obs: Observation, png: bytes | None = None) -> discord.File:
    """The private hand picture of ``obs.seat`` (``png``: ``hand_png(obs)``
    already made); its description is the text line of the hand
    (``pictures.hand_alt``), with the outline suits whatever the deck (a screen
    reader names them as suits)."""
    with deck.use(deck.TWO):
        alt = pictures.hand_alt(obs)
    return discord.File(io.BytesIO(png if png is not None else hand_png(obs)),
                        filename=HAND_FILE, description=alt)


def attach(embed: discord.Embed, filename: str) -> discord.Embed:
    """``embed`` showing the attachment ``filename`` as its image."""
    embed.set_image(url=f"attachment://{filename}")
    return embed
