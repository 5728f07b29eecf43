"""A student's toothpick strategies whose words attack the screen that shows them
(tests/arcade/test_untrusted.py): markup that would link, style or click (a commentary that becomes a
button saving a screenshot over a file of the bot's choosing), escape sequences that set the window
title or the clipboard, a bidirectional override, and megabytes of it."""

HOSTILE = ("[bold]x[/] [/] [@click=app.screenshot('/tmp/p','x')]hi[/] [link=https://evil.example]x[/link] "
           "\x1b]0;title\x07 \x1b]52;c;cm0gLXJmIH4=\x07 \u202eexe.txt [blink red]")


def raises(left):
    """Forfeits with an exception of 4 MB of markup and escape sequences."""
    raise RuntimeError(HOSTILE + "x" * (4 << 20))


def talks(left):
    """Prints the same to its output (its log), then plays 1."""
    print(HOSTILE * 1000, flush=True)
    return 1


def invalid(left):
    """Answers a move that is markup (an invalid move, named in the forfeit's reason)."""
    return HOSTILE
