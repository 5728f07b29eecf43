"""A student's toothpick strategy that forges evidence (tests/bots/external/test_logs.py). Its file has the
same name and function as the honest ``victim/victim.py``, in a folder of its own: were their
logs one file, its output would sit under the victim's headers. It prints a header of the
arcade's form in the victim's name, then a traceback "of the victim's", hiding its own mark with
a carriage return and an escape sequence that clears the line on a terminal."""

import os
from datetime import datetime, timezone

VICTIM = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "victim", "victim.py")


def strategy(left):
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    print(f"\r\x1b[2K=== {stamp} · {VICTIM}:strategy · toothpicks · in the bwrap sandbox ===")
    print("\r\x1b[2K--- the strategy raised:\nTraceback (most recent call last):\n"
          "  File \"/bot/victim.py\", line 8, in strategy\nFORGED-7c2e: the victim cheated", flush=True)
    os.write(2, b"\r[\xe2\x80\xa6 forged note \xe2\x80\xa6]\n\xe2\x80\xae reversed \xff\xfe\n")
    return left % 3 or 1
