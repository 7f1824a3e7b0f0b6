"""Benchmark the calculator in headless Chromium against a local server.

Measures, in one run and on the same machine:

- time to a ready calculator (navigation start -> ``data-kvcalc-status="ready"``),
  cold (fresh browser context, empty cache) and warm (second visit in the same
  context), against a bare page that only runs ``loadPyodide()`` from the same
  self-hosted runtime (written to a temporary directory); for information, the
  same bare call inside a module worker is timed too;
- the calculator page's start-up timeline (its ``kvcalc:*`` performance marks);
- recompute latency: from the ``input`` event on a field to the change of
  ``data-kvcalc-result``, timed with ``performance.now()`` inside the page;
- bytes transferred by a guide page without a calculator, a guide page with
  presets (before and after the reader opens one) and the calculator page;
- time to ready on an emulated slow link (``--only slow``: 20 Mbit/s down and up,
  40 ms latency, Chromium DevTools ``Network.emulateNetworkConditions`` through
  Playwright's ``context.new_cdp_session(page)``), cold and warm, for the
  calculator and the bare ``loadPyodide()`` page, interleaved in the same run.

Prints medians of ``--runs`` runs (default 5) and, with ``--write``, rewrites
``bench/RESULTS.md`` (keeping its hand-written "Reading the figures" section). Needs a built site (``make site``) and Debian's chromium.

    .venv/bin/python bench/web_bench.py [--site-dir site] [--runs 5] [--edits 40] [--write]
        [--only ready|timeline|recompute|bytes|slow ...]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("KVGUIDE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]
TIMEOUT_MS = 120_000
#: The heading of RESULTS.md's hand-written section, which --write keeps.
HAND_WRITTEN = "## Reading the figures"

#: Records when any calculator first turns ready (performance.now(), ms since navigation).
READY_PROBE = """
(() => {
  const mark = () => {
    const el = document.querySelector('[data-kvcalc-component="calculator"][data-kvcalc-status="ready"]')
    if (el && window.__kvReadyAt === undefined) window.__kvReadyAt = performance.now()
  }
  new MutationObserver(mark).observe(document, {subtree: true, attributes: true,
                                                attributeFilter: ["data-kvcalc-status"]})
})()
"""

BARE_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>bare loadPyodide</title></head>
<body><p id="out">loading</p>
<script type="module">
  import { loadPyodide } from "./assets/pyodide/pyodide.mjs"
  const indexURL = new URL("./assets/pyodide/", location.href).href
  await loadPyodide({ indexURL })
  window.__kvReadyAt = performance.now()
  document.getElementById("out").textContent = "ready"
</script></body></html>
"""

#: Extra reference (information only): the same bare ``loadPyodide()``, inside a module worker.
BARE_WORKER_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>bare loadPyodide in a worker</title></head>
<body><p id="out">loading</p>
<script type="module">
  const worker = new Worker("./worker.js", { type: "module" })
  worker.onmessage = () => {
    window.__kvReadyAt = performance.now()
    document.getElementById("out").textContent = "ready"
  }
</script></body></html>
"""

BARE_WORKER = """
import { loadPyodide } from "./assets/pyodide/pyodide.mjs"
const indexURL = new URL("./assets/pyodide/", location.href).href
await loadPyodide({ indexURL })
self.postMessage("ready")
"""

#: In the page: edit max_model_len `n` times, each time timing input event -> result change,
#: and splitting it with the page's `kvcalc:*` marks of that edit (ms after the input event).
RECOMPUTE = """
async ([n]) => {
  const root = document.querySelector('[data-kvcalc-component="calculator"]')
  const input = root.querySelector('[name="max_model_len"]')
  const last = name => performance.getEntriesByName("kvcalc:" + name).at(-1)?.startTime
  const times = []
  const parts = []
  for (let i = 0; i < n; i++) {
    const changed = new Promise(resolve => {
      const observer = new MutationObserver(() => { observer.disconnect(); resolve(performance.now()) })
      observer.observe(root, { attributes: true, attributeFilter: ["data-kvcalc-result", "data-kvcalc-status"] })
    })
    input.value = String(4096 + 64 * i)   // a value not asked before: no answer comes from a cache
    const t0 = performance.now()
    input.dispatchEvent(new Event("input", { bubbles: true }))
    times.push((await changed) - t0)
    await new Promise(resolve => setTimeout(resolve, 30))
    const at = name => { const t = last(name); return t === undefined || t < t0 ? null : t - t0 }
    parts.push(Object.fromEntries(["request-sent", "worker:compute-start", "worker:compute-end",
                                   "result-received", "dom-updated"].map(name => [name, at(name)])))
  }
  return { times, parts }
}
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def serve(directory: Path) -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                             "--directory", str(directory)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if time.monotonic() > deadline:
                raise RuntimeError("http.server did not start")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        proc.wait(timeout=5)


@dataclass
class Traffic:
    """Bytes a context received (headers + bodies), counted per finished request."""

    total: int = 0
    requests: int = 0
    urls: list[str] = field(default_factory=list)

    def attach(self, context: BrowserContext) -> None:
        def finished(request: object) -> None:
            sizes = request.sizes()  # type: ignore[attr-defined]
            self.total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
            self.requests += 1
            self.urls.append(request.url)  # type: ignore[attr-defined]
        context.on("requestfinished", finished)


#: The emulated slow link: 20 Mbit/s each way, 40 ms latency (DevTools' throughput is in bytes/s).
SLOW_LINK = {"offline": False, "latency": 40, "downloadThroughput": 20e6 / 8, "uploadThroughput": 20e6 / 8}


def open_calculator(page: Page) -> None:
    """Bring the page's first calculator into view (a guide page's preset: open its card first)."""
    root = page.locator('[data-kvcalc-component="calculator"]').first
    root.evaluate("el => { const card = el.closest('details[data-kvcalc-lazy]'); if (card) card.open = true }")
    root.scroll_into_view_if_needed()


def time_to_ready(page: Page, url: str) -> float:
    page.goto(url)
    open_calculator(page)
    page.wait_for_function("window.__kvReadyAt !== undefined", timeout=TIMEOUT_MS)
    return float(page.evaluate("window.__kvReadyAt"))


def bare_time(page: Page, url: str) -> float:
    page.goto(url)
    page.wait_for_function("window.__kvReadyAt !== undefined", timeout=TIMEOUT_MS)
    return float(page.evaluate("window.__kvReadyAt"))


def new_context(browser: Browser) -> BrowserContext:
    context = browser.new_context()
    context.add_init_script(READY_PROBE)
    return context


def measure_ready(browser: Browser, url: str, *, bare: bool, slow: bool = False) -> tuple[float, float]:
    """(cold, warm) milliseconds in one fresh context: first visit, then a second one
    (``slow``: on the emulated SLOW_LINK)."""
    context = new_context(browser)
    try:
        page = context.new_page()
        if slow:
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", SLOW_LINK)
        probe = bare_time if bare else time_to_ready
        cold = probe(page, url)
        page.goto("about:blank")
        warm = probe(page, url)
        return cold, warm
    finally:
        context.close()


def measure_bytes(browser: Browser, url: str, *, scroll_to_calculator: bool) -> Traffic:
    context = new_context(browser)
    traffic = Traffic()
    traffic.attach(context)
    try:
        page = context.new_page()
        page.goto(url)
        if scroll_to_calculator:
            open_calculator(page)
            page.wait_for_function("window.__kvReadyAt !== undefined", timeout=TIMEOUT_MS)
        page.wait_for_load_state("networkidle")
        return traffic
    finally:
        context.close()


def measure_recompute(browser: Browser, url: str, edits: int) -> tuple[list[float], list[dict[str, float]]]:
    """(latency of each edit, its `kvcalc:*` marks in ms after the input event)."""
    context = new_context(browser)
    try:
        page = context.new_page()
        time_to_ready(page, url)
        page.wait_for_timeout(500)   # let the page settle (Material's search index, first paint)
        out = page.evaluate(RECOMPUTE, [edits])
        return [float(t) for t in out["times"]], out["parts"]
    finally:
        context.close()


#: In the page: the first time of every `kvcalc:*` mark and of a few navigation milestones (ms).
TIMELINE = """
() => {
  const out = {}
  const nav = performance.getEntriesByType("navigation")[0]
  if (nav) {
    out["nav:responseEnd"] = nav.responseEnd
    out["nav:domInteractive"] = nav.domInteractive
    out["nav:domContentLoaded"] = nav.domContentLoadedEventEnd
    out["nav:load"] = nav.loadEventEnd || null
  }
  for (const entry of performance.getEntriesByType("mark"))
    if (entry.name.startsWith("kvcalc:") && !(entry.name in out)) out[entry.name] = entry.startTime
  if (window.__kvReadyAt !== undefined) out["ready (status attribute)"] = window.__kvReadyAt
  return out
}
"""


def measure_timeline(browser: Browser, url: str) -> tuple[dict[str, float], dict[str, float]]:
    """The page's timeline of a cold and then a warm visit in one fresh context."""
    context = new_context(browser)
    try:
        page = context.new_page()
        time_to_ready(page, url)
        cold = page.evaluate(TIMELINE)
        page.goto("about:blank")
        time_to_ready(page, url)
        warm = page.evaluate(TIMELINE)
        return cold, warm
    finally:
        context.close()


def _ready_table(title: str, med: dict[str, float], target: str) -> list[str]:
    """The calculator page against a bare ``loadPyodide()`` page, cold and warm (medians, ms)."""
    return [
        title,
        "",
        "| | cold (ms) | warm (ms) |",
        "|---|---:|---:|",
        f"| bare `loadPyodide()` page, same runtime (the reference) | {med['bare_cold']:.0f} | {med['bare_warm']:.0f} |",
        f"| calculator page (`en/calculator/`) | {med['calc_cold']:.0f} | {med['calc_warm']:.0f} |",
        f"| ratio (target ≤ {target}) | {med['calc_cold'] / med['bare_cold']:.2f} | "
        f"{med['calc_warm'] / med['bare_warm']:.2f} |",
    ]


def timeline_table(runs: list[tuple[dict[str, float], dict[str, float]]]) -> list[str]:
    """Markdown rows: each milestone's median time since navigation, cold and warm."""
    names: list[str] = []
    for cold, warm in runs:
        names += [n for n in dict.fromkeys([*cold, *warm]) if n not in names]

    def med_of(which: int, name: str) -> str:
        values = [r[which][name] for r in runs if r[which].get(name) is not None]
        return f"{median(values):.0f}" if values else "–"

    rows = sorted(names, key=lambda n: float(med_of(1, n)) if med_of(1, n) != "–" else 1e9)
    return ["| milestone | cold (ms) | warm (ms) |", "|---|---:|---:|",
            *[f"| `{n}` | {med_of(0, n)} | {med_of(1, n)} |" for n in rows]]


def median(values: list[float]) -> float:
    return statistics.median(values)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site-dir", type=Path, default=REPO / "site")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--write", action="store_true", help="write bench/RESULTS.md")
    parser.add_argument("--only", choices=["ready", "timeline", "recompute", "bytes", "slow"], action="append",
                        help="measure only these parts (repeatable; implies no --write)")
    args = parser.parse_args(argv)
    parts = set(args.only or ["ready", "timeline", "recompute", "bytes", "slow"])
    site = args.site_dir.resolve()
    if not (site / "calculator" / "index.html").is_file() or not (site / "assets" / "pyodide").is_dir():
        print(f"{site} has no built calculator: run `make web-assets site` first", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        bare_dir = Path(tmp)
        (bare_dir / "index.html").write_text(BARE_PAGE, encoding="utf-8")
        (bare_dir / "worker.html").write_text(BARE_WORKER_PAGE, encoding="utf-8")
        (bare_dir / "worker.js").write_text(BARE_WORKER, encoding="utf-8")
        (bare_dir / "assets").mkdir()
        os.symlink(site / "assets" / "pyodide", bare_dir / "assets" / "pyodide")
        site_url = stack.enter_context(serve(site))
        bare_url = stack.enter_context(serve(bare_dir))
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        stack.callback(browser.close)

        calc_url = site_url + "en/calculator/"
        ready: dict[str, list[float]] = {key: [] for key in (
            "bare_cold", "bare_warm", "calc_cold", "calc_warm", "worker_cold", "worker_warm")}
        timelines: list[tuple[dict[str, float], dict[str, float]]] = []
        recompute: list[float] = []
        recompute_parts: list[dict[str, float]] = []
        per_run: list[float] = []
        traffic: dict[str, list[int]] = {}
        slow: dict[str, list[float]] = {key: [] for key in ("bare_cold", "bare_warm", "calc_cold", "calc_warm")}
        for _ in range(args.runs if "slow" in parts else 0):   # interleaved, like the local runs
            for key, url, bare in (("bare", bare_url, True), ("calc", calc_url, False)):
                cold, warm = measure_ready(browser, url, bare=bare, slow=True)
                slow[f"{key}_cold"].append(cold)
                slow[f"{key}_warm"].append(warm)
        for _ in range(args.runs if "ready" in parts else 0):   # interleaved, so drift hits all alike
            for key, url, bare in (("bare", bare_url, True), ("calc", calc_url, False),
                                   ("worker", bare_url + "worker.html", True)):
                cold, warm = measure_ready(browser, url, bare=bare)
                ready[f"{key}_cold"].append(cold)
                ready[f"{key}_warm"].append(warm)
        for _ in range(args.runs if "timeline" in parts else 0):
            timelines.append(measure_timeline(browser, calc_url))
        for _ in range(args.runs if "recompute" in parts else 0):
            times, parts_of_edits = measure_recompute(browser, calc_url, args.edits)
            recompute += times
            recompute_parts += parts_of_edits
            per_run.append(median(times))
        if "bytes" in parts:
            pages = {
                "guide page without a calculator (en/references/)": (site_url + "en/references/", False),
                "guide page with presets, none opened (en/)": (site_url + "en/", False),
                "guide page with presets, one opened (en/)": (site_url + "en/", True),
                "calculator page (en/calculator/)": (calc_url, True),
            }
            traffic = {name: [] for name in pages}
            for _ in range(args.runs):
                for name, (url, scroll) in pages.items():
                    traffic[name].append(measure_bytes(browser, url, scroll_to_calculator=scroll).total)
        chromium_version = browser.version

    lines = [
        "# Calculator benchmark (bench/web_bench.py)",
        "",
        f"Headless Chromium {chromium_version} against `python -m http.server` on 127.0.0.1; "
        f"{os.cpu_count()} CPUs, {platform.platform()}; medians of {args.runs} runs.",
        "",
    ]
    if ready["calc_cold"]:
        med = {key: median(values) for key, values in ready.items()}
        lines += _ready_table("## Time to a ready calculator", med, "1.3") + [
            f"| for information: bare `loadPyodide()` inside a module worker | {med['worker_cold']:.0f} | "
            f"{med['worker_warm']:.0f} |",
            "",
            "Cold: a fresh browser context (empty cache). Warm: the second visit in the same context "
            "(HTTP cache, revalidated with 304s by `http.server`). Timed from navigation start "
            "(`performance.now()`) to `data-kvcalc-status=\"ready\"`, or to `loadPyodide()` resolving. "
            "The three pages are measured interleaved, one fresh context each per run.",
            "",
        ]
    if slow["calc_cold"]:
        med = {key: median(values) for key, values in slow.items()}
        lines += _ready_table("## Time to a ready calculator on a slow link (20 Mbit/s, 40 ms)", med, "1.0") + [
            "",
            "Chromium DevTools `Network.emulateNetworkConditions` (20 Mbit/s down and up, 40 ms latency) "
            "on each page's context; otherwise as above. The calculator page also loads the guide's own "
            "assets (Material's scripts and styles; the search index only once the reader uses search), "
            "which the bare page does not, and fetches the runtime's wasm, script and lock file "
            "gzip-compressed (the build's `.gz` copies) where the bare page fetches Pyodide's own files; "
            "a cold visit judges the link and skips the start-up snapshot on a slow one.",
            "",
        ]
    if timelines:
        lines += [
            "## Start-up timeline of the calculator page",
            "",
            *timeline_table(timelines),
            "",
            "Medians over the runs, ms since navigation start. `kvcalc:*` are the performance marks "
            "`docs/javascripts/kvcalc.js` sets (`kvcalc:worker:*` are the worker's, moved onto the page's "
            "clock); `ready` is when `data-kvcalc-status` turned `ready`.",
            "",
        ]
    if recompute:
        lines += [
            "## Recompute latency",
            "",
            f"Median {median(recompute):.1f} ms over {len(recompute)} edits "
            f"(per-run medians: {', '.join(f'{m:.1f}' for m in per_run)}; "
            f"p90 {statistics.quantiles(recompute, n=10)[-1]:.1f} ms; target < 20 ms). "
            "From the `input` event on `max_model_len` to the change of `data-kvcalc-result`, "
            "both timed with `performance.now()` in the page; it includes any wait before the request "
            "is posted, the worker round trip, the core's computation and the DOM update.",
            "",
            "Where the time goes (medians over the edits, ms after the `input` event, from the page's "
            "`kvcalc:*` marks of each edit):",
            "",
            "| mark | median | p90 |",
            "|---|---:|---:|",
            *[f"| `kvcalc:{name}` | {median(v):.1f} | {statistics.quantiles(v, n=10)[-1]:.1f} |"
              for name in ("request-sent", "worker:compute-start", "worker:compute-end",
                           "result-received", "dom-updated")
              if len(v := [p[name] for p in recompute_parts if p.get(name) is not None]) >= 2],
            "",
        ]
    if traffic:
        lines += [
            "## Bytes transferred",
            "",
            "| page | bytes (median) |",
            "|---|---:|",
            *[f"| {name} | {median([float(v) for v in values]):,.0f} |" for name, values in traffic.items()],
            "",
            "Headers and bodies of every request of a fresh context, until the network is idle "
            "(and the calculator is ready where the reader scrolls to one). Target for a guide "
            "page without a calculator: < 1 MB.",
            "",
        ]
    text = "\n".join(lines)
    print(text)
    raw = {key: [round(v) for v in values] for key, values in ready.items() if values}
    raw |= {f"slow_{key}": [round(v) for v in values] for key, values in slow.items() if values}
    print(f"raw ready times (ms): {raw}")
    if args.write and not args.only:
        results = REPO / "bench" / "RESULTS.md"
        # keep the hand-written reading of the figures below the generated sections
        old = results.read_text(encoding="utf-8") if results.is_file() else ""
        keep = old[old.index(HAND_WRITTEN):] if HAND_WRITTEN in old else ""
        results.write_text(text + ("\n" + keep if keep else ""), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
