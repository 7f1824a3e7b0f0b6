/*
 * kvcalc-worker: the Python core in Pyodide, off the page's main thread.
 *
 * Messages in:  {type: "init", assets: "<absolute URL of the site's assets/>"}
 *               {type: "wasm", module: WebAssembly.Module | null, fast: boolean | null}
 *               (compiled by the page; `fast`: whether its download was fast enough for the snapshot)
 *               {type: "compute", id, request: "<JSON for kvcalc.faces.web.compute>"}
 * Messages out: {type: "progress", stage, step, total}, {type: "ready", step, total, marks},
 *               {type: "bytes", loaded, total} (what the worker downloaded so far, and will),
 *               {type: "failed", message}, {type: "result", id, response: "<JSON>", marks}
 *
 * Everything is fetched from the site itself: the Pyodide runtime copied from
 * the pinned npm package, the build's memory snapshot of that runtime with the
 * core imported, and the core's wheel, unpacked straight into site-packages
 * (no micropip, which Pyodide would fetch from a CDN).
 *
 * `marks` are [name, epoch ms] pairs (timeOrigin + now(), so the page can
 * place them on its own timeline as performance marks).
 */

const TOTAL_STEPS = 3
let computeFn = null
const queue = []
let resolveWasm
/** The page's message about the runtime's wasm: `{module, fast}` (module null: compile it here). */
const wasmMessage = new Promise(resolve => { resolveWasm = resolve })
const wasmFromPage = wasmMessage.then(message => message.module)
/** Bytes the worker has downloaded, and will download in all (the manifest's sizes). */
const bytes = { loaded: 0, total: 0 }
let marks = [["worker-start", now()]]

function now() {
  return performance.timeOrigin + performance.now()
}

function mark(name) {
  marks.push([name, now()])
}

function progress(stage, step) {
  self.postMessage({ type: "progress", stage, step, total: TOTAL_STEPS })
}

const countedResponses = new WeakSet()

/** `response` whose body reports its bytes to the page as they arrive (once, however often it is wrapped). */
function counted(response) {
  if (!response.ok || !response.body || countedResponses.has(response)) return response
  const counter = new TransformStream({
    transform(chunk, controller) {
      bytes.loaded += chunk.byteLength
      self.postMessage({ type: "bytes", loaded: bytes.loaded, total: bytes.total })
      controller.enqueue(chunk)
    },
  })
  const out = new Response(response.body.pipeThrough(counter), {
    status: response.status, statusText: response.statusText, headers: response.headers })
  countedResponses.add(out)
  return out
}

async function fetchOk(url, options) {
  const response = await fetch(url, options)
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}: ${url}`)
  return counted(response)
}

/**
 * While `loadPyodide` runs, make it instantiate the page's compiled module
 * instead of fetching and compiling `pyodide.asm.wasm` again (see
 * `compileRuntime` in kvcalc.js for why the page compiles it). Returns the
 * function that puts `fetch` and `WebAssembly.instantiateStreaming` back.
 */
/** Responses fetched ahead of loadPyodide, by URL (it takes each once). */
const prefetched = new Map()

/**
 * Start downloading what loadPyodide will ask for (the standard library; its script and
 * lock file: prefetchRuntime) at once, while the page downloads the wasm: loadPyodide itself starts only
 * once the page says how fast that was (it decides on the snapshot), and on a slow link
 * these bytes must not wait behind the wasm.
 */
function prefetch(url) {
  prefetched.set(url, fetch(url).then(counted))
}

/**
 * `stream`, gunzipped when it holds gzip (it starts with 1f 8b); as it is otherwise (a host
 * that sends the build's `.gz` files with `Content-Encoding: gzip` has the browser decode them).
 * The same function is in kvcalc.js (one copy each: a shared module would cost the worker
 * one more round trip before it starts).
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

/** The body of `url` (a build's `.gz` file), decompressed, as a Response. */
async function fetchGunzipped(url) {
  const response = await fetchOk(url)
  return new Response(await gunzipped(response.body))
}

/**
 * Start downloading, compressed, the runtime's script (1.25 MB, 0.26 MB gzipped) and lock
 * file (119 kB, 26 kB), which loadPyodide would fetch as they are: its options take both
 * (`createPyodideModule`, `lockFileContents`). If the compressed script cannot be used,
 * loadPyodide imports Pyodide's own; a failed compressed lock file falls back to Pyodide's.
 */
function prefetchRuntime(indexURL) {
  const script = fetchGunzipped(new URL("pyodide.asm.mjs.gz", indexURL))
    .then(response => response.blob())
    .then(blob => import(URL.createObjectURL(new Blob([blob], { type: "text/javascript" }))))
    .then(module => { mark("runtime-script-ready"); return module.default })
    .catch(() => undefined)
  const lock = fetchGunzipped(new URL("pyodide-lock.json.gz", indexURL))
    .then(response => response.json())
    .catch(() => fetchOk(new URL("pyodide-lock.json", indexURL)).then(response => response.json()))
  return { script, lock }
}

function useWasmFromPage() {
  const fetchOriginal = self.fetch
  const instantiateOriginal = WebAssembly.instantiateStreaming
  const isWasm = input => String(input instanceof Request ? input.url : input).endsWith("/pyodide.asm.wasm")
  const ahead = input => {
    const url = String(input instanceof Request ? input.url : input)
    const response = prefetched.get(url)
    prefetched.delete(url)
    return response
  }
  self.fetch = (input, init) => isWasm(input)
    ? wasmFromPage.then(module => module
      ? new Response(new Uint8Array(0), { headers: { "Content-Type": "application/wasm" } })
      : fetchOriginal(input, init))
    : ahead(input) || fetchOriginal(input, init).then(counted)
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const module = await wasmFromPage
    if (!module) return instantiateOriginal.call(WebAssembly, source, imports)
    mark("wasm-received")
    return { module, instance: await WebAssembly.instantiate(module, imports) }
  }
  return () => {
    self.fetch = fetchOriginal
    WebAssembly.instantiateStreaming = instantiateOriginal
  }
}

/** The snapshot's bytes (the build gzips it; decompressed while it downloads). */
async function fetchSnapshot(url) {
  const response = await fetchOk(url)
  const bytes = await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer()
  mark("snapshot-fetched")
  return new Uint8Array(bytes)
}

/**
 * Start Pyodide with the core imported. With the build's memory snapshot
 * (scripts/build_web_assets.py) the interpreter's start-up and the import are
 * restored instead of run; if there is none, or it fails to restore, Pyodide
 * starts the ordinary way and imports the core.
 */
async function startPython(loadPyodide, options, snapshotUrl) {
  // The snapshot saves the interpreter's start-up (about half a second here) but costs 6.5 MB:
  // on a slow link that is seconds. The page timed its download of the runtime's wasm; the
  // snapshot is fetched only when that was fast (or when the page could not tell).
  const { fast } = await wasmMessage
  if (snapshotUrl && fast === false) {
    mark("snapshot-skipped")
    bytes.total -= bytes.snapshot
  } else if (snapshotUrl) {
    try {
      return await loadPyodide({ ...options, _loadSnapshot: fetchSnapshot(snapshotUrl) })
    } catch (error) {
      mark("snapshot-failed")
    }
  }
  return loadPyodide(options)
}

async function boot(assets) {
  mark("init-received")
  progress("runtime", 0)
  const indexURL = new URL("pyodide/", assets).href
  const runtime = prefetchRuntime(indexURL)
  // The manifest is tiny and names the wheel and the snapshot; revalidate it
  // so a rebuilt site never pairs a new page with an old cached core.
  const manifestPromise = fetchOk(new URL("kvcalc-assets.json", assets), { cache: "no-cache" })
    .then(response => response.json())
  // The build's trimmed standard library (what the core and the runtime import: a third of
  // Pyodide's), checked at build time to answer as CPython does; else Pyodide's own.
  const stdLibURL = manifestPromise.then(manifest => manifest.stdlib
    ? new URL(manifest.stdlib, assets).href : new URL("python_stdlib.zip", indexURL).href)
  stdLibURL.then(prefetch, () => {})
  const wheelPromise = manifestPromise.then(manifest =>
    fetchOk(new URL(`wheels/${manifest.wheel}?sha256=${manifest.sha256}`, assets))
      .then(response => response.arrayBuffer()))
    .then(wheel => { mark("wheel-fetched"); return wheel })
  const [{ loadPyodide }, manifest] = await Promise.all([
    import(new URL("pyodide.mjs", indexURL).href), manifestPromise])
  mark("pyodide-mjs-imported")
  const snapshotUrl = manifest.snapshot
    ? new URL(`wheels/${manifest.snapshot}?sha256=${manifest.snapshot_sha256}`, assets) : null
  const sizes = manifest.download_bytes || {}
  bytes.snapshot = snapshotUrl ? sizes.snapshot || 0 : 0
  bytes.total = (sizes.runtime || 0) + (sizes.wheel || 0) + bytes.snapshot
  const restore = useWasmFromPage()
  let pyodide
  try {
    // packageBaseUrl: where Pyodide would look for packages (none is loaded); without it, with
    // lockFileContents given, Pyodide would name its CDN.
    pyodide = await startPython(loadPyodide, {
      indexURL, stdLibURL: await stdLibURL, lockFileContents: runtime.lock, packageBaseUrl: indexURL,
      createPyodideModule: await runtime.script,
    }, snapshotUrl)
  } finally {
    restore()
  }
  mark("loadpyodide-resolved")
  progress("core", 1)
  const wheel = await wheelPromise
  progress("import", 2)
  // Unpacked even after a snapshot: it holds memory, not the core's data files.
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]")
  pyodide.unpackArchive(new Uint8Array(wheel), "wheel", { extractDir: sitePackages })
  mark("wheel-unpacked")
  computeFn = pyodide.pyimport("kvcalc.faces.web").compute
  mark("core-imported")
  self.postMessage({ type: "ready", step: TOTAL_STEPS, total: TOTAL_STEPS, marks })
  marks = []
}

function answer({ id, request }) {
  const received = now()
  let response
  try {
    response = computeFn(request)
    if (typeof response !== "string") throw new TypeError(`compute returned ${typeof response}`)
  } catch (error) {
    // The core never raises out of compute; this is a broken runtime, not bad input.
    // Every request still gets an answer, so the page settles it and takes the next edit.
    response = JSON.stringify({ ok: false, errors: [{ code: "internal", field: null, message: String(error?.message ?? error).slice(0, 500) }] })
  }
  self.postMessage({ type: "result", id, response, marks: [["compute-start", received], ["compute-end", now()]] })
  if (!warmed) warmUp(request)
}

/** Warm-up computes after the first answer (see warmUp). */
const WARM_UP_COMPUTES = 48
let warmed = false

/**
 * After the first answer, while the reader reads it, plan the same request at a few other
 * lengths, one per task: the runtime's hot code is then compiled by the engine's optimizing
 * tier before the reader's first edit, instead of during it (a recompute takes about half as
 * long once it is; bench/RESULTS.md). Each warm-up yields to the queue, so a reader's request
 * waits for at most one of them; a request that is not a plan has nothing to warm.
 */
function warmUp(request) {
  warmed = true
  let parsed
  try {
    parsed = JSON.parse(request)
  } catch {
    return
  }
  if (parsed?.action !== "plan" || typeof parsed.inputs !== "object" || parsed.inputs === null) return
  let left = WARM_UP_COMPUTES
  const step = () => {
    if (left-- <= 0) return
    const inputs = { ...parsed.inputs, max_model_len: String(2048 + 256 * left) }
    try {
      computeFn(JSON.stringify({ ...parsed, inputs }))
    } catch {
      return
    }
    setTimeout(step, 0)
  }
  setTimeout(step, 0)
}

self.addEventListener("message", ({ data }) => {
  if (data.type === "init") {
    boot(data.assets)
      .then(() => { for (const item of queue.splice(0)) answer(item) })
      .catch(error => self.postMessage({ type: "failed", message: String(error?.message ?? error) }))
  } else if (data.type === "wasm") {
    resolveWasm(data)
  } else if (data.type === "compute") {
    if (computeFn) answer(data)
    else queue.push(data)
  }
})
