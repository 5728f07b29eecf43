"""Contest seasons: submissions arriving over weeks, each new one played against the field, a live
board and the course's points (``arcade contest …``), as the courses ran their contests.

A contest is a folder the instructor owns::

    DIR/contest.toml        what the contest is (game, options, games a pair, limits, rules); human-readable
    DIR/secret              the contest's secret seed (0600; never in contest.toml, never shown to a bot)
    DIR/submissions.jsonl   every submission's verdict, one JSON line each, appended (evidence)
    DIR/submissions/DIGEST/ each accepted or tried submission's files, named by their SHA-256
                            (and the packages installed for it, DIGEST/TOP/.deps)
    DIR/records/A--B.jsonl  each pair's games (``arcade.records``: the evidence, checked on every read)
    DIR/ladder.jsonl        a ladder's rounds, each written before its games are played (evidence)
    DIR/tables/DIGEST.json  Hog's exact scoring: what asking a submission for its table came to (evidence)
    DIR/records/closing.jsonl  the closing stage's games (players by digest, its seed derived from the secret)
    DIR/closing.json        the closing stage's standings (CS4341's: each team's extra credit)
    DIR/contest.db          the SQLite database every command reads (WAL): a cache of the evidence
    DIR/pace.json           what the season's games cost on this machine (``pace``: status's estimate)
    DIR/probes/DIGEST.json  a submission's seconds a move in its admission probe (the same estimate's)
    DIR/inbox/TEAM/...      a drop folder ``run --watch`` submits from

One module a job; import the one you need:

- ``config``: ``contest.toml`` (``Config``, ``PRESETS``, ``load``, ``create``), the secret seed,
  the team-name rule and the closing time; ``ContestError``, every message for the user.
- ``db``: the database (``Database``: WAL, a busy timeout, one transaction a write).
- ``store``: a submission's files copied in (regular files only, capped, content-addressed; the
  hand-in grammar ``FILE``, ``FOLDER``, ``FOLDER:FILE[:FUNCTION]``, a CS4341 program's
  ``FOLDER[:program]``; the file that plays found in a folder; the team a hand-in names) and the
  submissions log.
- ``packages``: a hand-in's own packages (its ``requirements.txt``), installed into its kept copy
  when the contest allows them.
- ``probe``: the admission probe (the bot loads in the sandbox and answers positions of real games).
- ``pace``: what the season's games cost (each bot's answering apart from the rest) and the
  estimate of the games missing, each pair at its two bots' own pace.
- ``submit``: ``submit``, the verdict of one submission in one line.
- ``evidence``: the pairs' record files (``PairLogs``) and ``rebuild``, the database made again from them.
- ``formats``: a season's format as one strategy (``format_of``: ``AllPairs`` with exact scoring
  as its option, ``Ladder``): its next games, its score, its columns, its progress lines; nothing
  else branches on a format's name.
- ``run``: ``run`` (exactly the games missing, the format's next games at a time: ``play_batch``,
  ``missing_pairs``, streamed to the records and the database; with ``watch``, the inbox too),
  ``ContestRunner`` (the tournament's runner given the contest's tasks), ``Publisher`` (the site's
  keeper a command hands it); what it says as it goes (``field_text``, each batch's pairs,
  ``waiting_text``) and ``Tally``, the games of a batch as they end.
- ``standings``: what a score and a rank are, and the points rule (``points``; CS4341's extra
  credit comes from ``closing``).
- ``boardmodel``: the one board (``Board``, ``build``): the standings, the crosstable, each team's
  page, the closing stage, each cell's text and ``as_json``; the command, the app's board and the
  site only format it.
- ``board``: what the app's live board reads (``Snapshot``, a team's page with its log, a game's
  replay, the ``version`` it polls).
- ``closing``: a format's closing stage once the contest has closed (CS4341's groups; with its
  points, each team's original player against its new one first, then the extra credit).
- ``ladder``: ``format = "ladder"``: OpenSkill ratings, each round's meetings where a game tells
  most, the stopping rule.
- ``public``: what a student may see (``Public``: a reason's public form, ``text``, ``json``,
  ``board``: no path of the machine, no log's place, no host name, no secret), applied to the
  site and ``standings --json``/``--csv``.
- ``hog_exact``: Hog's exact scoring (a strategy's table asked in the sandbox within ``table_seconds``, in
  two fresh processes; ``games.hog_solver``; its win rate against ``always_roll(6)``).
"""
