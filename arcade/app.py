"""The Textual application: menu → setup → game, with a help screen per game."""

from __future__ import annotations

from pathlib import Path

from textual import events, on
from textual.app import App
from textual.notifications import SeverityLevel

from arcade.catalog import CATALOG
from arcade.screens.menu import MenuScreen


class ArcadeApp(App[None]):
    """The arcade. ``start_game`` opens that game's setup screen over the menu; ``replay`` (a
    ``ReplayScreen``) opens a recorded game over it, ``screen`` any other screen (a contest's
    board: ``arcade contest board DIR``)."""

    TITLE = "Contest Arcade"
    SUB_TITLE = "five course-contest games"
    CSS_PATH = "arcade.tcss"
    """The app's own styles (the menu's); every other screen loads its own when it first opens
    (its ``CSS_PATH``), and a screen with a board the board's (``GameEntry.board_css_file``)."""

    def __init__(self, start_game: str | None = None, seed: int | None = None, replay=None,
                 allow_file_bots: bool = True, screen=None) -> None:
        super().__init__()
        self.allow_file_bots = allow_file_bots
        """Bots from files and tournaments are offered (``arcade serve`` turns both off unless
        ``--allow-file-bots``: a browser's user runs nothing of theirs on the server)."""
        self.start_game = start_game
        self.replay = replay
        self.first_screen = screen
        self.seed = seed
        """Seed for the dice and the bots of new games (tests fix it; None: fresh each game)."""
        self.screenshot_dir: str | None = None
        """The folder the last screenshot was to be saved in (said if it could not be)."""

    def get_default_screen(self) -> MenuScreen:
        """The menu is the app's first screen itself: no blank screen under it to lay out, and
        (unlike a mode of ``MODES``, which Textual registers with a second parse of every style)
        the styles are parsed once before the first frame."""
        return MenuScreen()

    def on_mount(self) -> None:
        from arcade import memory

        notice = memory.check()  # a settings file that is not ours: set aside, said once
        if notice is not None:
            self.notify(notice, title="Settings", severity="warning", timeout=10)
        theme = memory.last_theme()
        if theme in self.available_themes and self.theme == "textual-dark":  # not one set before mount
            self.theme = theme
        self.theme_changed_signal.subscribe(self, lambda theme: memory.remember_theme(theme.name))
        if self.start_game is not None:
            from arcade.screens.setup import SetupScreen

            self.push_screen(SetupScreen(CATALOG[self.start_game]))
        if self.replay is not None:
            self.push_screen(self.replay)
        if self.first_screen is not None:
            self.push_screen(self.first_screen)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Every notification of the app (a widget's ``notify`` comes here): its text cleaned and
        capped (``arcade.untrusted.clean``: a path, an error's message) and never read as markup,
        whatever ``markup`` says."""
        from arcade.untrusted import clean

        super().notify(clean(message, multiline=True), title=clean(title), severity=severity, timeout=timeout,
                       markup=False)

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """A screenshot (the command palette's, or ``app.screenshot``) saved in ``path`` if given,
        else in ``screenshot_folder()``: Textual's default, the Downloads folder, fails on an
        account that has none."""
        folder = path if path is not None else str(screenshot_folder())
        self.screenshot_dir = folder
        return super().deliver_screenshot(filename, folder, time_format)

    @on(events.DeliveryFailed)
    def screenshot_failed(self, event: events.DeliveryFailed) -> None:
        """Say where a screenshot could not be saved, and why (Textual's notice says neither)."""
        if event.name == "screenshot":
            event.prevent_default()
            error = event.exception
            why = getattr(error, "strerror", None) or str(error) or type(error).__name__
            where = self.screenshot_dir
            self.notify(f"Could not save the screenshot{f' in {where}' if where else ''}: {why}",
                        title="Screenshot", severity="error")

    @on(events.DeliveryComplete)
    def screenshot_saved(self, event: events.DeliveryComplete) -> None:
        """Say where a screenshot went, the path as plain text (Textual's own notice reads it as
        markup: a folder named ``x[/]y`` would break it)."""
        if event.name == "screenshot":
            event.prevent_default()
            self.notify(f"Saved screenshot to {event.path}" if event.path else "Saved screenshot", title="Screenshot")


def screenshot_folder() -> Path:
    """Where a screenshot goes: the account's Downloads folder where it has one (``XDG_DOWNLOAD_DIR``,
    else ``~/Downloads``), else the folder the arcade was started in, else the temporary folder
    (whichever can be written first). Nothing is created: the notification says the path."""
    import os
    import tempfile

    from platformdirs import user_downloads_path

    for folder in (user_downloads_path(), Path.cwd(), Path(tempfile.gettempdir())):
        if folder.is_dir() and os.access(folder, os.W_OK | os.X_OK):
            return folder
    return Path.cwd()
