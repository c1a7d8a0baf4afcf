"""What answers interactions: ``guard`` (the frame of every handler and the one
place an error becomes a reply), ``handlers`` (what each control does),
``history`` (the /commerce history message's controls) and ``commands`` (the one
/commerce group the command cogs add to). Calls the service, answers the member,
then hands the outcome to ``bot.changes.after``."""
