// Run kvcalc.faces.web.compute inside the real Pyodide runtime (node_modules/pyodide).
//
//   node tests/node/run_scenarios.mjs <wheel> <requests.json> <answers.json>
//
// requests.json: [{"name": ..., "request": "<JSON string>"}, ...]
// answers.json:  [{"name": ..., "response": "<JSON string>"}, ...] in the same order,
// followed by {"runtime": ...}. The wheel is unpacked straight into
// site-packages, as the browser worker does (no micropip: it comes from a CDN).
import { loadPyodide } from "pyodide"
import { readFileSync, writeFileSync } from "node:fs"

const [wheelPath, requestsPath, answersPath] = process.argv.slice(2)
if (!answersPath) {
  console.error("usage: run_scenarios.mjs <wheel> <requests.json> <answers.json>")
  process.exit(2)
}
const pyodide = await loadPyodide()
const site = pyodide.runPython("import site; site.getsitepackages()[0]")
// A Node Buffer is rejected ("Unknown typed array type 'Buffer'"): wrap it.
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: site })
const compute = pyodide.pyimport("kvcalc.faces.web").compute
const runtime = pyodide.runPython(
  "import sys, kvcalc.faces.web as w; f'{sys.implementation.name} {sys.version.split()[0]} {sys.platform} {w.__file__}'")
const answers = JSON.parse(readFileSync(requestsPath, "utf8")).map(({ name, request }) => {
  const started = performance.now()
  const response = compute(request)
  return { name, response, ms: performance.now() - started }
})
writeFileSync(answersPath, JSON.stringify({ runtime, answers }))
