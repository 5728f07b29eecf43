"""``arcade serve``: the arcade in browsers, by ``textual-serve`` (Textual's own way to run an app
as a web page). Each browser that opens the page gets its own app in its own process
(``python -m arcade.web.served``); bots from files and tournaments are off unless the instructor
passes ``--allow-file-bots``. It listens on loopback unless told otherwise, and says so.

The page is ``textual-serve``'s own, less its link to a web font elsewhere (a lab may be offline:
the page uses the fonts it serves itself) and with the site's icon (``/favicon.svg``, also at
``/favicon.ico``, where browsers look without a link: no request of it is a 404 in the server's
log), and the address its script connects back to is the one the browser used (a lab's students
reach the server by its name or address, not by ``--host``).

Its sessions are bounded (``arcade.web.sessions``, ``Caps``): so many at once in all and from one
address (a browser past a cap gets a page that says the arcade is full), each closed after so
long without input, each app's processes in a budget of memory and processes.
"""

from __future__ import annotations

import asyncio
import re
import shlex
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from arcade.web.sessions import Caps

LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8000
_HOST_HEADER = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")
_FONT_LINK = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>\s*", re.IGNORECASE | re.DOTALL)
_HEAD = re.compile(r"<head>", re.IGNORECASE)
ICON_LINK = '<link rel="icon" type="image/svg+xml" href="/favicon.svg" />'


def command(allow_file_bots: bool) -> str:
    """The shell command ``textual-serve`` starts for each browser."""
    return " ".join(shlex.quote(part) for part in (
        sys.executable, "-m", "arcade.web.served", *(["--allow-file-bots"] if allow_file_bots else [])))


@contextmanager
def page_templates() -> Iterator[Path]:
    """A private temporary folder holding ``textual-serve``'s page template without its link to
    fonts elsewhere and with a link to the icon, removed when the server stops."""
    import textual_serve

    source = Path(textual_serve.__file__).parent / "templates"
    with tempfile.TemporaryDirectory(prefix="arcade-serve-") as name:
        folder = Path(name)
        for template in source.iterdir():
            if template.is_file():
                text = _FONT_LINK.sub("", template.read_text(encoding="utf-8"))
                (folder / template.name).write_text(_HEAD.sub(lambda head: f"{head.group()}\n    {ICON_LINK}", text, 1),
                                                    encoding="utf-8")
        yield folder


def serve(host: str, port: int, allow_file_bots: bool, caps: Caps | None = None) -> None:
    """Serve the arcade until Ctrl+C (or SIGTERM: ``textual-serve`` ends gracefully on both), its
    page's template in a temporary folder for the while, its sessions within ``caps``."""
    with page_templates() as templates:
        make_server(host, port, allow_file_bots, templates, caps).serve()


def is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def make_server(host: str, port: int, allow_file_bots: bool, templates: Path, caps: Caps | None = None):
    """The ``textual-serve`` server of the arcade, its page's template in folder ``templates``
    (``page_templates``), its sessions within ``caps`` (``arcade.web.sessions``)."""
    from textual_serve.server import Server

    from arcade.web import sessions

    class ArcadeServer(Server):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.caps = caps or sessions.Caps()
            self.sessions = sessions.Sessions(self.caps)
            self.live: set[sessions.Session] = set()

        def say(self, line: str) -> None:
            self.console.print(line, highlight=False, markup=False, soft_wrap=True)

        async def handle_index(self, request):
            """The page, its script pointed back at the address the browser used; past a cap, the
            page that says the arcade is full."""
            address = sessions.client_address(request)
            refused = self.sessions.refusal(address)
            if refused is not None:
                self.say(f"arcade serve: refused a session from {address}: {refused.line}")
                return sessions.full_page(refused)
            if _HOST_HEADER.fullmatch(request.host or ""):
                self.public_url = f"http://{request.host}"
            return await super().handle_index(request)

        async def handle_websocket(self, request):
            return await sessions.handle_websocket(self, request)

        async def handle_full(self, request):
            return sessions.full_page(self.sessions.refusal(sessions.client_address(request)))

        async def handle_idle(self, request):
            return sessions.idle_page(self.caps)

        async def _make_app(self):
            """``textual-serve``'s routes, the icon's (``favicon``) and the sessions' pages."""
            app = await super()._make_app()
            app.router.add_get("/favicon.svg", favicon)
            app.router.add_get("/favicon.ico", favicon)
            app.router.add_get(sessions.FULL_PATH, self.handle_full)
            app.router.add_get(sessions.IDLE_PATH, self.handle_idle)
            return app

        async def on_startup(self, app) -> None:
            budget = await asyncio.to_thread(sessions.budget_words, self.caps)
            self.say(announcement(host, port, allow_file_bots, limits(self.caps, budget)))

        async def on_shutdown(self, app) -> None:
            await sessions.close_all(self)

    return ArcadeServer(command(allow_file_bots), host=host, port=port, title="Contest Arcade",
                        templates_path=str(templates))


async def favicon(request):
    """The arcade's icon, the published site's (``arcade/web/static/favicon.svg``)."""
    from importlib import resources

    from aiohttp import web

    data = resources.files("arcade.web").joinpath("static", "favicon.svg").read_bytes()
    return web.Response(body=data, content_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


def limits(caps: Caps, budget: str) -> str:
    """``arcade serve``'s line on its sessions' bounds, ``budget`` how their processes are held
    here (``sessions.budget_words``)."""
    from arcade.web.sessions import minutes

    return (f"sessions: {caps.sessions} at most, {caps.per_address} from one address; each closed after "
            f"{minutes(caps.idle)} without input, its app held to {budget}")


def announcement(host: str, port: int, allow_file_bots: bool, bounds: str = "") -> str:
    """What ``arcade serve`` says when it is listening (``bounds``: its sessions', ``limits``)."""
    where = f"http://{host if ':' not in host else f'[{host}]'}:{port}/"
    reach = ("on loopback only: browsers on this machine alone (--host 0.0.0.0 lets a lab's machines in)"
             if is_loopback(host) else f"on {host}: browsers on other machines can reach it")
    files = ("bots from files and tournaments are ON (--allow-file-bots): they run on this machine"
             if allow_file_bots else "bots from files and tournaments are off (--allow-file-bots turns them on)")
    said = f"arcade serve: listening at {where}, {reach}\n{files}; each browser gets its own app. Ctrl+C stops it."
    return f"{said}\n{bounds}" if bounds else said
