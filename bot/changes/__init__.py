"""The one step after every change (``after``): an ``Outcome`` of the table
service becomes messages and panels (through ``bot.publishing``) and the timers
it arms (``bot.timers``). It sits above both, so that the wiring goes one way:
the timers show what they change through its callbacks, and the publisher knows
no timer (docs/ARCHITECTURE.md, "After a change")."""
