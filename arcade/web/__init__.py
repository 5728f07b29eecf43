"""The contest on the web: a static site of a contest (``arcade contest publish DIR OUT``), and the
arcade served to browsers (``arcade serve``).

The site is made from a small interface, plain data (``model``): a ``Site`` holding the
``Contest`` (the game and its options, games a pair, the points rule, the closing time, its own
rules, when it was read), the board (``arcade.contest.boardmodel.Board``, the one model of the
standings, the crosstable and each team's games that ``arcade contest standings`` and the app
format too), the teams' ``Submission``s,
the games, ``SiteGame``s (a record file's games come from ``model.games_from_record``, the
one safe reader), and a ``Closing`` stage (CS4341's groups: its standings and games, a page of
its own). ``contest`` fills it from a contest's folder; a test or the bench fills it
itself. ``publish.publish(site, OUT)`` writes it, incrementally.

One module a job:

- ``model``: the interface (``Site``, ``Contest``, ``Submission``, ``SiteGame``, ``Closing``),
  ``slug`` (a safe file name from any name) and ``games_from_record``;
- ``frames``: a game's replay, every position computed by the rules from its moves and drawn
  into JSON (the facts the terminal boards draw);
- ``render``: the Jinja2 templates (``templates/``, autoescaped) and what the pages compute
  (the crosstable's cells' classes, the closing stage's games by team, the contest's rules in
  sentences), ``json_script``, ``when`` (a time as a ``<time>``);
- ``publish``: the site written, only what changed (``Report``: pages written, kept, removed,
  seconds, size), each game's record beside its page (``game_record``); ``static/`` its style
  sheet, ``site.js`` (times in words and local time), ``replay.js`` (draws the positions, plays
  them) and the icon;
- ``contest``: a contest's folder (``arcade.contest``) as a ``Site``, and ``publish_contest``;
- ``serve``: ``arcade serve``, the app served by ``textual-serve``, one app a browser;
- ``sessions``: its sessions bounded (``Caps``): so many in all and from one address
  (``Sessions``; past a cap, ``full_page``), closed when idle (``idle_page``), each app's
  processes in a ``Budget`` of memory and processes (``SessionApp``, ``Session``).

Nothing here imports Textual but ``serve`` (which starts the app in a process of its own);
``sessions`` imports ``textual-serve``'s ``AppService``, not Textual.
"""
