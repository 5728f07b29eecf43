"""The contest on the web: a static site of a contest (``arcade contest publish DIR OUT``), and the
arcade served to browsers (``arcade serve``).

The site is made from a small interface, plain data (``model``): a ``Site`` holding the
``Contest`` (the game and its options, games a pair, the points rule, the closing time, its own
rules, when it was read), the standings (rows of rank, team, score, wins, draws, losses, games,
forfeits, points, submitted: ``arcade contest standings --json``'s), the teams' ``Submission``s,
the games, ``SiteGame``s (a record file's games come from ``model.games_from_record``, the
one safe reader), and a ``Closing`` stage (CS4341's groups: its standings and games, a page of
its own). ``contest`` fills it from a contest's folder; a test or the bench fills it
itself. ``publish.publish(site, OUT)`` writes it, incrementally.

One module a job:

- ``model``: the interface (``Site``, ``Contest``, ``Submission``, ``SiteGame``, ``Closing``, ``COLUMNS``),
  ``slug`` (a safe file name from any name) and ``games_from_record``;
- ``frames``: a game's replay, every position computed by the rules from its moves and drawn
  into JSON (the facts the terminal boards draw);
- ``render``: the Jinja2 templates (``templates/``, autoescaped) and what the pages compute
  (crosstable, each team's games, the contest's rules in sentences), ``json_script``;
- ``publish``: the site written, only what changed (``Report``: pages written, kept, removed,
  seconds, size); ``static/`` its style sheet and ``replay.js``, which draws the positions;
- ``contest``: a contest's folder (``arcade.contest``) as a ``Site``, and ``publish_contest``;
- ``serve``: ``arcade serve``, the app served by ``textual-serve``, one app a browser.

Nothing here imports Textual but ``serve`` (which starts the app in a process of its own).
"""
