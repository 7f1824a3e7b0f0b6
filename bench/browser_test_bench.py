"""What one browser test's page costs: a calculator load in a fresh context against the shared page.

The browser tests are CPU-bound on these 2-core machines, so the figure that decides how long
``make test`` takes is CPU time, not time to ready. Each load is measured as the whole machine's busy
CPU time (``/proc/stat``: every Chromium process, the driver and the server, including processes that
exit) from the navigation to 2 s after the calculator is ready (its warm-up plans included), on:

- a fresh browser context and page, as each test had before (``tests/browser/conftest.py``);
- one page reset between loads as the shared page is (a blank document, the site's storage cleared):
  no new renderer process, the HTTP cache and the runtime's compiled wasm kept.

Prints the median of ``--runs`` loads (after one unmeasured load each) and the wall time to ready. Run
it on an otherwise idle machine (the CPU figure counts everything). Needs ``make site`` and chromium.

    .venv/bin/python bench/browser_test_bench.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, sync_playwright
from web_bench import CHROMIUM, CHROMIUM_ARGS, new_context, serve, time_to_ready

REPO = Path(__file__).resolve().parent.parent
SETTLE_S = 2.0
"""How long after ready a load is still counted: the worker's warm-up plans run then."""


def busy_seconds() -> float:
    """The machine's busy CPU time so far (user, nice, system, irq, softirq), in seconds."""
    with open("/proc/stat", encoding="ascii") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    return (fields[0] + fields[1] + fields[2] + fields[5] + fields[6]) / 100


def measure(load: Callable[[], None], runs: int) -> tuple[float, float]:
    """(median CPU seconds, median wall seconds to ready) of ``runs`` loads, after one unmeasured."""
    cpu, wall = [], []
    for run in range(runs + 1):
        time.sleep(1.0)
        c0, t0 = busy_seconds(), time.monotonic()
        load()
        t1 = time.monotonic()
        time.sleep(SETTLE_S)
        if run:
            cpu.append(busy_seconds() - c0)
            wall.append(t1 - t0)
    return statistics.median(cpu), statistics.median(wall)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--site-dir", type=Path, default=REPO / "site")
    args = parser.parse_args(argv)
    with serve(args.site_dir) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        calculator = url + "en/calculator/"

        def fresh() -> None:
            context = new_context(browser)
            try:
                time_to_ready(context.new_page(), calculator)
            finally:
                context.close()

        shared_context = new_context(browser)
        shared: Page = shared_context.new_page()

        def reset_and_load() -> None:
            shared.goto("about:blank")
            cdp = shared_context.new_cdp_session(shared)
            cdp.send("Storage.clearDataForOrigin", {"origin": url.rstrip("/"), "storageTypes": "all"})
            cdp.detach()
            time_to_ready(shared, calculator)

        rows = {"fresh context and page (before)": measure(fresh, args.runs),
                "shared page, reset (the tests now)": measure(reset_and_load, args.runs)}
        browser.close()
    print(f"A calculator load ({args.runs} runs, medians; CPU from navigation to {SETTLE_S:.0f} s after ready):\n")
    print("| page | CPU (s) | wall to ready (s) |\n|---|---:|---:|")
    for name, (cpu, wall) in rows.items():
        print(f"| {name} | {cpu:.2f} | {wall:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
