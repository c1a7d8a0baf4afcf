"""The process that runs the bot: ``app`` builds ``CommerceBot`` and owns what it
is made of, ``health`` serves /health and /metrics, ``stopping`` stops it cleanly,
``sandbox`` runs it against a fake Discord, ``copying`` is the operator's copy
between SQLite and PostgreSQL. The top of the import graph: nothing in ``bot``
imports it but the entry points (``bot/__main__.py``, ``bot/storage/__main__.py``)."""
