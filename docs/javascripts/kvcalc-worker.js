/*
 * kvcalc-worker: the Python core in Pyodide, off the page's main thread.
 *
 * Messages in:  {type: "init", assets: "<absolute URL of the site's assets/>"}
 *               {type: "compute", id, request: "<JSON for kvcalc.web.compute>"}
 * Messages out: {type: "progress", stage, step, total}, {type: "ready", step, total},
 *               {type: "failed", message}, {type: "result", id, response: "<JSON>"}
 *
 * Everything is fetched from the site itself: the Pyodide runtime copied from
 * the pinned npm package, and the core's wheel, unpacked straight into
 * site-packages (no micropip, which Pyodide would fetch from a CDN).
 */

const TOTAL_STEPS = 3
let computeFn = null
const queue = []

function progress(stage, step) {
  self.postMessage({ type: "progress", stage, step, total: TOTAL_STEPS })
}

async function fetchOk(url, options) {
  const response = await fetch(url, options)
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}: ${url}`)
  return response
}

async function boot(assets) {
  progress("runtime", 0)
  const indexURL = new URL("pyodide/", assets).href
  // The manifest is tiny and names the wheel; revalidate it so a rebuilt
  // site never pairs a new page with an old cached core.
  const manifestPromise = fetchOk(new URL("kvcalc-assets.json", assets), { cache: "no-cache" })
    .then(response => response.json())
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href)
  const wheelPromise = manifestPromise.then(manifest =>
    fetchOk(new URL(`wheels/${manifest.wheel}?sha256=${manifest.sha256}`, assets))
      .then(response => response.arrayBuffer()))
  const pyodide = await loadPyodide({ indexURL, fullStdLib: false })
  progress("core", 1)
  const wheel = await wheelPromise
  progress("import", 2)
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]")
  pyodide.unpackArchive(new Uint8Array(wheel), "wheel", { extractDir: sitePackages })
  computeFn = pyodide.pyimport("kvcalc.web").compute
  self.postMessage({ type: "ready", step: TOTAL_STEPS, total: TOTAL_STEPS })
}

function answer({ id, request }) {
  let response
  try {
    response = computeFn(request)
  } catch (error) {
    // The core never raises out of compute; this is a broken runtime, not bad input.
    response = JSON.stringify({ ok: false, errors: [{ code: "internal", field: null, message: String(error) }] })
  }
  self.postMessage({ type: "result", id, response })
}

self.addEventListener("message", ({ data }) => {
  if (data.type === "init") {
    boot(data.assets)
      .then(() => { for (const item of queue.splice(0)) answer(item) })
      .catch(error => self.postMessage({ type: "failed", message: String(error?.message ?? error) }))
  } else if (data.type === "compute") {
    if (computeFn) answer(data)
    else queue.push(data)
  }
})
