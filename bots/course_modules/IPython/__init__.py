"""A stand-in for IPython in a bot's process, for a notebook's code that does ``from
IPython.display import display, clear_output`` or ``from IPython import get_ipython``: a notebook
plays as a module in a plain Python process (``bots/external/notebook.py``), where there is no
kernel, so showing things goes to the bot's log and ``get_ipython()`` is ``None``, as IPython's own
says outside a kernel. The arcade does not install IPython; an IPython installed beside the arcade
(or in the bot's ``.deps``) comes first on the import path and is the one imported.
"""

__all__ = ["display", "get_ipython"]


def get_ipython():
    """``None``: no IPython kernel runs this code (IPython's own answer outside one)."""
    return None


from IPython.display import display  # noqa: E402 - the name IPython exports at its top
