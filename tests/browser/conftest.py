"""Shared fixtures for the real-browser tests (Debian's Chromium via Playwright).

The built ``site/`` is served over HTTP on a free 127.0.0.1 port (the
calculator's module scripts do not work from ``file://``). Every browser
context the fixtures create records console errors, failed same-site requests
and every request to another host; requests to other hosts are also aborted,
so a test never waits on the network.

Fixtures for test modules (pytest-playwright provides ``browser``, ``context``
and ``page``; they are configured here):

* ``site_url``: ``http://127.0.0.1:<port>/`` of the served site; pages can also
  be opened by path, ``page.goto("zh/")``, through the context's ``base_url``.
* ``page``: a watched page on a blank document, with no storage, cookies or permissions for the
  site and the default viewport. It is one page, kept for the whole session and reset after each
  test (see ``SharedPage``): opening a page costs a renderer process, about 1.2 s of CPU on these
  2-core machines, and the runtime's compile is kept in the shared HTTP cache (bench/RESULTS.md,
  "Browser tests"). A test that changes what a reset cannot undo (``page.on``, anything through
  ``page.context``) is marked ``@pytest.mark.fresh_context`` and gets a page in its own context,
  as a test asking for ``context`` does; the ``page`` fixture refuses an unmarked one.
* ``phone_page``: the same, in a context that emulates a phone (``PHONE``), also shared and reset.
* ``page_factory(**context_options)``: more watched pages, each in its own context.
* ``console_errors``, ``failed_requests``, ``foreign_requests``: lists of strings
  the watched contexts of the current test append to.

Set ``KVGUIDE_SITE_DIR`` to serve another built site, ``KVGUIDE_CHROMIUM`` to
use another Chromium binary. ``playwright install`` is not needed (and cannot
download here).
"""

from __future__ import annotations

import ast
import fcntl
import functools
import inspect
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Request, Response, WebError, expect

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("KVGUIDE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]
SERVER_START_TIMEOUT_S = 10.0


# ---------------------------------------------------------------------------
# The built site and its HTTP server
# ---------------------------------------------------------------------------


def _build_site(site_dir: Path) -> None:
    """Build ``site/`` the way the project does: ``make site`` if the Makefile has it."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    makefile = REPO / "Makefile"
    if site_dir == REPO / "site" and makefile.is_file() and "\nsite:" in makefile.read_text(encoding="utf-8"):
        cmd = ["make", "site"]
    else:
        cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} failed:\n{proc.stderr[-4000:]}", pytrace=False)


#: How long ``expect(...)`` waits for its condition (Playwright's default is 5 s): the test processes
#: share two cores with each other's browsers, and a condition that holds is met at once anyway.
EXPECT_TIMEOUT_MS = 30_000


def pytest_configure(config: pytest.Config) -> None:
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    config.addinivalue_line("markers", "fresh_context: the test's page gets its own browser context "
                            "(it adds listeners, init scripts, routes or permissions)")


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """The built site to serve; built first if it is missing (by one test process at a time)."""
    path = Path(os.environ.get("KVGUIDE_SITE_DIR", REPO / "site")).resolve()
    lock_path = REPO / "build" / "site-build.lock"
    lock_path.parent.mkdir(exist_ok=True)
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (path / "index.html").is_file():
            _build_site(path)
    return path


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_listening(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"http.server exited with status {proc.returncode}", pytrace=False)
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    pytest.fail(f"http.server did not listen on 127.0.0.1:{port}", pytrace=False)


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    """``http://127.0.0.1:<port>/`` serving the built site with ``python -m http.server``."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site_dir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_until_listening(port, proc)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()


# ---------------------------------------------------------------------------
# Browser configuration (overrides of pytest-playwright's fixtures)
# ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium headless, with no background traffic."""
    if not (os.path.isfile(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: `apt-get install -y chromium` (make test does it)",
            pytrace=False,
        )
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any], site_url: str) -> dict[str, Any]:
    """Relative ``page.goto("zh/")`` resolves against the served site."""
    return {**browser_context_args, "base_url": site_url}


# ---------------------------------------------------------------------------
# Watching what the pages do
# ---------------------------------------------------------------------------


@pytest.fixture
def console_errors() -> list[str]:
    """Console errors and uncaught page errors of the current test's pages."""
    return []


@pytest.fixture
def failed_requests() -> list[str]:
    """Same-site requests that failed or answered with HTTP status >= 400."""
    return []


@pytest.fixture
def foreign_requests() -> list[str]:
    """Every request to a host other than the local server (all are aborted)."""
    return []


def _watch_into(context: BrowserContext, site_url: str,
                lists: Callable[[], tuple[list[str], list[str], list[str]]]) -> BrowserContext:
    """Record into ``lists()`` (console errors, failed requests, foreign requests), read at each
    event, and abort every request to another host."""
    local = urlsplit(site_url).netloc

    def is_foreign(url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme not in ("data", "blob", "about") and parts.netloc != local

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            where = message.location.get("url", "") if message.location else ""
            lists()[0].append(f"{message.text} ({where})")

    def on_web_error(error: WebError) -> None:
        lists()[0].append(f"uncaught: {error.error}")

    def on_request(request: Request) -> None:
        if is_foreign(request.url):
            lists()[2].append(request.url)

    def on_request_failed(request: Request) -> None:
        # net::ERR_ABORTED is a request the browser or the page cancelled: the lazy favicon, or the
        # start-up snapshot still downloading when the test navigates on. Not a failure of the site:
        # a missing file still shows up as an HTTP error in on_response, a refused connection as
        # net::ERR_CONNECTION_REFUSED here.
        cancelled = request.failure == "net::ERR_ABORTED"
        if not is_foreign(request.url) and not cancelled:
            lists()[1].append(f"{request.url}: {request.failure}")

    def on_response(response: Response) -> None:
        if response.status >= 400 and not is_foreign(response.url):
            lists()[1].append(f"{response.url}: HTTP {response.status}")

    context.on("console", on_console)
    context.on("weberror", on_web_error)
    context.on("request", on_request)
    context.on("requestfailed", on_request_failed)
    context.on("response", on_response)
    context.route(lambda url: is_foreign(url), lambda route: route.abort())
    return context


@pytest.fixture
def watch(
    site_url: str,
    console_errors: list[str],
    failed_requests: list[str],
    foreign_requests: list[str],
) -> Callable[[BrowserContext], BrowserContext]:
    """Return ``watch(context)``: record into the three lists, abort foreign requests."""
    lists = (console_errors, failed_requests, foreign_requests)
    return lambda context: _watch_into(context, site_url, lambda: lists)


@pytest.fixture
def context(new_context: Callable[..., BrowserContext], watch: Callable[[BrowserContext], BrowserContext]) -> BrowserContext:
    """pytest-playwright's context, watched."""
    return watch(new_context())


#: What a test does to a page that ``SharedPage.reset`` cannot undo: listeners it adds, and its
#: context's init scripts, routes, permissions and CDP sessions. Such a test is marked fresh_context.
_NEEDS_OWN_CONTEXT = re.compile(r"\bpage\.(?:on|once|route|add_init_script|expose_\w+)\(|\bpage\.context\b")


@functools.cache
def _module_functions(module: str) -> tuple[str, dict[str, ast.FunctionDef]]:
    """A test module's source and its top-level functions, parsed once for all its tests."""
    source = inspect.getsource(sys.modules[module])
    tree = ast.parse(source)
    return source, {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def _changes_its_context(function: Callable[..., Any]) -> bool:
    """Whether the test, or a function of its module it calls (at any depth), matches _NEEDS_OWN_CONTEXT."""
    source, functions = _module_functions(function.__module__)
    todo, seen = [function.__name__], set()
    while todo:
        name = todo.pop()
        if name in seen or name not in functions:
            continue
        seen.add(name)
        node = functions[name]
        if _NEEDS_OWN_CONTEXT.search(ast.get_source_segment(source, node) or ""):
            return True
        todo += [call.func.id for call in ast.walk(node)
                 if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)]
    return False


class SharedPage:
    """One watched page for the session's tests, reset between them.

    The context's listeners append to the current test's lists (``bind``); ``reset`` leaves the page
    as a new one would be: a blank document (so the previous page and its worker are gone), no
    storage, cookies or permissions for the site, the context's viewport, no other page open.
    """

    def __init__(self, context: BrowserContext, site_url: str) -> None:
        self.context = context
        self.origin = site_url.rstrip("/")
        self.lists: tuple[list[str], list[str], list[str]] = ([], [], [])
        self.page = context.new_page()
        self.viewport = self.page.viewport_size

    def bind(self, console_errors: list[str], failed_requests: list[str], foreign_requests: list[str]) -> None:
        self.lists = (console_errors, failed_requests, foreign_requests)

    def reset(self) -> None:
        for other in self.context.pages:
            if other is not self.page:
                other.close()
        if self.page.is_closed():
            self.page = self.context.new_page()
        self.page.goto("about:blank")
        cdp = self.context.new_cdp_session(self.page)
        try:
            cdp.send("Storage.clearDataForOrigin", {"origin": self.origin, "storageTypes": "all"})
        finally:
            cdp.detach()
        self.context.clear_cookies()
        self.context.clear_permissions()
        if self.viewport:
            self.page.set_viewport_size(self.viewport)
        self.lists = ([], [], [])


@pytest.fixture(scope="session")
def _shared_page(browser: Any, browser_context_args: dict[str, Any], site_url: str) -> Iterator[SharedPage]:
    context = browser.new_context(**browser_context_args)
    shared = SharedPage(context, site_url)
    _watch_into(context, site_url, lambda: shared.lists)
    yield shared
    context.close()


@pytest.fixture
def page(request: pytest.FixtureRequest, console_errors: list[str], failed_requests: list[str],
         foreign_requests: list[str]) -> Iterator[Page]:
    """The session's shared page, reset after the test; a page in the test's own context for a test
    marked ``fresh_context`` or asking for ``context``."""
    if request.node.get_closest_marker("fresh_context") or "context" in request.fixturenames:
        context: BrowserContext = request.getfixturevalue("context")
        yield context.new_page()
        return
    if _changes_its_context(request.function):
        pytest.fail(f"{request.node.name} changes its page's listeners or context: mark it "
                    "@pytest.mark.fresh_context (the shared page cannot undo that)", pytrace=False)
    shared: SharedPage = request.getfixturevalue("_shared_page")
    shared.bind(console_errors, failed_requests, foreign_requests)
    try:
        yield shared.page
    finally:
        shared.reset()


#: A phone as the layout tests emulate it: device emulation is a context option, so it gets its own
#: shared page (the width alone is ``page.set_viewport_size`` on the shared one).
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="session")
def _shared_phone_page(browser: Any, browser_context_args: dict[str, Any], site_url: str) -> Iterator[SharedPage]:
    context = browser.new_context(**{**browser_context_args, **PHONE})
    shared = SharedPage(context, site_url)
    _watch_into(context, site_url, lambda: shared.lists)
    yield shared
    context.close()


@pytest.fixture
def phone_page(console_errors: list[str], failed_requests: list[str], foreign_requests: list[str],
               _shared_phone_page: SharedPage) -> Iterator[Page]:
    """Like ``page``, in a context that emulates a phone (``PHONE``): one per session, reset after each test."""
    _shared_phone_page.bind(console_errors, failed_requests, foreign_requests)
    try:
        yield _shared_phone_page.page
    finally:
        _shared_phone_page.reset()


@pytest.fixture
def page_factory(
    new_context: Callable[..., BrowserContext], watch: Callable[[BrowserContext], BrowserContext]
) -> Callable[..., Page]:
    """``page_factory(**context_options)`` → a watched page in a new context (closed after the test)."""

    def make(**context_options: Any) -> Page:
        return watch(new_context(**context_options)).new_page()

    return make


@pytest.fixture
def page_is_clean(console_errors: list[str], failed_requests: list[str],
                  foreign_requests: list[str]) -> Iterator[None]:
    """After the test: no console error, no failed request, nothing from another host.

    Modules opt in with ``pytestmark = pytest.mark.usefixtures("page_is_clean")``.
    """
    yield
    assert console_errors == []
    assert failed_requests == []
    assert foreign_requests == []
