"""The game screen's commands in the command palette (Ctrl+P): new game, switch game, analysis,
swap sides, pause or resume, the rules. Each runs what its key does (the same questions first)."""

from __future__ import annotations

from typing import Callable, Protocol

from textual.command import DiscoveryHit, Hit, Hits, Provider

from arcade.catalog import CATALOG, GameEntry


class GameActions(Protocol):
    """What the commands ask of the game screen (``arcade.screens.game.GameScreen``), which
    imports this module: named here so that this module need not import it back."""

    entry: GameEntry

    def action_new_game(self) -> None: ...
    def action_analysis(self) -> None: ...
    def request_swap(self) -> None: ...
    def action_help(self) -> None: ...
    def action_save_game(self) -> None: ...
    def action_pause(self) -> None: ...
    def action_resume(self) -> None: ...
    def available(self, action: str, parameters: tuple) -> bool: ...
    def switch_game(self, entry: GameEntry) -> None: ...


class GameCommands(Provider):
    """The commands of the game on screen."""

    def commands(self) -> list[tuple[str, str, Callable[[], None]]]:
        screen: GameActions = self.screen  # type: ignore[assignment]
        game = screen.entry
        items = [
            ("New game", f"a new {game.title} game with the same players (n)", screen.action_new_game),
            ("Analysis on/off", "show or hide the analysis: who wins, the recommended move (a)",
             screen.action_analysis),
            ("Swap sides", "a new game with each player on the other side (x)", screen.request_swap),
            ("Rules", f"the rules of {game.title} (?)", screen.action_help),
            ("Save game", "save the game as a record: arcade replay FILE steps through it (Ctrl+S)",
             screen.action_save_game),
        ]
        if screen.available("pause", ()):
            items.append(("Pause the bots", "stop the bots between moves (p)", screen.action_pause))
        if screen.available("resume", ()):
            items.append(("Resume the bots", "let the bots play on (p)", screen.action_resume))
        for other in CATALOG.values():
            if other.id != game.id:
                items.append((f"Switch game: {other.title}", f"leave this game and set up {other.title}",
                              lambda other=other: screen.switch_game(other)))
        return items

    async def discover(self) -> Hits:
        for name, help_text, callback in self.commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self.commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
