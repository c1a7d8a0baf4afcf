"""The coach's hint as a member reads it (docs/AI.md "Coach"): the move named as
its panel button names it ("Trade K♡ and knock", "Take the widow"), then the
reason, in the member's language: "Trade K♡ — your pair of kings would win only
about 31% of showdowns as it is." The game record keeps the engine's English
(``TableService.hint``); this is the line the panel shows.
"""

from __future__ import annotations

from ..engine import choices, coach
from ..i18n import N_, _
from ..service import LiveTable
from ..service.actions import Hint
from . import panel
from .words import hand_words

#: ``coach.REASONS``, marked for the catalog (tests/ui/test_hints.py: the same)
REASONS = (N_("it is the choice that does best for the hands you could hold"),
           N_("your {hand} wins about {share}% of showdowns here"),
           N_("your {hand} would win only about {share}% of showdowns as it is"))


def hint_text(live: LiveTable, hint: Hint) -> str:
    """The line of ``hint`` for the member it was made for, in the current
    language and deck: the move as its button says it, a dash, the reason."""
    decision, obs = hint.advice.decision, hint.obs
    assert obs.seat is not None
    move = panel.pick_label(choices.control(decision), decision, obs, live,
                            panel.neighbour_name(live, live.deal, obs.seat)
                            if live.deal is not None else None)
    template, fields = coach.reason(hint.advice, obs)
    if "hand" in fields:
        fields["hand"] = hand_words(str(fields["hand"]))
    reason = _(template).format(**fields)
    return f"{move} — {reason}."
