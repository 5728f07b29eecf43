"""Tournaments between bots (built-in and file bots), as the courses ran their contests.

One module a job; import the one you need (nothing is re-exported here, so that the formats and
the plan come without the process pool):

- ``formats``: the formats and their standings, pure (``FORMATS``, ``DEFAULT_GAMES``,
  ``TournamentError``, ``PairResult``, ``Standing``, ``tally``, ``round_robin_standings``,
  ``Group``, ``Round``, ``TournamentResult``; ``run_groups`` plays the groups format through
  whatever plays a stage's pairs, and ``group_sizes``/``planned_pairs`` count it).
- ``plan``: what a tournament will play, checked before anything runs (``check``, ``pairs_in``,
  ``planned_games``, ``TournamentPlan``, ``plan``, ``check_files``).
- ``jobs``: how many processes play it when ``--jobs`` is not given: ``Pace``, the games' own
  pace as the run plays them (``Runner`` asks ``Pace.fan_out`` after each chunk), and the plan's
  estimate ``--plan`` prints (``probe``, ``estimate``, ``choose``, ``plan_jobs``).
- ``worker``: what a worker process runs, a chunk of a pair's games (``CHUNK``, ``chunk_size``,
  ``Task``, ``Setup``, ``run_task``, ``worker_init``, ``die_with``, ``run_task_streaming``); its
  docstring says why the same seed gives the same games with any number of processes.
- ``cluster``: a Dask cluster's part (``connect``, ``pack_bots``, ``bundle_data``,
  ``run_cluster_task``), and ``bundles``: a file bot's folder as it travels to a cluster (its
  regular files only, capped, named by its SHA-256 and checked again on the worker).
- ``pool``: the local pool's semaphores, named in ``/dev/shm`` only until every worker holds
  them (``sealing_context``, ``Seal``, ``seal``), so that a run killed with ``kill -9`` leaves none
  behind and its resource tracker nothing to warn about.
- ``runner``: the games played here, over local processes or on a cluster, each appended to the
  record as it ends (``mp_context``, ``start_helpers``, ``Runner``, ``chunk_result``), and
  ``run_tournament``, which puts the plan, the runner and the format together.

They import one way (``tests/architecture/test_imports.py`` fails on a cycle): ``plan`` and ``cluster`` import
``formats``, ``cluster`` and ``jobs`` import ``worker``, ``runner`` imports them all, and only the
front ends (the command, the screen) import ``runner``. A worker process imports ``worker`` (on a
cluster, ``cluster``) by these paths: its tasks and their functions are pickled by reference.
"""
