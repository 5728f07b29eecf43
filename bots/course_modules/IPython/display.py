"""``IPython.display`` in a bot's process (see the package's docstring): what a notebook shows is
printed to the bot's log, and clearing it does nothing."""

__all__ = ["HTML", "Image", "Latex", "Markdown", "Math", "Pretty", "clear_output", "display"]


def display(*objects, **_options) -> None:
    """Print each object (its ``repr``, as a notebook's plain-text view does) to the bot's log."""
    for item in objects:
        print(repr(item))


def clear_output(wait: bool = False) -> None:
    """Nothing to clear: the output is a log."""


class _Shown:
    """Something a notebook renders (HTML, Markdown…): kept as its text."""

    def __init__(self, data=None, *_args, **_options) -> None:
        self.data = data

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {str(self.data)[:200]}>"


class HTML(_Shown):
    pass


class Markdown(_Shown):
    pass


class Latex(_Shown):
    pass


class Math(_Shown):
    pass


class Image(_Shown):
    pass


class Pretty(_Shown):
    pass
