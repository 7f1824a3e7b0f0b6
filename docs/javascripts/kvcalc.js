/*
 * kvcalc: the calculator widgets of the guide.
 *
 * Mounted on every `[data-kvcalc-component="calculator"]` as soon as the script runs
 * (and again on Material's `document$`).
 * The arithmetic and every sentence come from the Python core (kvcalc.faces.web.compute)
 * running in Pyodide inside a module Web Worker (kvcalc-worker.js), so the page
 * never freezes and the numbers are the CLI's. This file only moves form values
 * to the worker and places the report in the page: it fills the result's
 * templates (written once, by kvguide_macros/results.py, which fills the same
 * templates by the same rules for the preset shown before Pyodide is ready),
 * every string with textContent.
 *
 * Pyodide is only downloaded once a calculator is in view (at once if it is when
 * the page opens, else when it scrolls in) or the reader touches one; pages
 * without a calculator never fetch it.
 */

import { copyText } from "./clipboard.js"

const SVG_NS = "http://www.w3.org/2000/svg"

/**
 * The start-up and recompute timeline, as User Timing marks named `kvcalc:*`
 * (bench/web_bench.py reads them; the worker's marks come as epoch times).
 */
function mark(name, epochMs) {
  const options = epochMs === undefined ? undefined : { startTime: epochMs - performance.timeOrigin }
  performance.mark(`kvcalc:${name}`, options)
}

function importMarks(list) {
  for (const [name, at] of list || []) mark(`worker:${name}`, at)
}

mark("script-start")

/* ----------------------------------------------------------------------------
 * The one worker of the page, started lazily and shared by its calculators
 * ------------------------------------------------------------------------- */

let engine = null

/** Start (once) the worker and return its handle: `send(request) -> Promise<response>`. */
function startEngine(assetsUrl) {
  if (engine) return engine
  const worker = new Worker(new URL("./kvcalc-worker.js", import.meta.url), { type: "module" })
  mark("worker-created")
  const pending = new Map()
  const listeners = new Set()
  let nextId = 1
  let state = { stage: "starting", step: 0, total: 3, ready: false, failed: null, bytes: null }
  /** Bytes downloaded so far and in all: the page's (the wasm) and the worker's (the rest). */
  const download = { page: { loaded: 0, total: 0 }, worker: { loaded: 0, total: 0 } }
  const notify = () => { for (const listener of listeners) listener(state) }
  const onBytes = (who, loaded, total) => {
    download[who] = { loaded, total }
    state = { ...state, bytes: {
      loaded: download.page.loaded + download.worker.loaded, total: download.page.total + download.worker.total } }
    notify()
  }
  worker.addEventListener("message", ({ data }) => {
    if (data.marks) importMarks(data.marks)
    if (data.type === "bytes") {
      onBytes("worker", data.loaded, data.total)
    } else if (data.type === "progress" || data.type === "ready" || data.type === "failed") {
      state = {
        ...state,
        stage: data.stage ?? data.type,
        step: data.step ?? state.step,
        total: data.total ?? state.total,
        ready: data.type === "ready",
        failed: data.type === "failed" ? data.message : null,
      }
      for (const listener of listeners) listener(state)
      if (data.type === "failed") {
        for (const { reject } of pending.values()) reject(new Error(data.message))
        pending.clear()
      }
    } else if (data.type === "result") {
      const entry = pending.get(data.id)
      pending.delete(data.id)
      mark("result-received")
      if (entry) entry.resolve(parseResponse(data.response))
    }
  })
  // A dead worker answers nothing more: settle every request it holds, so no calculator waits for ever.
  worker.addEventListener("error", event => {
    state = { ...state, ready: false, failed: event.message || "worker error" }
    for (const listener of listeners) listener(state)
    for (const { reject } of pending.values()) reject(new Error(state.failed))
    pending.clear()
  })
  worker.addEventListener("messageerror", () => {
    for (const { resolve } of pending.values()) resolve(parseResponse(null))
    pending.clear()
  })
  worker.postMessage({ type: "init", assets: assetsUrl })
  compileRuntime(worker, assetsUrl, (loaded, total) => onBytes("page", loaded, total))
  engine = {
    send(request) {
      if (state.failed) return Promise.reject(new Error(state.failed))
      const id = nextId++
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject })
        mark("request-sent")
        worker.postMessage({ type: "compute", id, request: JSON.stringify(request) })
      })
    },
    /** Call `listener(state)` now and on every change. */
    watch(listener) {
      listeners.add(listener)
      listener(state)
    },
  }
  return engine
}

/**
 * The core's JSON answer, or an error answer when it cannot be read (the core writes strict
 * JSON, so this is a broken runtime): the request still settles and the next edit is taken.
 */
function parseResponse(text) {
  try {
    const response = JSON.parse(text)
    if (response && typeof response === "object" && typeof response.ok === "boolean") return response
  } catch {}
  return { ok: false, errors: [{ code: "bad_response", field: null, message: String(text).slice(0, 200) }] }
}

/**
 * `stream`, gunzipped when it holds gzip (it starts with 1f 8b); as it is otherwise (a host
 * that sends the build's `.gz` files with `Content-Encoding: gzip` has the browser decode them).
 * The same function is in kvcalc-worker.js.
 */
async function gunzipped(stream) {
  const reader = stream.getReader()
  const first = await reader.read()
  const head = first.done ? new Uint8Array(0) : first.value
  const whole = new ReadableStream({
    start(controller) {
      if (head.byteLength) controller.enqueue(head)
      if (first.done) controller.close()
    },
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) controller.close()
      else controller.enqueue(value)
    },
    cancel(reason) { return reader.cancel(reason) },
  })
  return head[0] === 0x1f && head[1] === 0x8b ? whole.pipeThrough(new DecompressionStream("gzip")) : whole
}

/** localStorage: how fast this reader's last download of the runtime's wasm was ("fast" or "slow"). */
const LINK_KEY = "kvcalc-link"
/** localStorage: a pinned snapshot decision ("fast": fetch it, "slow": skip it), never overwritten. */
const LINK_PIN_KEY = "kvcalc-link-pinned"

/**
 * Which wasm to fetch, and its download (started here, or already by the calculator page's
 * <head>: hooks.py writes the same choice there, so the download starts with the HTML).
 * The gzip copy (3.5 of 9.6 MB) unless this reader's last download was fast: then Pyodide's
 * own file, whose compiled code Chromium caches under its URL for the next visit (a module
 * compiled from a decompressed stream has no URL, so it is compiled again on every visit).
 */
function wasmDownload(assetsUrl) {
  const early = window.__kvcalcWasm
  if (early && early.response) return early
  let fast = false
  try { fast = localStorage.getItem(LINK_KEY) === "fast" } catch {}
  const url = new URL(`pyodide/pyodide.asm.wasm${fast ? "" : ".gz"}`, assetsUrl).href
  return { url, gz: !fast, started: performance.now(), response: fetch(url) }
}

/**
 * Was the link fast (see fastLink)? Judged from the browser's own timing of the wasm's
 * download when its body came over the network, and then remembered for the next visit's
 * choice; a cached or revalidated body says nothing about the link: then what was
 * remembered, else the page's own count (`downloaded`).
 */
function linkWasFast(url, downloaded) {
  // A pinned decision ("fast" or "slow") wins over any timing: the reader's or a test's
  // choice, so that neither path depends on how busy the machine is.
  let pinned = null
  try { pinned = localStorage.getItem(LINK_PIN_KEY) } catch {}
  if (pinned === "fast" || pinned === "slow") return pinned === "fast"
  const entry = performance.getEntriesByName(url, "resource").at(-1)
  if (entry && entry.encodedBodySize && entry.transferSize >= entry.encodedBodySize) {
    // the body's transfer time (first byte to last): the link's throughput, not the server's
    // time to first byte (a busy local server answered after 0.85 s, then sent 3.5 MB in 0.25 s)
    const from = entry.responseStart > 0 ? entry.responseStart : entry.startTime
    const fast = fastLink({ bytes: entry.transferSize, ms: entry.responseEnd - from })
    try { localStorage.setItem(LINK_KEY, fast ? "fast" : "slow") } catch {}
    return fast
  }
  let remembered = null
  try { remembered = localStorage.getItem(LINK_KEY) } catch {}
  return remembered ? remembered === "fast" : fastLink(downloaded)
}

/**
 * Compile Pyodide's wasm here, on the page, and hand the module to the worker.
 *
 * Why: Chromium keeps the optimized code of a module compiled with
 * `compileStreaming` in its code cache, but only uses that cache for pages,
 * not for (module) workers. Compiled in the worker, a second visit ran the
 * interpreter's start-up on baseline code: 2.6–3.4 s instead of 1.2–1.5 s.
 * Compilation is asynchronous (off the main thread), so the page never waits
 * on it; the module is then posted to the worker, which instantiates it.
 * On any failure the worker is told so and fetches the wasm itself.
 */
function compileRuntime(worker, assetsUrl, onBytes) {
  const { url, gz, started, response: download } = wasmDownload(assetsUrl)
  const post = (module, downloaded) => {
    const fast = linkWasFast(url, downloaded)
    worker.postMessage({ type: "wasm", module, fast })
  }
  download
    .then(response => {
      if (!response.ok || !response.body) throw new Error(`${response.status}: ${response.url}`)
      // Count the bytes on a copy of the stream, read as fast as they arrive (the link's speed,
      // not the compiler's); the original goes to compileStreaming as it is, so that Chromium
      // caches the compiled code under the wasm's URL (or, gzipped, through the decompressor).
      const counting = countBytes(response.clone(), started, onBytes)
      const compiling = gz
        ? gunzipped(response.body).then(body => WebAssembly.compileStreaming(
          new Response(body, { headers: { "Content-Type": "application/wasm" } })))
        : WebAssembly.compileStreaming(response)
      return Promise.all([compiling, counting])
    })
    .then(([module, downloaded]) => { mark("wasm-compiled"); post(module, downloaded) })
    .catch(() => post(null, null))
}

/** Read `response` to its end, reporting the bytes as they arrive; resolves `{bytes, ms}` since `started`. */
async function countBytes(response, started, onBytes) {
  const total = Number(response.headers.get("Content-Length")) || 0
  const reader = response.body.getReader()
  let loaded = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return { bytes: loaded, ms: performance.now() - started }
    loaded += value.byteLength
    onBytes(loaded, total)
  }
}

/**
 * Was the runtime's wasm downloaded fast enough to be worth also fetching the start-up
 * snapshot (6.5 MB, which saves about half a second of start-up)? At least
 * FAST_LINK_BYTES_PER_MS (8 MB/s: the snapshot then costs under a second); null when unknown.
 */
const FAST_LINK_BYTES_PER_MS = 8000
function fastLink(downloadedIn) {
  if (!downloadedIn || !downloadedIn.bytes) return null
  return downloadedIn.bytes >= FAST_LINK_BYTES_PER_MS * downloadedIn.ms
}

/* ----------------------------------------------------------------------------
 * The result's templates (no innerHTML anywhere). The rules are those of
 * kvguide_macros/results.py, which fills the same templates at build time:
 * change one, change the other (tests/browser compares their markup).
 * ------------------------------------------------------------------------- */

/** Parse one of the core's SVG strings as XML and import it, dropping anything active. */
function svgNode(markup) {
  if (!markup) return null
  const doc = new DOMParser().parseFromString(markup, "image/svg+xml")
  const root = doc.documentElement
  if (root.namespaceURI !== SVG_NS || doc.getElementsByTagName("parsererror").length) return null
  for (const bad of root.querySelectorAll("script, foreignObject")) bad.remove()
  for (const node of [root, ...root.querySelectorAll("*")])
    for (const attr of [...node.attributes])
      if (/^on/i.test(attr.name) || /^\s*javascript:/i.test(attr.value)) node.removeAttribute(attr.name)
  return document.importNode(root, true)
}

/** `"a=b=c"` -> `["a", "b=c"]`; `[text, ""]` without the separator (Python's str.partition). */
function partition(text, separator) {
  const at = text.indexOf(separator)
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + separator.length)]
}

/** The value at `path`: `.` is `ctx` itself, else dotted keys. */
function valueAt(ctx, path) {
  if (path === ".") return ctx
  return path.split(".").reduce((value, key) => (value !== null && typeof value === "object" ? value[key] : undefined), ctx)
}

function present(value) {
  return !(value === undefined || value === null || value === false || value === ""
    || (Array.isArray(value) && value.length === 0))
}

function slotText(value) {
  if (value === undefined || value === null) return ""
  if (Array.isArray(value)) return value.map(slotText).join("\n")
  return String(value)
}

const SLOT_ATTRIBUTES = ["data-slot", "data-slot-attr", "data-slot-if", "data-slot-svg", "data-slot-each"]

/** A filled copy of template `name` (`templates`: name -> <template>; `tables`: the config's lookup tables). */
function fillTemplate(templates, tables, name, ctx) {
  const node = templates.get(name).content.firstElementChild.cloneNode(true)
  bindSlots(node, ctx, templates, tables)
  return node
}

/** Fill `node` with `ctx`; false when it is to be removed. */
function bindSlots(node, ctx, templates, tables) {
  for (const binding of (node.getAttribute("data-slot-attr") || "").split(" ").filter(Boolean)) {
    const [attr, source] = partition(binding, "=")
    const [path, where] = partition(source, "@")
    let value
    if (path.startsWith("!")) {
      value = !present(valueAt(ctx, path.slice(1)))
    } else {
      value = valueAt(ctx, path)
      if (where) {
        const [table, key] = partition(where, ".")
        value = tables[table]?.[value]?.[key]
      }
    }
    if (value === undefined || value === null || value === false) node.removeAttribute(attr)
    else node.setAttribute(attr, value === true ? "" : slotText(value))
  }
  if (node.hasAttribute("data-slot-if") && !present(valueAt(ctx, node.getAttribute("data-slot-if")))) return false
  if (node.hasAttribute("data-slot")) {
    node.textContent = slotText(valueAt(ctx, node.getAttribute("data-slot")))
  } else if (node.hasAttribute("data-slot-svg")) {
    const chart = svgNode(valueAt(ctx, node.getAttribute("data-slot-svg")))
    node.replaceChildren(...(chart ? [chart] : []))
  } else if (node.hasAttribute("data-slot-each")) {
    const [path, template] = partition(node.getAttribute("data-slot-each"), ":")
    node.replaceChildren(...[...(valueAt(ctx, path) || [])].map(item => fillTemplate(templates, tables, template, item)))
  } else {
    for (const child of [...node.children])
      if (!bindSlots(child, ctx, templates, tables)) child.remove()
  }
  for (const name of SLOT_ATTRIBUTES) node.removeAttribute(name)
  return true
}

/** Copy, then show the button's "copied" label for a moment. */
async function copyFrom(text, button) {
  if (!await copyText(text)) return
  const label = button.textContent
  button.textContent = button.dataset.kvcalcCopied || label
  setTimeout(() => { button.textContent = label }, 1500)
}

/* ----------------------------------------------------------------------------
 * One calculator
 * ------------------------------------------------------------------------- */

/**
 * A value for a yes/no/default select, as the core reads booleans (kvcalc.inputs.parse_bool):
 * "true" or "false", "" for vLLM's default; anything else is returned as is (and matches no option).
 */
function boolChoice(value) {
  if (value === true || value === false) return String(value)
  const text = String(value ?? "").trim().toLowerCase()
  if (["1", "true", "yes", "on"].includes(text)) return "true"
  if (["0", "false", "no", "off"].includes(text)) return "false"
  return text
}

/** A URL value longer than this is not something a reader typed (the log never travels in URLs). */
const MAX_URL_VALUE = 4096

/** decodeURIComponent that returns null instead of throwing on malformed input (`#%`). */
function safeDecode(text) {
  try {
    return decodeURIComponent(text)
  } catch {
    return null
  }
}

class Calculator {
  constructor(root, isFirst) {
    this.root = root
    this.config = JSON.parse(root.querySelector("script[data-kvcalc-config]").textContent)
    this.names = this.config.names   // the input names, from the core (kvcalc.inputs.INPUT_KEYS)
    this.form = root.querySelector("[data-kvcalc-form]")
    this.results = root.querySelector("[data-kvcalc-results]")
    this.announce = root.querySelector("[data-kvcalc-announce]")
    this.errorSummary = root.querySelector("[data-kvcalc-error-summary]")
    this.logBox = root.querySelector("[data-kvcalc-log]")
    this.out = name => root.querySelector(`[data-kvcalc-out="${name}"]`)
    this.assets = new URL(this.config.assets, location.href)
    this.megabytes = new Intl.NumberFormat(this.config.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
    /** The result's templates by name; the regions among them name what they show. */
    this.templates = new Map([...root.querySelectorAll("template[data-kvcalc-template]")]
      .map(template => [template.dataset.kvcalcTemplate, template]))
    this.regions = [...this.templates.values()].filter(template => template.dataset.kvcalcSource)
      .map(template => [template.dataset.kvcalcTemplate, template.dataset.kvcalcSource])
    this.seq = 0
    this.dirty = null          // "plan" | "log" | null: what the next request sends
    this.inFlight = false      // a request of this calculator awaits its answer
    this.shown = {}            // region -> JSON of what it shows (unchanged regions are not redrawn)
    this.edited = false        // only the reader's edits rewrite the URL
    this.engine = null
    this.formOwn = null        // the form's own values while a pasted log fills it (restored when the log is cleared)
    /** What the reader typed (input events, a link's values): name -> value. Only these go with a log. */
    this.typed = {}
    /** Where each field's value came from ("typed" | "log" | "preset" | "default"), as the build marked it. */
    this.sources = {}
    for (const wrapper of root.querySelectorAll("[data-kvcalc-field][data-kvcalc-source]"))
      this.sources[wrapper.dataset.kvcalcField] = wrapper.dataset.kvcalcSource
    /** The build's placeholders ("default"), shown again when the core resolves no default for a field. */
    this.placeholders = {}
    for (const name of this.names) {
      const control = this.form.elements.namedItem(name)
      if (control && control.placeholder !== undefined) this.placeholders[name] = control.placeholder
    }
    this.restoreFromUrl(isFirst)
    this.bind()
  }

  /**
   * Fill the form from the query string when the link targets this calculator.
   * Every decode is guarded: a malformed fragment (`#%`) targets nothing, and a value that
   * cannot be a form value (too long, or with control characters) is dropped with a notice;
   * the calculator starts in any case.
   */
  restoreFromUrl(isFirst) {
    this.urlNotices = []
    let params
    try {
      params = new URLSearchParams(location.search)
    } catch {
      return
    }
    if (!this.names.some(name => params.get(name))) return
    const hash = safeDecode(location.hash.slice(1))
    const targeted = (hash !== null && hash === this.config.preset)
      || (isFirst && (hash === null || !document.querySelector(`[data-kvcalc-preset="${CSS.escape(hash)}"]`)))
    if (!targeted) return
    for (const name of this.names) {
      const value = params.get(name) ?? ""
      if (value.length > MAX_URL_VALUE || /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffd]/.test(value)) {
        this.urlNotices.push({ code: "url_value_dropped", field: name, message: `${name}: ${this.config.strings.url_dropped}` })
        this.setField(name, "")
      } else {
        this.setField(name, value)
        if (value !== "") this.typed[name] = value   // a link carries the reader's own scenario
      }
    }
    this.markSources()
    if (this.logBox) this.logBox.value = ""
    // The build-time preset is another scenario: hide it until the restored one is computed.
    this.root.classList.add("kvcalc--stale")
    this.results.hidden = true
    const card = this.root.closest("details[data-kvcalc-lazy]")
    if (card) card.open = true
    this.restored = true
  }

  setField(name, value) {
    const field = this.form.elements.namedItem(name)
    if (!field) return
    if (field.type === "checkbox") {
      field.checked = value === true || ["true", "1", "yes", "on"].includes(String(value).toLowerCase())
    } else if (field.tagName === "SELECT") {
      // A yes/no/default select (enable_prefix_caching) reads what the core reads as a boolean:
      // a link may say 1 or on, a log true or false.
      const text = field.hasAttribute("data-kvcalc-bool") ? boolChoice(value) : String(value ?? "")
      field.value = text
      if (field.value !== text) field.value = ""   // "auto" is the empty (default) option
    } else {
      field.value = String(value ?? "")
    }
  }

  inputs() {
    const values = {}
    for (const name of this.names) {
      const field = this.form.elements.namedItem(name)
      if (!field) continue
      const value = field.type === "checkbox" ? (field.checked ? "true" : "") : field.value.trim()
      if (value !== "") values[name] = value
    }
    return values
  }

  /** What a log request sends: only what the reader typed (never a preset's example or an earlier log's facts). */
  typedInputs() {
    const values = this.inputs()
    return Object.fromEntries(Object.keys(this.typed).filter(name => name in values).map(name => [name, values[name]]))
  }

  /**
   * Each field's marker (data-kvcalc-source on its wrapper, and its label's words) after the form changed:
   * `logStated` names what the current log stated (the core's `sources`: the page guesses nothing), null
   * when no log fills the form.
   */
  markSources(logStated = null) {
    const values = this.inputs()
    for (const name of this.names) {
      let source
      if (!(name in values)) source = "default"
      else if (name in this.typed) source = "typed"
      else if (logStated) source = logStated.has(name) ? "log" : "default"
      else source = "preset"   // no log fills the form: a value nobody typed is the page's example
      this.setSource(name, source)
    }
  }

  /** An empty field shows what vLLM takes for it with this release, GPU and model (the core's `defaults`). */
  showDefaults(defaults) {
    for (const [name, placeholder] of Object.entries(this.placeholders)) {
      const control = this.form.elements.namedItem(name)
      const text = defaults?.[name] ?? placeholder
      if (control && control.placeholder !== text) control.placeholder = text
    }
  }

  setSource(name, source) {
    this.sources[name] = source
    const wrapper = this.root.querySelector(`[data-kvcalc-field="${CSS.escape(name)}"]`)
    if (!wrapper) return
    wrapper.dataset.kvcalcSource = source
    const label = wrapper.querySelector("[data-kvcalc-source-label]")
    const text = this.config.strings[`source_${source}`] ?? ""
    if (label && label.textContent !== text) label.textContent = text
  }

  bind() {
    const wake = () => this.wake()
    this.root.addEventListener("focusin", wake)
    this.root.addEventListener("pointerdown", wake)
    this.root.addEventListener("touchstart", wake, { passive: true })
    const observer = new IntersectionObserver(entries => {
      if (entries.some(entry => entry.isIntersecting)) {
        observer.disconnect()
        wake()
      }
    }, { rootMargin: "200px" })
    observer.observe(this.root)

    this.form.addEventListener("submit", event => event.preventDefault())
    // The advanced fields sit outside the <form> element (form="…"): listen on the widget.
    const ours = event => event.target.form === this.form
    this.root.addEventListener("input", event => {
      if (ours(event)) this.fieldEdited(event.target)
    })
    this.root.addEventListener("change", event => {
      if (ours(event) && (event.target.type === "checkbox" || event.target.tagName === "SELECT"))
        this.fieldEdited(event.target)
    })
    this.logBox?.addEventListener("input", () => {
      if (this.logBox.value.trim()) return this.schedule("log")
      // The log is gone: the form goes back to its own values, as they were before the log filled it.
      this.restoreOwnForm()
      this.schedule("plan")
    })
    this.root.addEventListener("click", event => {
      const button = event.target.closest("[data-kvcalc-action]")
      if (!button || !this.root.contains(button)) return
      const action = button.dataset.kvcalcAction
      if (action === "copy-link") copyFrom(this.shareUrl(), button)
      else if (action === "copy") copyFrom(button.parentElement.querySelector("pre").textContent, button)
      else if (action === "suggest") {
        this.setField(button.dataset.kvcalcField, button.dataset.kvcalcValue)
        this.form.elements.namedItem(button.dataset.kvcalcField)?.focus()
        this.fieldEdited(this.form.elements.namedItem(button.dataset.kvcalcField))
      }
    })
  }

  /**
   * An edit of a form field: the reader's own value (it stays over every log; emptied, the field is
   * the log's or vLLM's default again), also remembered as the form's own value while a log fills the form.
   */
  fieldEdited(field) {
    if (field?.name && this.names.includes(field.name)) {
      const value = field.type === "checkbox" ? (field.checked ? "true" : "") : field.value
      if (this.formOwn) this.formOwn[field.name] = value
      if (value.trim() !== "") this.typed[field.name] = value.trim()
      else delete this.typed[field.name]
      this.setSource(field.name, value.trim() !== "" ? "typed" : "default")
    }
    this.schedule(this.logBox?.value.trim() ? "log" : "plan")
  }

  restoreOwnForm() {
    if (!this.formOwn) return
    for (const name of this.names) this.setField(name, this.formOwn[name] ?? "")
    this.formOwn = null
    this.markSources()
  }

  /** Start the page's engine; every calculator on the page then follows it. */
  wake() {
    if (this.engine) return
    const engine = startEngine(this.assets.href)
    for (const calculator of calculators) calculator.attach(engine)
  }

  attach(engine) {
    if (this.engine) return
    this.engine = engine
    engine.watch(state => this.onEngine(state))
  }

  onEngine(state) {
    const bar = this.root.querySelector("[data-kvcalc-progress] progress")
    const label = this.out("progress")
    if (state.failed) {
      label.textContent = `${this.config.strings.load_failed} (${state.failed})`
      return
    }
    if (state.bytes?.total && !state.ready) {
      // Bytes as they arrive (slow links): the site's sentence, with the figures in the reader's locale.
      bar.max = state.bytes.total
      bar.value = Math.min(state.bytes.loaded, state.bytes.total)
      const megabytes = value => this.megabytes.format(value / 1e6)
      label.textContent = this.config.strings.loading_bytes
        .replace("{loaded}", megabytes(state.bytes.loaded)).replace("{total}", megabytes(state.bytes.total))
    } else {
      bar.max = state.total
      bar.value = state.step
    }
    if (!state.ready) return
    this.root.querySelector("[data-kvcalc-progress]").hidden = true
    this.request(this.logBox && this.logBox.value.trim() && !this.restored ? "log" : "plan")
  }

  /**
   * Send the edit now if the worker has nothing of ours in hand; otherwise
   * remember it and send it (with any later edits, coalesced) as soon as the
   * pending answer arrives. So an edit never waits for a timer or a frame,
   * and at most one request per calculator is in flight.
   */
  schedule(kind) {
    this.edited = true
    this.wake()
    this.request(kind)
  }

  request(kind) {
    this.dirty = this.dirty === "log" && kind === "plan" ? "log" : kind
    if (!this.inFlight) this.flush()
  }

  async flush() {
    // A log box emptied while its request was pending: plan the form instead of reading "".
    const kind = this.dirty === "log" && !this.logBox?.value.trim() ? "plan" : this.dirty
    if (!kind || !this.engine) return
    this.dirty = null
    this.inFlight = true
    const seq = ++this.seq
    const edited = this.edited
    const request = { action: kind, lang: this.config.lang, inputs: this.inputs() }
    if (kind === "log") {
      // A log replaces everything an earlier log (or the preset) put in the form: only the reader's own values go with it.
      request.inputs = this.typedInputs()
      request.typed = Object.keys(request.inputs)
      request.log = this.logBox.value
    }
    let response
    try {
      response = await this.engine.send(request)
    } catch (error) {
      // The worker died (the progress line says so): this request is settled, the next edit is taken.
      this.inFlight = false
      this.root.dataset.kvcalcStatus = "error"
      if (this.dirty) return this.flush()
      return
    } finally {
      this.inFlight = false
    }
    // Newer edits arrived meanwhile: this answer is stale, ask for theirs instead.
    if (this.dirty) return this.flush()
    if (seq !== this.seq) return
    this.apply(kind, response, edited)
    mark("dom-updated")
  }

  apply(kind, response, edited) {
    this.clearErrors()
    if (this.urlNotices?.length && !edited) this.showErrors(this.urlNotices)
    if (!response.ok) {
      // Nothing computed: no earlier answer stays on screen; the error leads the result and sits beside its field.
      this.showErrors(response.errors || [], true)
      this.results.hidden = true
      this.root.classList.add("kvcalc--stale")
      this.root.removeAttribute("data-kvcalc-result")
      this.root.dataset.kvcalcStatus = "error"
      // the live region says what is on screen now: the error, never the previous verdict
      this.showDefaults(null)
      const message = (response.errors || []).map(error => error.message).join(" ")
      if (this.announce.textContent !== message) this.announce.textContent = message
      return
    }
    if (kind === "log" && response.inputs) {
      // The core merged what the reader typed with the log's facts: the form becomes exactly that
      // (its own values, less an earlier log's, are kept to come back when the log is cleared).
      if (!this.formOwn) {
        const own = this.inputs()
        for (const name of Object.keys(own)) if (this.sources[name] === "log") delete own[name]
        this.formOwn = own
      }
      for (const name of this.names) this.setField(name, response.inputs[name] ?? "")
      const sources = response.sources || {}
      this.markSources(new Set(Object.keys(sources).filter(name => sources[name] === "log")))
    } else if (kind === "plan") {
      this.formOwn = null
    }
    this.render(response)
    this.showDefaults(response.defaults)
    // A log may lack what a plan needs (no model named): the core says what is missing, beside the field.
    if (response.replan_error) this.showErrors([response.replan_error])
    this.results.hidden = false
    this.root.classList.remove("kvcalc--stale")
    this.root.classList.toggle("kvcalc--no-report", !response.report)
    if (response.result) this.root.dataset.kvcalcResult = JSON.stringify(response.result)
    else this.root.removeAttribute("data-kvcalc-result")
    const summary = response.report?.verdict?.title ?? response.reading?.title ?? ""
    if (this.announce.textContent !== summary) this.announce.textContent = summary
    this.root.dataset.kvcalcStatus = "ready"
    if (edited && response.query) this.writeUrl(response.query)
  }

  clearErrors() {
    for (const slot of this.root.querySelectorAll("[data-kvcalc-error-for]")) {
      slot.textContent = ""
      slot.hidden = true
    }
    for (const box of this.root.querySelectorAll("[data-kvcalc-suggest-for]")) {
      box.querySelector("[data-kvcalc-suggest-list]").replaceChildren()
      box.hidden = true
    }
    this.errorSummary.hidden = true
    this.out("error-summary").textContent = ""
    for (const field of this.root.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid")
  }

  /**
   * Each error beside its field (the field's aria-describedby names the slot; a closed panel
   * holding the field is opened) and, when `atTop`, also at the top of the result.
   */
  showErrors(errors, atTop = false) {
    for (const error of errors) {
      const name = error.field || ""
      const slot = this.root.querySelector(`[data-kvcalc-error-for="${CSS.escape(name)}"]`)
        || this.root.querySelector('[data-kvcalc-error-for=""]')
      slot.textContent = slot.textContent ? `${slot.textContent} ${error.message}` : error.message
      slot.hidden = false
      const panel = slot.closest("details.kvcalc-advanced, details.kvcalc-log")   // never a guide page's card
      if (panel && !panel.open) panel.open = true
      const field = name === "log" ? this.logBox : this.form.elements.namedItem(name)
      field?.setAttribute?.("aria-invalid", "true")
      this.showSuggestions(name, error.suggestions)
      if (atTop) {
        const top = this.out("error-summary")
        top.textContent = top.textContent ? `${top.textContent} ${error.message}` : error.message
        this.errorSummary.hidden = false
      }
    }
  }

  /** The core's "did you mean" ids as buttons beside the model or GPU field. */
  showSuggestions(name, suggestions) {
    const box = this.root.querySelector(`[data-kvcalc-suggest-for="${CSS.escape(name)}"]`)
    if (!box || !suggestions?.length) return
    box.querySelector("[data-kvcalc-suggest-list]").replaceChildren(...suggestions.map(value => {
      const button = document.createElement("button")
      button.type = "button"
      button.className = "kvcalc-button kvcalc-suggestion"
      button.dataset.kvcalcAction = "suggest"
      button.dataset.kvcalcField = name
      button.dataset.kvcalcValue = value
      button.textContent = value
      return button
    }))
    box.hidden = false
  }

  /** True when `value` differs from what region `name` shows (and remember it). */
  fresh(name, value) {
    const key = JSON.stringify(value ?? null)
    if (this.shown[name] === key) return false
    this.shown[name] = key
    return true
  }

  /**
   * Redraw each region of the result whose value in the response changed, as a
   * filled copy of its template. Every region follows the response, so nothing of
   * an earlier answer stays (a log with no figure at all empties the report's regions).
   */
  render(response) {
    for (const [name, source] of this.regions) {
      const value = valueAt(response, source)
      if (this.fresh(name, value))
        this.out(name).replaceWith(fillTemplate(this.templates, this.config.tables, name, value))
    }
  }

  shareUrl(query) {
    const params = new URLSearchParams(query ?? this.lastQuery ?? this.inputs())
    const url = new URL(location.href)
    url.search = params.toString()
    url.hash = this.config.preset
    return url.href
  }

  /**
   * The address bar follows the answer, in a task of its own: history.replaceState takes 1-3 ms in
   * Chromium, which the answer on screen does not wait for (bench/RESULTS.md). Edits that land
   * meanwhile write once, the last; the copy-link button reads `lastQuery` at once.
   */
  writeUrl(query) {
    this.lastQuery = query
    if (this.urlPending) return
    this.urlPending = true
    setTimeout(() => {
      this.urlPending = false
      history.replaceState(history.state, "", this.shareUrl(this.lastQuery))
    }, 0)
  }
}

/* ----------------------------------------------------------------------------
 * Mounting
 * ------------------------------------------------------------------------- */

const mounted = new WeakSet()
const calculators = new Set()
/** How far outside the viewport a calculator already counts as "in view" (px). */
const NEAR_VIEW_PX = 200

/** Is the element laid out within NEAR_VIEW_PX of the viewport right now? */
function nearViewport(node) {
  const box = node.getBoundingClientRect()
  return box.width > 0 && box.bottom > -NEAR_VIEW_PX && box.top < innerHeight + NEAR_VIEW_PX
}

function mountAll() {
  const roots = document.querySelectorAll('[data-kvcalc-component="calculator"]')
  for (const calculator of calculators)
    if (!calculator.root.isConnected) calculators.delete(calculator)
  roots.forEach((root, index) => {
    if (mounted.has(root)) return
    mounted.add(root)
    const calculator = new Calculator(root, index === 0)
    calculators.add(calculator)
    if (engine) calculator.attach(engine)
    // Already in view: start now rather than at the IntersectionObserver's first callback.
    else if (nearViewport(root)) calculator.wake()
  })
}

// A module script runs once the document is parsed, so the calculators are
// there: mount at once (not on Material's document$, which emits later), and
// again on document$ for pages Material swaps in (mountAll is idempotent).
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll)
else mountAll()
if (typeof window.document$?.subscribe === "function") window.document$.subscribe(mountAll)
