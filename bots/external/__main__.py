"""``python -m bots.external <arcade root> <arcade pid>``: the bot's process (``child_main``)."""

from bots.external.child import child_main

child_main()
