"""The training of Othello's learned pattern evaluation: ``python -m training.othello.train``
(``train.py``; numpy from the extra ``.[train]``), and the commands that made the shipped weights
``bots/othello/patterns.bin`` and their Multi-ProbCut calibration, in order
(``train_patterns.sh``, round 4), the unfinished round 5 on the compiled core
(``train_core.sh``), and the labels by shallow searches that fit the compute (``labels.py``,
``train_labels.sh``, issue #34). Run from the repository root; the runtime package ``bots.othello`` never
imports this one."""
