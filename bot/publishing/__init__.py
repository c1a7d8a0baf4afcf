"""What publishes to the table channels: ``publisher`` (the ``Publisher``: table
message, offers, showdowns, lobby), ``panels`` (each player's private panel),
``showing`` (AI moves one at a time), ``countdowns`` (what the messages show of
the timers), ``older`` (older messages settled), ``ending`` (a table's end),
``places`` (the channels and threads tables play in) and ``commitments`` (each
lobby's fair-shuffle message). Nothing here knows the timers: the one step after
every change (``bot.changes.after``) arms them from what is shown."""
