"""The one thing pyproject.toml cannot declare: the compiled Othello search core.

``bots/othello/_core.c`` becomes ``bots.othello._core`` at ``pip install .``. It is optional: where
no C compiler exists the build skips it and the bots play on the pure-Python engine (the same
moves, more slowly; ``bots.othello.ENGINE_NAME`` says which).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "bots.othello._core",
            ["bots/othello/_core.c"],
            optional=True,
            # -ffp-contract=off: Multi-ProbCut's bounds are computed exactly as Python computes them
            extra_compile_args=["-O2", "-ffp-contract=off"],
        )
    ],
)
