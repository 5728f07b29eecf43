"""Offline pipelines that make the data the bots ship with (not part of the installed arcade:
playing needs only their results, such as ``bots/othello/patterns.bin``)."""
