"""The bot's extensions, loaded in ``bot.process.app.EXTENSIONS`` order: ``play`` (the
watch and Discord's events), ``tables``, ``ledger`` and ``help`` (subcommands of
``/commerce``) and ``admin`` (``/commerce-admin``). No cog imports another."""
