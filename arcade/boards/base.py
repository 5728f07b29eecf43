"""The contract between the one game screen and each game's board widget.

The game screen (``arcade/screens/game.py``) owns the state, the players, the bots' workers, the
side panel, the commentary pane, the move list and the screen-wide keys (``n`` new game, ``u``
undo, ``a`` analysis, ``p`` pause, ``s`` step, ``?`` help, ``q``/Escape back). A board widget only:

- draws a state: ``show(state, human)`` is called after every change; ``human`` is true when a
  human is to move, so the board shows valid-move highlights and its cursor. The last-move
  marker, ghosts, flipped discs, cut counters come from ``state.event`` alone;
- turns keys and clicks into a move: it posts ``Board.MovePicked(move)`` and the screen plays it
  (the screen checks legality again: a board never changes the state); a board drawn in a
  ``Drawing`` child gets that child's clicks in ``click_at(x, y)``;
- shows its analysis when ``analysis`` is true (the screen toggles it with ``a``). Where the
  game's bots offer an engine's analysis (``analyse(game, state)``, found by
  ``bots.registry.analyser_for``: Othello, D-Football, Robot Ludo), the screen runs it in a
  worker thread and hands the ``games.base.Analysis`` to ``show_analysis``; the board draws its
  recommended move (``recommended(state)``) and never runs an engine itself (it imports nothing
  from ``bots``), and the side panel shows the analysis's lines, or "analysing…" until it comes.
  A board whose game has no such engine works its analysis out alone, quickly or in a worker of
  its own (Hog's table, Toothpick Takeaway's multiples): ``analysis_lines(state)`` adds lines
  to the side panel and ``panel_changed()`` asks for them to be drawn again. ``comment(text)``
  adds a commentary line.

A board declares ``MIN_WIDTH``/``MIN_HEIGHT``: the terminal size the whole game screen needs for
this game with the given settings (``min_size``). Below it the screen shows an "enlarge the
terminal" notice instead of a garbled board. Design for 80×24.

Styles: a board's CSS lives in its own ``arcade/boards/<game>.tcss`` (loaded when a screen that
shows the board first opens: ``GameScreen`` and ``ReplayScreen`` add it to their ``css_path``), not in
``DEFAULT_CSS``: the board's own rules and its component classes, ``<prefix>--<name>``, whose
prefix is the board's ``COMPONENT_PREFIX``; ``style(name)`` gives the Rich style of one for
drawing (it is the app's stylesheet that sets them, so a board mounted in another app is drawn
unstyled).

Colours: in the ``.tcss``, theme variables only (``$primary``, ``$accent``, ``$success``,
``$warning``, ``$error``, ``$text-muted``, ``$foreground``, ``$boost``…), so a board follows the
theme. The two exceptions are fixed on purpose and named once in Python: the sides' colours,
``SIDE_COLOURS`` below (a colour-blind-safe blue and orange, the Othello seed's, the same under
every theme so a side keeps its colour), and data palettes such as Hog's heat map (``HEAT`` in
``hog.py``). Every highlight also has a marker character or style (bold, reverse, dim), never
colour alone.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from games.base import Analysis, Game, Move, Result, State

SIDE_COLOURS = ("#4c9be8", "#f28e2b")
"""The colours of side 0 and side 1: a colour-blind-safe blue and orange (the Othello seed's).
Game colours, not UI colours: fixed, not theme variables, so the sides look the same under every
theme (and the theme's own colours stay free for highlights)."""
SIDE_STYLES = tuple(f"bold {colour}" for colour in SIDE_COLOURS)
"""Rich styles of side 0 and side 1: their colour, bold."""


class Board(Widget, can_focus=True):
    """Base class of board widgets; see the module docstring for the contract."""

    MIN_WIDTH = 80
    MIN_HEIGHT = 24
    COMPONENT_PREFIX = "board"
    """The prefix of the board's component classes: ``style("die")`` is ``<prefix>--die``."""
    SIDE_STYLES = SIDE_STYLES
    """The Rich styles the side panel gives side 0 and side 1 (Robot Ludo swaps the pair)."""
    TYPES_LETTERS = False
    """True if the board takes letter keys (``a``…) while a human moves: the game screen then
    offers its analysis on ``A`` (shift+a) too."""

    analysis: reactive[bool] = reactive(False)

    class MovePicked(Message):
        """A human picked ``move`` on the board."""

        def __init__(self, move: Move) -> None:
            super().__init__()
            self.move = move

    class Comment(Message):
        """A line for the commentary pane from the board (e.g. its analysis verdict)."""

        def __init__(self, text: str | Text) -> None:
            super().__init__()
            self.text = text
            """Plain text, or styled (``arcade.untrusted.markup``)."""

    class PanelChanged(Message):
        """The board's ``analysis_lines`` changed (e.g. a table finished building)."""

    def __init__(self, game: Game, **kwargs) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.state: State = game.initial_state()
        self.human = False
        self.result: Result | None = None
        """The game's result when it ended off the board (a forfeit): the state shown is not over."""
        self.replaying = False
        """Shown in a replay (``arcade.screens.replay``): nobody is choosing, no key of the board's
        is offered, and ``show`` is given the game's states in order from the start."""
        self.analysed: Analysis | None = None
        """The last analysis the screen gave (``show_analysis``), perhaps of an earlier state."""

    def min_size(self) -> tuple[int, int]:
        """The terminal size the game screen needs for this board (width, height)."""
        return self.MIN_WIDTH, self.MIN_HEIGHT

    def show(self, state: State, human: bool, result: Result | None = None) -> None:
        """Draw ``state``; ``human`` says whether a human is to move (show highlights, cursor);
        ``result`` is the game's result (a forfeit ends a game whose state is not over)."""
        self.state = state
        self.human = human
        self.result = result
        self.refresh(layout=True)

    def ended(self, state: State) -> bool:
        """Whether the game is over at ``state``: by the rules, or by the result given with the
        state shown (a forfeit), so that the board reads as any ending (no "to move")."""
        return state.over or (self.result is not None and state is self.state)

    def pick(self, move: Move) -> None:
        """Post ``MovePicked`` if a human is to move and ``move`` is legal."""
        if self.human and not self.state.over and move in self.game.legal_moves(self.state):
            self.post_message(self.MovePicked(move))

    def side_style(self, side: int) -> str:
        """The Rich style the side panel gives ``side``."""
        return self.SIDE_STYLES[side]

    def style(self, name: str) -> Style:
        """The Rich style of the component class ``<COMPONENT_PREFIX>--<name>``."""
        return self.get_component_rich_style(f"{self.COMPONENT_PREFIX}--{name}")

    def comment(self, text: str | Text) -> None:
        """Add ``text`` to the commentary pane: a ``str`` as plain text, a ``Text`` (made with
        ``arcade.untrusted.markup``) styled."""
        self.post_message(self.Comment(text))

    def panel_changed(self) -> None:
        """Ask the screen to redraw the side panel (and so ``analysis_lines``)."""
        self.post_message(self.PanelChanged())

    def click_at(self, x: int, y: int) -> None:
        """A click at ``(x, y)`` in the board's ``Drawing`` (nothing by default)."""

    def show_analysis(self, analysis: Analysis | None) -> None:
        """Draw ``analysis``, the engine's look at the state shown (made in the screen's worker),
        or none (it is being made)."""
        self.analysed = analysis
        self.refresh(layout=True)

    def current_analysis(self) -> Analysis | None:
        """The analysis given for the state shown, while the analysis is on; else ``None``."""
        analysed = self.analysed
        if not self.analysis or analysed is None or analysed.state != self.state:
            return None
        return analysed

    def recommended(self, state: State) -> Move | None:
        """The analysis's move for ``state``, to mark on the board: ``None`` while the analysis is
        off, not yet given for ``state``, or has no move to recommend."""
        analysed = self.current_analysis()
        return analysed.best if analysed is not None and analysed.state == state else None

    def analysis_lines(self, state: State) -> list[str]:
        """The side panel's lines of a board that works its analysis out alone, while the
        analysis is on (Rich markup allowed); a game with an engine's analysis has its lines
        in the ``Analysis`` instead."""
        return []

    def watch_analysis(self, value: bool) -> None:
        self.refresh(layout=True)


class Drawing(Static):
    """A board's drawn part: a click on it goes to the board's ``click_at(x, y)`` (coordinates in
    the drawing)."""

    def on_click(self, event: events.Click) -> None:
        board = self.parent
        if isinstance(board, Board):
            board.click_at(event.x, event.y)
