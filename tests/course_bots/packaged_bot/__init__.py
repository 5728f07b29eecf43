"""A Robot Ludo entry written as a package: its engine lives in a submodule and uses relative
imports (``arcade match ludo packaged_bot:engine random``)."""

from .engine import engine
