"""``arcade bot install`` against a student who reads pip's code (trust round four): a wheel's
METADATA is judged by the parser pip reads it with (``packaging.metadata``, email's rules: a
``Requires-Dist`` folded over two lines is one value), pip is given exactly the checked wheels
with ``--no-deps --no-index`` (it follows, fetches and builds nothing), and a wheel's size and
files are capped before anything unpacks it (a zip bomb is refused by its ratio). Hypothesis
folds and spaces hostile ``Requires-Dist`` lines: whatever email's parser reads as a URL
requirement, the check refuses, and a local server sees no request."""

from __future__ import annotations

import email.parser
import http.server
import threading
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bots.external import deps
from bots.external.deps import InstallError, check_wheel
from tests.bots.external.test_deps import make_wheel


def wheel_with_metadata(folder: Path, metadata: str, name: str = "tinydep", extra: dict | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{name}/__init__.py", "X = 1\n")
        archive.writestr(f"{name}-1.0.dist-info/METADATA", metadata)
        archive.writestr(f"{name}-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        archive.writestr(f"{name}-1.0.dist-info/RECORD", "")
        for member, data in (extra or {}).items():
            archive.writestr(member, data)
    return path


class Recorder(http.server.BaseHTTPRequestHandler):
    seen: list[str] = []

    def do_GET(self):  # noqa: N802 - the server's name
        Recorder.seen.append(self.path)
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    Recorder.seen = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_folded_requires_dist_naming_a_url_is_refused_and_nothing_is_fetched(tmp_path, server):
    folder = tmp_path / "student"
    wheel_with_metadata(folder, "Metadata-Version: 2.1\nName: tinydep\nVersion: 1.0\n"
                                f"Requires-Dist: evilpkg\n @ {server}/evil-1.0.tar.gz\n")
    (folder / "requirements.txt").write_text("tinydep-1.0-py3-none-any.whl\n")
    with pytest.raises(InstallError, match="refused") as caught:
        deps.install(folder, no_index=True)
    assert "\n" not in str(caught.value)
    assert Recorder.seen == [] and not (folder / ".deps").exists()


def test_a_zip_bomb_wheel_is_refused_before_anything_unpacks_it(tmp_path):
    folder = tmp_path / "student"
    wheel = wheel_with_metadata(folder, "Metadata-Version: 2.1\nName: tinydep\nVersion: 1.0\n",
                                extra={"tinydep/zeros.bin": b"\0" * (64 << 20)})
    assert wheel.stat().st_size < 1 << 20
    (folder / "requirements.txt").write_text("tinydep-1.0-py3-none-any.whl\n")
    with pytest.raises(InstallError, match="zip bomb"):
        deps.install(folder, no_index=True)
    assert not (folder / ".deps").exists()


def test_a_wheel_over_its_caps_of_files_or_bytes_is_refused(tmp_path, monkeypatch):
    wheel = wheel_with_metadata(tmp_path, "Metadata-Version: 2.1\nName: tinydep\nVersion: 1.0\n",
                                extra={f"tinydep/m{i}.py": "x = 1\n" for i in range(20)})
    monkeypatch.setattr(deps, "WHEEL_FILES", 10)
    with pytest.raises(InstallError, match="holds 24 files, over 10"):
        check_wheel(wheel, "requirements.txt")
    monkeypatch.setattr(deps, "WHEEL_FILES", 100)
    monkeypatch.setattr(deps, "WHEEL_BYTES", 50)
    with pytest.raises(InstallError, match="unpacks to .* bytes, over 50"):
        check_wheel(wheel, "requirements.txt")


def test_what_pip_installs_past_the_cap_is_removed_and_the_last_good_install_stays(tmp_path, monkeypatch):
    folder = tmp_path / "student"
    make_wheel(folder / "w")
    (folder / "requirements.txt").write_text("w/arcadetiny-1.0-py3-none-any.whl\n")
    deps.install(folder, no_index=True)
    good = sorted(p.name for p in (folder / ".deps").iterdir())
    (folder / "requirements.txt").write_text("w/arcadetiny-1.0-py3-none-any.whl\n# again\n")
    real = deps.run_pip

    def swelling_pip(argv, cwd, env, progress):  # a pip that writes more than the wheels declared
        status, output = real(argv, cwd, env, progress)
        target = Path(argv[argv.index("--target") + 1])
        (target / "swollen.bin").write_bytes(b"\0" * 4096)
        return status, output

    monkeypatch.setattr(deps, "run_pip", swelling_pip)
    monkeypatch.setattr(deps, "WHEEL_BYTES", 4000)
    with pytest.raises(InstallError, match="over 4,000 bytes: refused"):
        deps.install(folder, no_index=True)
    assert sorted(p.name for p in (folder / ".deps").iterdir()) == good
    assert not (folder / ".deps.installing").exists()


def test_dependencies_are_resolved_from_checked_wheels_and_a_fetched_ones_url_is_refused(tmp_path):
    index = tmp_path / "index"
    make_wheel(index)  # arcadetiny 1.0
    folder = tmp_path / "student"
    make_wheel(folder / "w", "needsit", requires="arcadetiny>=1.0")
    (folder / "requirements.txt").write_text("w/needsit-1.0-py3-none-any.whl\n")
    installed = deps.install(folder, find_links=[str(index)], no_index=True)
    assert (folder / ".deps" / "arcadetiny" / "__init__.py").is_file()
    assert (folder / ".deps" / "needsit" / "__init__.py").is_file()
    assert {p.split("-")[0] for p in installed.packages} == {"arcadetiny", "needsit"}
    # a dependency fetched from the index that itself names a URL
    evil_index = tmp_path / "evil_index"
    make_wheel(evil_index, requires="evil @ http://127.0.0.1:9/evil.tar.gz")
    other = tmp_path / "other"
    make_wheel(other / "w", "needsit", requires="arcadetiny")
    (other / "requirements.txt").write_text("w/needsit-1.0-py3-none-any.whl\n")
    with pytest.raises(InstallError, match="names a dependency by URL"):
        deps.install(other, find_links=[str(evil_index)], no_index=True)
    assert not (other / ".deps").exists()


def test_a_conflict_between_requirements_is_one_line(tmp_path):
    index = tmp_path / "index"
    make_wheel(index)
    folder = tmp_path / "student"
    make_wheel(folder / "w", "needsit", requires="arcadetiny>=2")
    (folder / "requirements.txt").write_text("arcadetiny\nw/needsit-1.0-py3-none-any.whl\n")
    with pytest.raises(InstallError, match=r"arcadetiny>=2 \(needsit 1.0 needs it\) conflicts with arcadetiny 1.0"):
        deps.install(folder, find_links=[str(index)], no_index=True)


FOLDS = st.lists(st.sampled_from(["\n ", "\n\t", "\n  ", " ", ""]), min_size=1, max_size=3)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.integers(0, 40), folds=FOLDS, key=st.sampled_from(["Requires-Dist", "requires-dist", "REQUIRES-DIST"]),
       value=st.sampled_from(["evilpkg @ http://127.0.0.1:9/e.tar.gz", "evilpkg@http://127.0.0.1:9/e.tgz",
                              "evilpkg [x] @ file:///tmp/e.tar.gz ; python_version > '3'", "evilpkg>=1",
                              "evilpkg ; extra == 'x'"]))
def test_whatever_emails_parser_reads_as_a_url_requirement_is_refused(tmp_path_factory, where, folds, key, value):
    cut = min(where, len(value))
    folded = value[:cut] + "".join(folds) + value[cut:]
    text = f"Metadata-Version: 2.1\nName: tinydep\nVersion: 1.0\n{key}: {folded}\n"
    wheel = wheel_with_metadata(tmp_path_factory.mktemp("w"), text)
    read = email.parser.Parser().parsestr(text).get_all("Requires-Dist") or []  # as pip's metadata reader reads it
    by_url = any("@" in " ".join(v.split()) for v in read)
    try:
        checked = check_wheel(wheel, "requirements.txt")
    except InstallError:
        return  # refused: nothing of it reaches pip
    assert not by_url, f"{text!r} passed, but pip would read a URL requirement"
    assert all(r.url is None for r in checked.requires)
