"""The calculator form as the build renders it (``kvguide_macros.widget``): the three settings
that change Mamba / linear-attention hybrid plans (``enable_prefix_caching``,
``mamba_cache_mode``, ``mamba_ssm_cache_dtype``), named as the CLI names them, with the
existing fields' markup (label, hint and error slot tied by ``aria-describedby``, ``form="…"``
in the "Advanced" panel); their options; a preset that sets them (the panel opens, the
``vllm serve`` line and the deep link carry them); a pasted log that states them; escaping."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from kvcalc.faces.web import compute
from kvcalc.inputs import INPUT_KEYS
from kvcalc.kv.kv_spec import MAMBA_DTYPES, MambaCacheMode
from kvguide_macros import widget
from kvguide_macros.sections import section_pages
from kvguide_macros.strings import t

REPO = Path(__file__).resolve().parents[1]
LANGS = ("es", "zh", "en")
HYBRID = ("enable_prefix_caching", "mamba_cache_mode", "mamba_ssm_cache_dtype")
QWEN3_NEXT = {"model": "Qwen/Qwen3-Next-80B-A3B-Instruct", "gpu": "H100-80GB", "tensor_parallel_size": "4",
              "max_model_len": "32768", "vllm_version": "0.24.0"}


def render(lang: str = "en", preset: str = "calculator", **inputs: object) -> str:
    page = "" if lang == "es" else f"{lang}/"
    return widget.calculator(lang, preset, page_url=f"{page}calculator/",
                             sections=section_pages(REPO / "docs" / lang), **inputs)


class Controls(HTMLParser):
    """Every form control (its attributes), each ``<select>``'s options as ``(value, label, selected)``,
    and the attributes of every element with an ``id``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.controls: dict[str, dict[str, str | None]] = {}
        self.options: dict[str, list[tuple[str, str, bool]]] = {}
        self.ids: dict[str, dict[str, str | None]] = {}
        self._select: str | None = None
        self._option: tuple[str, bool] | None = None
        self._label = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids[str(a["id"])] = a
        if tag in ("input", "select", "textarea") and a.get("name"):
            self.controls[str(a["name"])] = {**a, "tag": tag}
        if tag == "select":
            self._select = str(a["name"])
            self.options[self._select] = []
        elif tag == "option" and self._select:
            self._option = (str(a.get("value")), "selected" in a)
            self._label = ""

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._label += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self._option is not None and self._select:
            self.options[self._select].append((self._option[0], self._label, self._option[1]))
            self._option = None
        elif tag == "select":
            self._select = None


def parse(markup: str) -> Controls:
    parser = Controls()
    parser.feed(markup)
    return parser


def config_of(markup: str) -> dict:
    body = re.search(r"<script type=\"application/json\" data-kvcalc-config>(.*?)</script>", markup, re.S)
    assert body
    return json.loads(body.group(1))


def advanced_panel(markup: str) -> str:
    start = markup.index('<details class="kvcalc-advanced"')
    return markup[start:markup.index("</details>", start)]


def selected(parsed: Controls, name: str) -> str:
    """The option a browser shows: the one marked ``selected``, else the first."""
    options = parsed.options[name]
    return next((v for v, _, chosen in options if chosen), options[0][0])


# ---------------------------------------------------------------------------
# Names, markup, options
# ---------------------------------------------------------------------------


def test_the_hybrid_settings_are_form_names_in_contract_order() -> None:
    assert set(HYBRID) <= set(widget.INPUT_NAMES)
    assert list(widget.INPUT_NAMES) == [k for k in INPUT_KEYS if k not in ("available_kv_bytes", "no_async_scheduling")]
    assert set(HYBRID) <= set(widget.ADVANCED_NAMES)


@pytest.mark.parametrize("lang", LANGS)
def test_each_setting_is_a_labelled_select_in_the_advanced_panel(lang: str) -> None:
    markup = render(lang)
    parsed = parse(markup)
    panel = advanced_panel(markup)
    uid = "kvcalc-calculator"
    for name in HYBRID:
        control = parsed.controls[name]
        assert control["tag"] == "select" and control["id"] == f"{uid}-{name}"
        assert control["form"] == f"{uid}-form"       # laid out after the result, still the one form's field
        assert f'data-kvcalc-field="{name}"' in panel and f'id="{uid}-{name}"' in panel
        assert f'<label for="{uid}-{name}">{html.escape(t(lang, "widget." + name))}</label>' in markup
        hint, error = f"{uid}-{name}-hint", f"{uid}-{name}-error"
        # the hint, the marker saying where the value came from (here vLLM's default: the preset sets none), the error
        source = f"{uid}-{name}-source"
        assert (control["aria-describedby"] or "").split() == [hint, source, error]
        assert "data-kvcalc-source-label" in parsed.ids[source] and 'data-kvcalc-source="default"' in panel
        assert parsed.ids[hint] and parsed.ids[error]["data-kvcalc-error-for"] == name
        assert parsed.ids[error]["role"] == "alert" and "hidden" in parsed.ids[error]
    # no preset value: every one shows vLLM's default, and the panel stays closed
    assert [selected(parsed, name) for name in HYBRID] == ["", "", ""]
    assert "<details class=\"kvcalc-advanced\" data-kvcalc-advanced>" in markup


@pytest.mark.parametrize("lang", LANGS)
def test_options_say_default_on_off_and_vllms_spellings(lang: str) -> None:
    parsed = parse(render(lang))
    default = t(lang, "widget.vllm_default")
    assert [(v, label) for v, label, _ in parsed.options["enable_prefix_caching"]] == [
        ("", default), ("true", t(lang, "widget.on")), ("false", t(lang, "widget.off"))]
    assert [v for v, _, _ in parsed.options["enable_prefix_caching"]] == list(widget.PREFIX_CACHING_CHOICES)
    assert parsed.controls["enable_prefix_caching"].get("data-kvcalc-bool", "missing") is None   # the page script's cue
    assert [(v, label) for v, label, _ in parsed.options["mamba_cache_mode"]] == [
        ("", default), ("none", "none"), ("align", "align"), ("all", "all")]
    assert [v for v, _, _ in parsed.options["mamba_cache_mode"]][1:] == [m.value for m in MambaCacheMode]
    assert [(v, label) for v, label, _ in parsed.options["mamba_ssm_cache_dtype"]] == [
        ("", "auto"), ("float32", "float32"), ("float16", "float16"), ("bfloat16", "bfloat16")]
    assert ["auto", *[v for v, _, _ in parsed.options["mamba_ssm_cache_dtype"]][1:]] == list(MAMBA_DTYPES)


def test_labels_and_hints_are_escaped() -> None:
    markup = render("en")
    # "vLLM's default" and the hints' quotes reach the page as text, never as markup
    assert "vLLM&#x27;s default" in markup and "vLLM's default" not in markup
    assert html.escape(t("en", "widget.enable_prefix_caching_hint")) in markup


# ---------------------------------------------------------------------------
# Presets: selected options, the panel, the result, the command and the link
# ---------------------------------------------------------------------------


def test_a_preset_sets_them_and_the_result_the_command_and_the_link_carry_them() -> None:
    inputs = {**QWEN3_NEXT, "enable_prefix_caching": True, "mamba_cache_mode": "align",
              "mamba_ssm_cache_dtype": "float32"}
    markup = render("en", **inputs)
    parsed = parse(markup)
    assert [selected(parsed, n) for n in HYBRID] == ["true", "align", "float32"]
    assert '<details class="kvcalc-advanced" open data-kvcalc-advanced>' in markup
    config = config_of(markup)
    assert {k: config["inputs"][k] for k in HYBRID} == {"enable_prefix_caching": "true", "mamba_cache_mode": "align",
                                                        "mamba_ssm_cache_dtype": "float32"}
    assert set(HYBRID) <= set(config["names"])
    # the preset's result is the core's for the same inputs, and differs from vLLM 0.24.0's default (off)
    expected = json.loads(compute(json.dumps({"action": "plan", "lang": "en", "inputs": config["inputs"]})))
    default = json.loads(compute(json.dumps({"action": "plan", "lang": "en", "inputs": QWEN3_NEXT})))
    shown = json.loads(html.unescape(re.search(r'data-kvcalc-result="([^"]*)"', markup).group(1)))
    assert shown == expected["result"]
    assert shown["needed_kv_bytes"] > default["result"]["needed_kv_bytes"]
    command = html.unescape(markup.split('data-kvcalc-out="serve-command">', 1)[1].split("</pre>", 1)[0])
    assert "--enable-prefix-caching" in command and "--mamba-cache-mode align" in command
    assert "--mamba-ssm-cache-dtype float32" in command
    # a guide page's card links into the calculator with them
    card = render("en", preset="fp8-kv-cache", **inputs)
    link = html.unescape(re.search(r'data-kvcalc-open-link href="([^"]*)"', card).group(1))
    query = dict(parse_qsl(urlsplit(link).query))
    assert (query["enable_prefix_caching"], query["mamba_cache_mode"], query["mamba_ssm_cache_dtype"]) == (
        "true", "align", "float32")


@pytest.mark.parametrize(("given", "shown"), [
    (False, "false"), ("false", "false"), ("off", "false"), ("0", "false"),
    (True, "true"), ("1", "true"), ("on", "true"), ("true", "true"), (None, ""), ("", ""),
])
def test_prefix_caching_off_stays_off_not_default(given: object, shown: str) -> None:
    markup = render("en", **{**QWEN3_NEXT, "enable_prefix_caching": given})
    assert selected(parse(markup), "enable_prefix_caching") == shown
    command = html.unescape(markup.split('data-kvcalc-out="serve-command">', 1)[1].split("</pre>", 1)[0])
    assert ("--no-enable-prefix-caching" in command) == (shown == "false")
    assert ("--enable-prefix-caching" in command) == (shown == "true")
    assert config_of(markup)["inputs"].get("enable_prefix_caching", "") == shown
    # only a set value opens the panel (vllm_version is not set here)
    plain = render("en", model="Qwen/Qwen3-Next-80B-A3B-Instruct", gpu="H100-80GB", tensor_parallel_size=4,
                   enable_prefix_caching=given)
    assert ('<details class="kvcalc-advanced" open' in plain) == (shown != "")


def test_a_bad_preset_value_fails_the_build() -> None:
    with pytest.raises(ValueError, match="mamba_cache_mode"):
        render("en", **{**QWEN3_NEXT, "mamba_cache_mode": "ALIGN"})
    with pytest.raises(ValueError, match="enable_prefix_caching"):
        render("en", **{**QWEN3_NEXT, "enable_prefix_caching": "maybe"})


# ---------------------------------------------------------------------------
# A pasted log (a "paste your log" preset): it fills them; escaping
# ---------------------------------------------------------------------------

QWEN36_LOG = REPO / "tests" / "data" / "logs" / "v0240_qwen36_35b_a3b_nvfp4_5090.log"


def test_a_log_preset_fills_the_setting_the_log_states() -> None:
    # 'enable_prefix_caching': True in the log's non-default args
    markup = render("en", preset="paste-your-log", log=QWEN36_LOG.read_text(encoding="utf-8"),
                    mamba_ssm_cache_dtype="float32")
    parsed = parse(markup)
    assert selected(parsed, "enable_prefix_caching") == "true"
    assert selected(parsed, "mamba_ssm_cache_dtype") == "float32"     # what the form held stays
    assert selected(parsed, "mamba_cache_mode") == ""
    assert config_of(markup)["inputs"]["enable_prefix_caching"] == "true"


def test_a_hostile_value_from_a_log_is_never_markup() -> None:
    hostile = "<img src=x onerror=alert(1)>"
    log = ("INFO non-default args: {'model': 'nvidia/Qwen3.6-35B-A3B-NVFP4', "
           f"'mamba_cache_mode': '{hostile}', 'mamba_ssm_cache_dtype': '\"><script>alert(1)</script>'}}\n")
    markup = render("en", preset="paste-your-log", log=log, gpu="RTX-5090")
    assert "<img" not in markup and "<script>alert" not in markup
    parsed = parse(markup)
    # no option matches: the selects show vLLM's default; the value travels only as escaped JSON
    assert selected(parsed, "mamba_cache_mode") == "" and selected(parsed, "mamba_ssm_cache_dtype") == ""
    assert config_of(markup)["inputs"]["mamba_cache_mode"] == hostile
