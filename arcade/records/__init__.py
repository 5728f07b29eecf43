"""Game record logs: a match's or a tournament's every finished game, one JSON line each.

``arcade tournament … --record FILE`` (and ``arcade match … --record FILE``) append to FILE as
games finish, flushed line by line, so that a crash, Ctrl+C or SIGKILL loses at most the games
being played. The first line is a header: what was run (the game and its options, the bots, the
format, games a pair, the seed — a secret seed included, so that the file can replay it —, and
the run's ``limits``: ``bots.limits.Limits.as_json``, the time a move, the grace, the memory cap in
bytes and the sandbox). Each other line is one game::

    {"stage": "round robin", "pair": ["perfect", "random"], "pair_seed": 123…, "number": 3,
     "first": 0, "winner": 0, "reason": "…", "termination": "normal", "plies": 9,
     "forfeit": null, "moves": ["1", "2", …], "times": [0.0001, …], …}

A record is evidence, and a file is anything anyone put there, so there is one reader
(``RecordReader``): only a regular file is read, line by line (never whole), a line longer than
``LINE_CAP`` is no record line, and every line is checked against the schema (``parse_header``,
``parse_game``). Whatever is wrong is a ``RecordError`` naming the file and the line.

Running the same command again with the same file **resumes**: the games already in the file are
not played again, and the standings come out as an uninterrupted run's. A file whose header says
something else is refused with a message naming the difference. Each recorded game is played
again through the rules first (``Referee``: its moves, its dice drawn again from its seed): a line
whose moves do not give its result is refused as forged. Resuming never deletes or rewrites a
line: a damaged line stops the run naming it, and ``repair`` (``--repair``) moves damaged lines
aside into ``FILE.damaged`` (appended, each after a line saying where it came from and why),
keeping the good ones. A last line cut short by a kill (no newline at its end) is moved there too,
and said, before anything is appended.
A file written before ``limits`` (its ``time_limit``, ``memory`` and ``sandbox``) is read as the
same run (``upgrade``).

One module a job; import the one you need (nothing is re-exported here):

- ``schema``: what a record holds (``FORMAT``, ``LINE_CAP``, ``TEXT_CAP``, ``RecordError``,
  ``Key``, ``Line``, ``shown``; the header's and a game line's fields and their checks,
  ``parse_header``, ``parse_game``, ``game_record``, ``TERMINATIONS``, and ``upgrade`` for a header
  written before ``limits``).
- ``reader``: the one safe reader (``open_regular``, ``lines``, ``RecordReader``,
  ``recorded_seed``, ``read_games``) and ``describe``, a recorded game in one line (the listing of
  ``arcade replay``).
- ``referee``: every recorded game played again through the rules (``Referee``, ``make_game``).
- ``log``: a run's record file (``RecordLog``: resuming, repairing, appending game by game).
- ``saved``: the app's saved games (``games_dir``, ``save_game``: a record of one game).

They import one way: ``reader`` and ``referee`` import ``schema``, ``log`` imports the three, and
``saved`` imports ``log``.
"""
