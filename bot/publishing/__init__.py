"""What publishes to the table channels: ``after`` (the one step after every
change: an outcome becomes messages, panels and timers), ``publisher`` (the
``Publisher``: table message, offers, showdowns, lobby), ``panels`` (each
player's private panel), ``showing`` (AI moves one at a time), ``older`` (older
messages settled), ``ending`` (a table's end), ``places`` (the channels and
threads tables play in) and ``commitments`` (each lobby's fair-shuffle message)."""
