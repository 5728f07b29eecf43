"""The app's screens: the menu, a setup screen per game, the one game screen, help."""
