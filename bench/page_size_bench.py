"""Benchmark the "what fits on my GPU" page: its weight for the reader and its cost to the build.

Measures, for ``/what-fits/``, ``/zh/what-fits/`` and ``/en/what-fits/`` of a built site:

- the page's HTML as written by ``make site`` (bytes), and gzipped (what a compressing server sends);
- everything a reader's browser fetches for it with an empty cache: headless Chromium against
  ``python -m http.server`` (no compression), headers and bodies of every request of a fresh
  context until the network is idle, and how many requests that is;
- the time to compute the matrix once (every cell's auto-fit plans, in a fresh interpreter, so that
  no cell is cached), which ``make site`` pays and the reader does not.

Prints a Markdown section and, with ``--write``, replaces the page's section of ``bench/RESULTS.md``
(below the hand-written part that ``bench/web_bench.py --write`` keeps). Needs a built site and
Debian's chromium.

    .venv/bin/python bench/page_size_bench.py [--site-dir site] [--runs 3] [--write]
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import subprocess
import sys
from datetime import date
from pathlib import Path

from playwright.sync_api import sync_playwright
from web_bench import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS, Traffic, serve

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "RESULTS.md"
#: The section this script owns in RESULTS.md (everything from this heading to the next ``## ``).
HEADING = '## "What fits on my GPU" page'
PAGES = {"es": "what-fits/", "zh": "zh/what-fits/", "en": "en/what-fits/"}
#: The page budget the guide sets for the matrix page.
TARGET_BYTES = 1_000_000

_COMPUTE = """
import time
t = time.perf_counter()
from kvguide_macros import what_fits
what_fits.matrix_html("es", page_url="what-fits/")
print(time.perf_counter() - t)
"""


def page_html_bytes(site: Path, path: str) -> tuple[int, int]:
    """(HTML bytes, gzip -9 bytes) of one built page."""
    body = (site / path / "index.html").read_bytes()
    return len(body), len(gzip.compress(body, compresslevel=9, mtime=0))


def transfer(site: Path, runs: int) -> dict[str, tuple[list[int], int]]:
    """Per language: the bytes of each cold visit and the number of requests of the last one."""
    out: dict[str, tuple[list[int], int]] = {lang: ([], 0) for lang in PAGES}
    with serve(site) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for _ in range(runs):
                for lang, path in PAGES.items():
                    context = browser.new_context()
                    traffic = Traffic()
                    traffic.attach(context)
                    try:
                        page = context.new_page()
                        page.goto(url + path, timeout=TIMEOUT_MS)
                        page.wait_for_load_state("networkidle", timeout=TIMEOUT_MS)
                    finally:
                        context.close()
                    out[lang][0].append(traffic.total)
                    out[lang] = (out[lang][0], traffic.requests)
        finally:
            browser.close()
    return out


def compute_seconds(runs: int) -> list[float]:
    """Seconds to compute the matrix in a fresh interpreter, once per run."""
    times = []
    for _ in range(runs):
        proc = subprocess.run([sys.executable, "-c", _COMPUTE], cwd=REPO, capture_output=True, text=True,
                              check=True)
        times.append(float(proc.stdout.strip().splitlines()[-1]))
    return times


def section(site: Path, runs: int) -> str:
    """The Markdown section: one column per language."""
    html = {lang: page_html_bytes(site, path) for lang, path in PAGES.items()}
    sent = transfer(site, runs)
    seconds = compute_seconds(runs)
    langs = list(PAGES)

    def row(name: str, values: list[str], target: str) -> str:
        return f"| {name} | {' | '.join(values)} | {target} |"

    lines = [
        f"{HEADING} ({date.today().isoformat()}, bench/page_size_bench.py)",
        "",
        "The matrix page (`/what-fits/`, `/zh/what-fits/`, `/en/what-fits/`), computed at build time by",
        "`kvguide_macros/what_fits.py` and laid out as one HTML table.",
        "",
        f"| measure | {' | '.join(langs)} | target |",
        "|---|" + "---:|" * (len(langs) + 1),
        row("page HTML (uncompressed)", [f"{html[lang][0]:,} B" for lang in langs], f"< {TARGET_BYTES:,} B"),
        row("page HTML gzipped (`gzip -9`)", [f"{html[lang][1]:,} B" for lang in langs], "–"),
        row(f"everything the page loads, cold cache (median of {runs})",
            [f"{statistics.median(sent[lang][0]):,.0f} B" for lang in langs], f"< {TARGET_BYTES:,} B"),
        row("requests of a cold visit", [str(sent[lang][1]) for lang in langs], "–"),
        row(f"computing the matrix, fresh interpreter (median of {runs})",
            [f"{statistics.median(seconds):.1f} s", "–", "–"], "–"),
        "",
        "Transfer: headless Chromium against `python -m http.server` (no compression), a fresh context per",
        "visit, headers and bodies of every request until the network is idle (HTML, the theme's CSS and",
        "scripts, `what-fits.js`, the search configuration). The compute time is every cell's auto-fit plans",
        "and band edges for one language (the other two reuse the cells); `make site` pays it, the reader",
        "does not. Shared 2-core machine: the time varies with the load.",
        "",
    ]
    return "\n".join(lines)


def write(text: str) -> None:
    """Replace this script's section of RESULTS.md, or append it."""
    old = RESULTS.read_text(encoding="utf-8")
    start = old.find(HEADING)
    if start < 0:
        RESULTS.write_text(old.rstrip("\n") + "\n\n" + text, encoding="utf-8")
        return
    end = old.find("\n## ", start + len(HEADING))
    rest = old[end + 1:] if end >= 0 else ""
    RESULTS.write_text(old[:start] + text + ("\n" + rest if rest else ""), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site-dir", type=Path, default=REPO / "site")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="replace the section in bench/RESULTS.md")
    args = parser.parse_args(argv)
    if not (args.site_dir / "what-fits" / "index.html").is_file():
        print(f"no built site in {args.site_dir} (make site)", file=sys.stderr)
        return 2
    text = section(args.site_dir, args.runs)
    print(text)
    if args.write:
        write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
