"""What members see: embeds and texts (``render``), the persistent buttons and
selects (``components``), the rules' help (``help``) and card pictures
(``pictures``, not posted by the bot yet). Embeds and pictures are drawn from
committed state and observations only; nothing here changes a table."""
