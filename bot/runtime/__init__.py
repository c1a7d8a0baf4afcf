"""What every Discord-facing part of the bot shares at run time: the metrics it
counts (``metrics``) and how a message or an answer is sent to Discord
(``sending``: pings, retries, replies). Imports nothing of the bot above the
service."""
