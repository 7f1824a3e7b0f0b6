"""What the calculator writes in the browser is in the page's language.

The built pages are checked block by block in tests/test_docs_site.py; the result the page script
fills in once Pyodide is ready exists only in the browser. Here the calculator of each language
computes a scenario that fits, one that does not, a borderline one and a Mamba-check one, and every
text block and readable attribute of the widget is checked with the same detectors
(tests/languages.py): no English or Spanish block on /zh/, no English on the Spanish root, no
Spanish on /en/, no Chinese on either.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from languages import wrong_language
from playwright.sync_api import Page

LANGS = ("es", "zh", "en")
PREFIX = {"es": "", "zh": "zh/", "en": "en/"}
READY_TIMEOUT_MS = 60_000

#: Scenarios whose results use different texts: fits; does not fit (cut by auto-fit at 34,528 on a
#: 3090, see the what-fits matrix); borderline (the AWQ checkpoint on an A10); the Mamba check.
SCENARIOS = {
    "fits": {"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB", "max_model_len": "32768"},
    "does-not-fit": {"model": "Qwen/Qwen3-8B", "gpu": "RTX-3090", "max_model_len": "40960"},
    "borderline": {"model": "Qwen/Qwen3-32B-AWQ", "gpu": "A10", "max_model_len": "4096"},
    "mamba": {"model": "Qwen/Qwen3.5-27B", "gpu": "H100-80GB", "kv_cache_dtype": "fp8"},
}
#: (status, verdict) of each scenario, as `kvcalc plan --json` prints them: four different results.
EXPECTED = {"fits": ("fits", "fits"), "does-not-fit": ("does_not_fit", "does_not_fit"),
            "borderline": ("does_not_fit", "borderline"),
            "mamba": ("mamba_blocks_below_max_num_seqs", "does_not_fit")}

#: The widget's text blocks outside code, and its readable attributes (visible or not: a hidden
#: panel opens, a screen reader reads labels).
_BLOCKS = """root => {
  const tags = 'p, li, td, th, h1, h2, h3, h4, h5, h6, dt, dd, label, option, button, summary, caption, legend';
  const out = [];
  for (const el of root.querySelectorAll(tags)) {
    if (el.closest('code, pre, textarea, kbd, samp')) continue;
    const copy = el.cloneNode(true);
    copy.querySelectorAll('code, pre, textarea, kbd, samp, script, style').forEach(n => n.remove());
    const text = copy.textContent.replace(/\\s+/g, ' ').trim();
    if (text) out.push(text);
  }
  for (const el of root.querySelectorAll('[placeholder], [aria-label], [title], [alt]')) {
    for (const a of ['placeholder', 'aria-label', 'title', 'alt']) {
      const v = el.getAttribute(a);
      if (v && v.trim()) out.push(v.replace(/\\s+/g, ' ').trim());
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_calculators_result_is_in_the_pages_language(page: Page, lang: str, scenario: str) -> None:
    page.goto(f"{PREFIX[lang]}calculator/?{urlencode(SCENARIOS[scenario])}#calculator")
    root = page.locator('[data-kvcalc-component="calculator"][data-kvcalc-preset="calculator"]')
    page.wait_for_function("el => el.dataset.kvcalcStatus === 'ready'", arg=root.element_handle(),
                           timeout=READY_TIMEOUT_MS)
    kind = page.locator('[data-kvcalc-out="verdict"]').first.get_attribute("data-kvcalc-kind")
    result = json.loads(root.get_attribute("data-kvcalc-result") or "null")
    assert (result["status"], result["verdict"]) == EXPECTED[scenario]
    blocks: list[str] = root.evaluate(_BLOCKS)
    assert len(blocks) > 20, blocks
    wrong = sorted({f"[{w}] {t}" for t in blocks if (w := wrong_language(t, lang))})
    assert not wrong, f"/{PREFIX[lang]}calculator/ ({scenario}, verdict {kind}):\n" + "\n".join(wrong)
