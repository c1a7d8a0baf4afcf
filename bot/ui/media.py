"""The card pictures of ``pictures`` as Discord attachments.

The public pictures (the table and the showdown) are built from the public
observation ``deal.observation(None)`` and the seats' plain names only; the
hand picture from its owner's observation, and it is only ever sent to that
owner (ephemerally). Each attachment carries a description: the picture's
text, for screen readers and clients that show no images.
"""

from __future__ import annotations

import io
import threading

import discord

from ..engine import Observation
from ..i18n import _
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


def table_png(live: LiveTable) -> bytes:
    """PNG of the current deal's table, from the public observation only."""
    deal, game = live.deal, live.game
    assert deal is not None and game is not None
    return pictures.table_png(deal.observation(None), plain_names(live), game.running_balances,
                              title=table_title(live))


def showdown_png(live: LiveTable) -> bytes:
    """PNG of the current (finished) deal's showdown, from the public observation
    and each seat's payments by reason (``payments.tallies``: public amounts)."""
    deal = live.deal
    assert deal is not None
    return pictures.showdown_png(deal.observation(None), plain_names(live),
                                 title=_("Showdown · deal {number}").format(number=live.deal_number),
                                 payments=[t.items_text() for t in payments.tallies(deal)])


def table_file(live: LiveTable) -> discord.File:
    """The table picture as an attachment (the embed shows it as ``attachment://table.png``)."""
    return picture_file(table_png(live))


def picture_file(png: bytes) -> discord.File:
    """``png``, a table picture (``table_png``), as its attachment."""
    return discord.File(io.BytesIO(png), filename=TABLE_FILE,
                        description=_("The table: seats, pool, stock and face-up cards."))


def showdown_file(live: LiveTable) -> discord.File:
    """The showdown picture as an attachment (``attachment://showdown.png``)."""
    return discord.File(io.BytesIO(showdown_png(live)), filename=SHOWDOWN_FILE,
                        description=_("Every hand of the deal, the winner and the payments."))


def hand_png(obs: Observation) -> bytes:
    """PNG of the private hand of ``obs.seat``, from its own observation only.

    Raises:
        ValueError: ``obs`` is the public observation.
    """
    return pictures.hand_png(obs)


def hand_file(obs: Observation, png: bytes | None = None) -> discord.File:
    """The private hand picture of ``obs.seat`` (``png``: ``hand_png(obs)``
    already made); its description is the text line of the hand
    (``pictures.hand_alt``)."""
    return discord.File(io.BytesIO(png if png is not None else pictures.hand_png(obs)),
                        filename=HAND_FILE, description=pictures.hand_alt(obs))


def attach(embed: discord.Embed, filename: str) -> discord.Embed:
    """``embed`` showing the attachment ``filename`` as its image."""
    embed.set_image(url=f"attachment://{filename}")
    return embed
