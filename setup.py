"""What pyproject.toml cannot declare: the compiled parts, both optional.

``bots/othello/_core.c`` becomes ``bots.othello._core`` at ``pip install .``: the Othello search
core. Where no C compiler exists the build skips it and the bots play on the pure-Python engine
(the same moves, more slowly; ``bots.othello.ENGINE_NAME`` says which).

``games/_othello_bits.c`` becomes ``games._othello_bits``: Othello's legal squares and flips for the
game API (``games.othello.legal_bits``, ``flip_bits``); without it the pure-Python ones play, the
same results, slower (``games.othello.BITS_IN_C`` says which).

``bots/dfootball/_solve.c`` becomes ``bots.dfootball._solve``: D-Football's exact solver for the
large boards (``bots.dfootball.prove``, who wins n = 12..15); without it the pure-Python solver
answers the same, too slowly for those boards.
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
        ),
        Extension("games._othello_bits", ["games/_othello_bits.c"], optional=True, extra_compile_args=["-O2"]),
        Extension("bots.dfootball._solve", ["bots/dfootball/_solve.c"], optional=True, extra_compile_args=["-O2"]),
    ],
)
