"""The contest on the web in a real browser (Debian's headless Chromium, driven by Selenium through
its chromedriver): the leaderboard shows the standings ``arcade contest standings`` computed, a
hostile team name and reason are text (no script runs, no console error); every game's replay
steps forward and back with the keys and shows the rules' position at each step, and its board
fits a phone's width; the pages fit 400 px and 1280 px with long names cut only between words or
with an ellipsis; a replay plays and pauses, to its end; times are in words and local time;
``arcade serve`` shows the menu (its icon served, no 404 in its log) and a game of Toothpick
Takeaway is played to the end by key presses; past its cap a browser gets the page that says the
arcade is full, and an idle one is sent to the page that says why it was closed.

Without ``chromium`` and ``chromedriver`` these tests skip, except under
``ARCADE_REQUIRE_BROWSER=1`` (CI installs both and sets it), where they fail."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from arcade import cli
from arcade.catalog import CATALOG
from arcade.web.model import slug
from arcade.web.publish import publish
from games.othello import square_name
from tests.arcade.web.helpers import HOSTILE, facts, played, site, site_game

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SHOTS = os.environ.get("ARCADE_WEB_SHOTS")  # a folder: the tests leave their screenshots there


def wait_for(condition, deadline: float = 60.0, what: str = "the condition"):
    """``condition()``'s first true value, waited for (a busy machine is slow, never wrong)."""
    start = time.monotonic()
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() - start < deadline, f"{what} did not happen in {deadline:.0f} s"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and DRIVER):
        if os.environ.get("ARCADE_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium and chromedriver are needed (apt-get install chromium chromium-driver)")
        pytest.skip("no chromium and chromedriver (Debian's chromium, chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,1000", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(120)
    yield driver
    driver.quit()


def shot(driver, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(SHOTS) / f"{name}.png"))


def console_errors(driver) -> list[dict]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def press(driver, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


WIDTHS = (400, 1280)
"""A phone's width and a laptop's: every page is checked at both."""


@contextmanager
def width(driver, pixels: int):
    """The page's viewport ``pixels`` wide (Chromium's device metrics: a window is never narrower
    than 500 px), the page loaded again in it; the window's own after."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": pixels, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    try:
        driver.refresh()
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


OVERFLOW = """
const wide = [...document.querySelectorAll("body *")].filter((node) => node.getBoundingClientRect().right > innerWidth + 0.5
  && !node.closest(".scroll, .prose table")).slice(0, 5).map((node) => node.tagName + "." + node.className);
return [document.documentElement.scrollWidth, innerWidth, wide];
"""
"""The page's width, the viewport's, and what reaches past the viewport's right edge (but in a
box that scrolls by itself)."""


def fits(driver) -> None:
    page, viewport, wide = driver.execute_script(OVERFLOW)
    assert page <= viewport and wide == [], (driver.current_url, page, viewport, wide)


# -- the leaderboard ----------------------------------------------------------------------------

def test_the_leaderboard_shows_the_contests_standings_and_hostile_texts_as_text(browser, tmp_path, capsys,
                                                                                 monkeypatch):
    from arcade.contest.run import run
    from arcade.contest.submit import submit

    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    folder = tmp_path / "c"
    assert cli.main(["contest", "new", str(folder), "--game", "toothpicks", "--games", "4", "--sandbox", "none"]) == 0
    bots = {"alpha": "def strategy(left):\n    return 1\n", "bravo": "def strategy(left):\n    return min(2, left)\n",
            "mallory": "def strategy(left):\n    raise ValueError('<script>window.__pwned=1</script>')\n"}
    for team, source in bots.items():
        (tmp_path / f"{team}.py").write_text(source)
        submit(folder, team, str(tmp_path / f"{team}.py"))
    path = folder / "contest.toml"  # closed, with CS4341's groups to close it
    path.write_text(path.read_text().replace('closing_stage = ""', 'closing_stage = "groups"')
                    .replace('closes = ""', 'closes = "2020-01-01T00:00:00Z"'))
    run(folder, say=lambda line: None)
    capsys.readouterr()
    assert cli.main(["contest", "standings", str(folder), "--json"]) == 0
    computed = json.loads(capsys.readouterr().out)["standings"]
    assert cli.main(["contest", "publish", str(folder), str(tmp_path / "site")]) == 0
    browser.get((tmp_path / "site" / "index.html").as_uri())
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#leaderboard tbody tr')].map(r => [...r.cells].map(c => c.textContent.trim()))")
    shown = [[r[0].lstrip("★ "), r[1], *r[2:9]] for r in rows]
    keys = ("rank", "team", "score", "wins", "draws", "losses", "games", "forfeits", "points")
    assert shown == [[f"{row[k]:g}" if isinstance(row[k], float) else str(row[k]) for k in keys] for row in computed]
    shot(browser, "leaderboard")
    browser.get((tmp_path / "site" / "teams" / f"{slug('mallory')}.html").as_uri())
    reason = browser.execute_script("return document.querySelector('#submissions td.reason').textContent")
    assert "<script>window.__pwned=1</script>" in reason
    assert browser.execute_script("return window.__pwned === undefined")
    browser.get((tmp_path / "site" / "closing.html").as_uri())
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#closing-standings tbody tr')].map(r => [...r.cells].map(c => c.textContent.trim()))")
    closing = json.loads((folder / "closing.json").read_text())["standings"]
    assert [[r[0].lstrip("★ "), r[1], r[2]] for r in rows] == [[str(c["rank"]), c["team"], c["stage"]] for c in closing]
    shot(browser, "closing")
    assert console_errors(browser) == []


def test_a_hostile_team_name_is_text_on_every_page(browser, tmp_path):
    _game, states, moves = played("othello", 4)
    data = site("othello", [HOSTILE, "plain"], [site_game("g/1", (HOSTILE, "plain"), states, moves)])
    publish(data, tmp_path / "site")
    pages = [tmp_path / "site" / "index.html", tmp_path / "site" / "teams" / f"{slug(HOSTILE)}.html",
             tmp_path / "site" / "games" / f"{slug('g/1')}.html"]
    for page in pages:
        browser.get(page.as_uri())
        text = browser.execute_script("return document.body.innerText")
        assert HOSTILE in text, page
        assert browser.execute_script("return window.__pwned === undefined && document.images.length === 0")
        assert console_errors(browser) == []
    shot(browser, "hostile-game")


# -- every game's replay ------------------------------------------------------------------------

READ_BOARD = {
    "dfootball": "({pieces: [...document.querySelectorAll('#board td[data-piece]')].map(td => td.dataset.piece || '.').join('')})",
    "othello": "Object.fromEntries([...document.querySelectorAll('#board [data-disc]')].map(c => [c.dataset.square, c.dataset.disc || '.']))",
    "ludo": "({red: [...document.querySelectorAll('#board .ludo-sq')].map(c => [+c.dataset.square, +c.dataset.red]),"
            " blue: [...document.querySelectorAll('#board .ludo-sq')].map(c => [+c.dataset.square, +c.dataset.blue]),"
            " pens: [...document.querySelectorAll('#board .ludo-count')].map(c => +c.dataset.pen)})",
    "hog": "({scores: [...document.querySelectorAll('#board .hog-score')].map(s => +s.dataset.score)})",
    "toothpicks": "({left: document.querySelectorAll('#board .stick:not(.gone)').length})",
}
"""What each game's drawing shows, read from the page (an expression)."""

WALK = """
const read = () => (%s);
const key = (name) => document.dispatchEvent(new KeyboardEvent("keydown", {key: name, bubbles: true}));
const seen = [];
key("Home");
for (;;) {
  seen.push([+document.getElementById("board").dataset.step, read(), document.getElementById("status").textContent,
             [...document.querySelectorAll("#commentary li")].slice(-3).map((li) => li.textContent)]);
  if (document.getElementById("on").disabled) { return seen; }
  key("ArrowRight");
}
"""
"""Every step from the start to the end, one → at a time: what each one drew."""


def shown(game_id: str, board: dict) -> dict:
    if game_id == "othello":
        return {"discs": "".join(board[square_name(sq)] for sq in range(64))}
    if game_id == "ludo":
        return {side: [count for _square, count in sorted(board[side])] for side in ("red", "blue")} | {"pens": board["pens"]}
    return board


def drawn(driver, game_id: str) -> dict:
    return shown(game_id, driver.execute_script(f"return {READ_BOARD[game_id]}"))


@pytest.mark.parametrize("game_id", list(CATALOG))
def test_each_games_replay_steps_with_the_keys_through_the_rules_positions(browser, tmp_path, game_id):
    options = {"ludo": {"preset": "contest"}, "dfootball": {"n": 11}}.get(game_id)  # the contests' long games
    game, states, moves = played(game_id, 11, options)
    publish(site(game_id, ["ann", "bob"], [site_game("g/1", ("ann", "bob"), states, moves)], options), tmp_path / "site")
    browser.get((tmp_path / "site" / "games" / f"{slug('g/1')}.html").as_uri())
    step_of = "const b = document.getElementById('board'); return b ? b.dataset.step : null"  # null: not yet
    wait_for(lambda: browser.execute_script(step_of) is not None, what="the replay's first drawing")
    last = len(states) - 1
    keys = ["\ue014"] * min(last, 30) + ["\ue012"] * 3 + ["\ue010", "\ue012", "\ue011", "\ue014", "\ue014"]
    commentator = game.commentator()
    said = [[]] + [commentator.see(state) for state in states[1:]]  # the commentary's lines at each step
    heard = [sum(len(lines) for lines in said[:step + 1]) for step in range(len(states))]
    step = 0
    for key in [None, *keys]:
        if key is not None:
            press(browser, key)
            step = {"\ue014": min(last, step + 1), "\ue012": max(0, step - 1), "\ue010": last, "\ue011": 0}[key]
        wait_for(lambda: browser.execute_script(step_of) == str(step), what=f"step {step} drawn")
        assert drawn(browser, game_id) == facts(game_id, states[step]), f"step {step}"
        assert browser.execute_script("return document.getElementById('status').textContent") == game.describe(states[step])
        assert browser.execute_script("return document.querySelectorAll('#commentary li').length") == heard[step]
        if step == min(last, 30):
            shot(browser, f"replay-{game_id}")
    walked = browser.execute_script(WALK % READ_BOARD[game_id])
    assert [step for step, *_rest in walked] == list(range(len(states)))
    for (step, board, status, latest), state in zip(walked, states):  # every step, the rules' position
        assert shown(game_id, board) == facts(game_id, state), f"step {step}"
        assert status == game.describe(state), f"step {step}"
        assert latest == [line for lines in said[:step + 1] for line in lines][-3:], f"step {step}"
    for pixels in WIDTHS:  # the whole board in its box, drawn smaller on a phone, and the page no wider
        with width(browser, pixels):
            fits(browser)
            inside = browser.execute_script(BOARD_INSIDE)
            assert inside["board"] <= inside["room"] and inside["out"] == 0, (pixels, inside)
            shot(browser, f"replay-{game_id}-{pixels}")
    assert console_errors(browser) == []


BOARD_INSIDE = """
const board = document.getElementById("board"), box = board.getBoundingClientRect();
const out = [...board.querySelectorAll("[data-square], .stick")].filter((node) => {
  const r = node.getBoundingClientRect(); return r.left < box.left - 0.5 || r.right > box.right + 0.5; });
return {board: board.scrollWidth, room: board.clientWidth, out: out.length};
"""
"""Whether the board's drawing fits its box: no square (or toothpick) past its edges, nothing to
scroll to."""


# -- a phone's width, long names, playing, times ---------------------------------------------------

UNBROKEN = "supercalifragilisticexpialidocious_and_then_some_more_team"
WORDY = "the quick brown fox jumps over the lazy dog"

BROKEN_NAMES = r"""
const broken = [];
for (const node of document.querySelectorAll(".name")) {
  const text = node.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) { continue; }
  const range = document.createRange();
  let top = null;
  for (let i = 0; i < text.length; i++) {
    range.setStart(text, i); range.setEnd(text, i + 1);
    const rect = range.getClientRects()[0];
    if (!rect) { continue; }
    if (top !== null && rect.top > top + 2 && /\S/.test(text.data[i - 1]) && /\S/.test(text.data[i])) {
      broken.push(text.data); break;
    }
    top = rect.top;
  }
}
return broken;
"""
"""The names drawn on two lines with the break inside a word."""

NAMES = """
return [...document.querySelectorAll(".name")].filter((node) => node.offsetParent !== null)
  .map((node) => [node.textContent, node.title, node.scrollWidth > node.clientWidth + 1]);
"""
"""Each name shown: its text, its title, whether an ellipsis cuts it."""


def test_the_pages_fit_a_phone_and_names_break_only_between_words(browser, tmp_path):
    from dataclasses import replace

    from arcade.web.model import Closing

    teams = [UNBROKEN, WORDY, "ann"]
    games, finals = [], []
    for number, pair in enumerate(((UNBROKEN, WORDY), (WORDY, "ann"), ("ann", UNBROKEN)), start=1):
        _game, states, moves = played("toothpicks", number)
        games.append(site_game(f"g/{number}", pair, states, moves, number))
        finals.append(replace(site_game(f"closing/final/{number}", pair, states, moves, 1), stage="final"))
    data = site("toothpicks", teams, games)
    data.closing = Closing("groups", [dict(rank=i + 1, team=team, wins=1, draws=0, losses=1, games=2, forfeits=0,
                                           points=1, stage="final") for i, team in enumerate(teams)], finals)
    out = tmp_path / "site"
    publish(data, out)
    pages = [out / "index.html", out / "teams" / f"{slug(UNBROKEN)}.html", out / "teams" / f"{slug(WORDY)}.html",
             out / "closing.html", out / "rules.html", out / "games" / f"{slug('g/1')}.html"]
    for page in pages:
        browser.get(page.as_uri())
        for pixels in WIDTHS:
            with width(browser, pixels):
                fits(browser)
                assert browser.execute_script(BROKEN_NAMES) == [], (page.name, pixels)
                names = browser.execute_script(NAMES)
                assert all(title == text for text, title, _cut in names), (page.name, pixels)
                assert names or page.name == "rules.html"
                if pixels == 400 and names:
                    cut = {text for text, _title, is_cut in names if is_cut}
                    assert UNBROKEN in cut, page.name  # too long for a phone: cut with an ellipsis
                shot(browser, f"fit-{page.stem[:12]}-{pixels}")
    assert console_errors(browser) == []


def test_a_replay_plays_and_pauses_to_its_end_and_offers_its_record(browser, tmp_path):
    """Play (or Space) steps the game on by itself, the step counter with it; Pause (Space again)
    stops it there; at the fastest speed it plays to the end and stops, Play again from the start.
    A step chosen by hand pauses it. The download link names the game's record beside the page."""
    _game, states, moves = played("dfootball", 3, {"n": 5})
    publish(site("dfootball", ["ann", "bob"], [site_game("g/1", ("ann", "bob"), states, moves)], {"n": 5}),
            tmp_path / "site")
    browser.get((tmp_path / "site" / "games" / f"{slug('g/1')}.html").as_uri())
    step_of = "const b = document.getElementById('board'); return b ? b.dataset.step : null"  # null: not yet
    wait_for(lambda: browser.execute_script(step_of) is not None, what="the replay's first drawing")
    last = len(states) - 1
    counter = lambda: browser.execute_script("return document.getElementById('step').textContent")  # noqa: E731
    pressed = lambda: browser.execute_script("return document.getElementById('play').getAttribute('aria-pressed')")  # noqa: E731
    assert counter() == f"0 / {last}" and pressed() == "false"
    browser.find_element("id", "play").click()  # 2 moves a second
    wait_for(lambda: counter() != f"0 / {last}", 10, "a step played")
    assert pressed() == "true"
    press(browser, " ")  # the focus on the Play button: Space pauses, once
    paused = counter()
    time.sleep(1.2)
    assert counter() == paused and pressed() == "false" and paused != f"{last} / {last}"
    press(browser, " ")
    wait_for(lambda: counter() != paused, 10, "playing again")
    press(browser, "\ue012")  # ← pauses it
    assert pressed() == "false"
    browser.execute_script("const s = document.getElementById('speed'); s.value = '32'; s.dispatchEvent(new Event('change'))")
    press(browser, " ")
    wait_for(lambda: pressed() == "false", 30, "the end")
    assert counter() == f"{last} / {last}" and browser.execute_script("return document.getElementById('board').dataset.step") == str(last)
    time.sleep(0.3)
    assert counter() == f"{last} / {last}"
    press(browser, " ")  # at the end, Play starts again from the start
    wait_for(lambda: counter() != f"{last} / {last}", 10, "a new start")
    press(browser, " ")
    href = browser.execute_script("return document.getElementById('record').href")
    record = Path(href.removeprefix("file://"))
    assert record.parent == tmp_path / "site" / "games" and record.suffix == ".jsonl"
    header, line = (json.loads(text) for text in record.read_text().splitlines())
    assert header["game"] == "dfootball" and line["moves"] == list(moves)
    assert console_errors(browser) == []


def test_times_read_in_words_and_the_browsers_local_time(browser, tmp_path):
    """In Kolkata (UTC+5:30): the site updated 3 minutes ago says so, a submission of a year ago
    gives its date and time there; both titles the local time and the exact time."""
    from datetime import datetime, timedelta, timezone

    _game, states, moves = played("toothpicks", 2)
    updated = (datetime.now(timezone.utc) - timedelta(minutes=3)).isoformat(timespec="seconds")
    publish(site("toothpicks", ["ann", "bob"], [site_game("g/1", ("ann", "bob"), states, moves)], updated=updated),
            tmp_path / "site")
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Kolkata"})
    try:
        browser.get((tmp_path / "site" / "index.html").as_uri())
        said = browser.execute_script(
            "return Object.fromEntries(['updated', 'leaderboard'].map((id) => [id,"
            " [...document.getElementById(id).querySelectorAll('time')].map((t) => [t.textContent, t.title])]))")
    finally:
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
    [(text, title)] = said["updated"]
    assert text == "3 minutes ago" and title.endswith(f"(your time) · {updated}") and "GMT+5:30" in title
    for text, title in said["leaderboard"]:  # 2025-03-01T10:00:00+00:00: 15:30 in Kolkata
        assert "2025" in text and "15:30" in text and "UTC" not in text
        assert "15:30:00" in title and title.endswith("(your time) · 2025-03-01T10:00:00+00:00")
    assert len(said["leaderboard"]) == 2


# -- arcade serve -------------------------------------------------------------------------------

CAPTURE = """
window.__screen = "";
const decoder = new TextDecoder();
const Native = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
  socket.addEventListener("message", (event) => {
    if (event.data instanceof ArrayBuffer) { window.__screen += decoder.decode(event.data, {stream: true}); }
  });
  return socket;
};
window.WebSocket.prototype = Native.prototype;
for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) { window.WebSocket[name] = Native[name]; }
"""
"""Kept beside the page's own script: what the served app writes to the browser's terminal."""

ESCAPES = re.compile(r"\x1b\[[0-9;?<>=]*[A-Za-z~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[PX^_].*?\x1b\\|\x1b.", re.S)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_arcade_serve_plays_toothpick_takeaway_to_the_end_by_keys(browser, tmp_path):
    port = free_port()
    command = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", "serve", "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "COLUMNS": "200"})
    try:
        said = server.stdout.readline()
        assert f"listening at http://127.0.0.1:{port}/, on loopback only" in said
        assert "bots from files and tournaments are off" in server.stdout.readline()
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CAPTURE})
        browser.get(f"http://127.0.0.1:{port}/")
        screen = lambda: ESCAPES.sub("", browser.execute_script("return window.__screen"))  # noqa: E731
        wait_for(lambda: "Choose a game" in screen() and "Toothpick Takeaway" in screen(), 120, "the menu")
        assert "Tournament" not in screen()  # tournaments are off without --allow-file-bots
        shot(browser, "serve-menu")
        browser.execute_script("document.querySelector('.xterm-helper-textarea').focus()")
        press(browser, "\ue015")  # down: Toothpick Takeaway
        press(browser, "\ue007")  # enter: its setup
        wait_for(lambda: "Players" in screen(), 60, "the setup screen")
        assert "from a file" not in screen()
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        ActionChains(browser).key_down(Keys.CONTROL).send_keys("s").key_up(Keys.CONTROL).perform()
        wait_for(lambda: "toothpick" in screen().split("Players")[-1], 60, "the game")
        end = re.compile(r"Player [12] took the last toothpick and wins")
        start = time.monotonic()
        while not end.search(screen()):
            assert time.monotonic() - start < 180, "the game did not end"
            press(browser, "1")
            time.sleep(0.5)
        shot(browser, "serve-game-over")
        assert end.search(screen())
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[0]
    assert '"GET /favicon.svg HTTP/1.1" 200' in log and '" 404 ' not in log  # the page's icon is served


def test_arcade_serve_shows_a_browser_past_its_cap_and_an_idle_one_a_page_that_says_so(browser):
    """``arcade serve --max-sessions 1``: a second tab gets the page that says the arcade is full;
    the first, idle for its 15 s, is sent to the page that says why it was closed (the page
    script's ``open_url``, as a websocket refused past a cap is); the second's "Try again" then
    opens an arcade."""
    from selenium.webdriver.common.by import By

    port = free_port()
    command = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", "serve", "--port", str(port),
               "--max-sessions", "1", "--idle-minutes", "0.25"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "COLUMNS": "300"})
    first = browser.current_window_handle
    # the page's websocket is open (no body yet while the page is still loading: not yet, no error)
    loaded = "return !!document.body && document.body.classList.contains('-loaded')"
    try:
        assert "listening at" in server.stdout.readline()
        browser.get(f"http://127.0.0.1:{port}/")
        wait_for(lambda: browser.execute_script(loaded), 120, "the first arcade's websocket")
        browser.switch_to.new_window("tab")
        browser.get(f"http://127.0.0.1:{port}/")
        said = browser.find_element(By.TAG_NAME, "body").text
        assert "The arcade is full" in said and "1 session open, 1 at most. Try again in a few minutes." in said
        shot(browser, "serve-full")
        second = browser.current_window_handle
        browser.switch_to.window(first)
        wait_for(lambda: browser.current_url.endswith("/idle"), 120, "the idle page")
        assert "closed after 15 seconds without input" in browser.find_element(By.TAG_NAME, "body").text
        browser.switch_to.window(second)

        def started() -> bool:  # the first counts until its process is gone: "Try again" till then
            if browser.find_elements(By.LINK_TEXT, "Try again"):
                browser.find_element(By.LINK_TEXT, "Try again").click()
                time.sleep(0.5)
                return False
            return browser.execute_script(loaded)

        wait_for(started, 120, "the second arcade's websocket, once there is room")
    finally:
        for handle in browser.window_handles:
            if handle != first:
                browser.switch_to.window(handle)
                browser.close()
        browser.switch_to.window(first)
        server.terminate()
        log = server.communicate(timeout=60)[0]
    assert "refused a session from 127.0.0.1: full (1 session open, 1 at most)" in log
    assert "closed a session of 127.0.0.1 after 15 seconds without input" in log and "Traceback" not in log
