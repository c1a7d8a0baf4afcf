"""The timers (``clock``): the next deal after its delay, each turn's timer
(reminder, then the AI), and the watch that makes every open table take the step
it owes. They call the service and hand each outcome to the step after every
change (``bot.changes.after``) through plain callbacks."""
