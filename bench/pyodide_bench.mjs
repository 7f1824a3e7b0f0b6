// Time kvcalc.faces.web.compute inside the real Pyodide runtime (node_modules/pyodide), as the page's worker runs it.
//
//   node bench/pyodide_bench.mjs <wheel> <requests.json> <times.json> <runs> <clear.py>
//
// requests.json: [{"name": ..., "request": "<JSON string>"}, ...]; times.json gets
// {"runtime": ..., "times": {name: [{"ms": wall, "cpu_ms": Python's process time, "chars": answer length,
// "error": code or null}, ...]}}. Before each call the per-scenario caches are emptied by the
// ``clear_scenario_caches()`` that <clear.py> defines (bench/hostile_bench.py's CLEAR_CACHES, the code
// its CPython runs use), so every run pays the whole computation.
// The wheel is unpacked into site-packages as the worker does (tests/node/run_scenarios.mjs).
import { loadPyodide } from "pyodide"
import { readFileSync, writeFileSync } from "node:fs"

const [wheelPath, requestsPath, timesPath, runsText, clearPath] = process.argv.slice(2)
if (!clearPath) {
  console.error("usage: pyodide_bench.mjs <wheel> <requests.json> <times.json> <runs> <clear.py>")
  process.exit(2)
}
const pyodide = await loadPyodide()
const site = pyodide.runPython("import site; site.getsitepackages()[0]")
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: site })
pyodide.runPython(readFileSync(clearPath, "utf8"))
pyodide.runPython(`
import json, time
import kvcalc.faces.web

def _timed(request):
    clear_scenario_caches()
    cpu = time.process_time()
    answer = kvcalc.faces.web.compute(request)
    cpu_ms = (time.process_time() - cpu) * 1000
    data = json.loads(answer)
    error = None if data.get("ok") else data.get("error", {}).get("code")
    return json.dumps({"cpu_ms": cpu_ms, "chars": len(answer), "error": error})
`)
const timed = pyodide.globals.get("_timed")
const runtime = pyodide.runPython("import sys; f'{sys.implementation.name} {sys.version.split()[0]} {sys.platform}'")
const times = {}
for (const { name, request } of JSON.parse(readFileSync(requestsPath, "utf8"))) {
  times[name] = []
  for (let i = 0; i < Number(runsText); i++) {
    const started = performance.now()
    const out = JSON.parse(timed(request))
    times[name].push({ ms: performance.now() - started, ...out })
  }
}
writeFileSync(timesPath, JSON.stringify({ runtime, times }))
