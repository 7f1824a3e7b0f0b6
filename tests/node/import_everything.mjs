// In the real Pyodide runtime (node_modules/pyodide) started with a given standard library
// (the build's trimmed python_stdlib_kvcalc.zip), import each named module and answer requests.
//
//   node tests/node/import_everything.mjs <job.json> <out.json>
//
// job.json: {"stdlib": <zip path>, "wheel": <wheel path>, "modules": [<dotted name>, ...],
//            "requests": [<JSON request string>, ...]}
// out.json: {"failed": {<module>: <error>}, "answers": [<JSON response string>, ...]}
import { loadPyodide } from "pyodide"
import { readFileSync, writeFileSync } from "node:fs"

const [jobPath, outPath] = process.argv.slice(2)
const job = JSON.parse(readFileSync(jobPath, "utf8"))
const pyodide = await loadPyodide({ stdLibURL: job.stdlib })
const site = pyodide.runPython("import site; site.getsitepackages()[0]")
pyodide.unpackArchive(new Uint8Array(readFileSync(job.wheel)), "wheel", { extractDir: site })
pyodide.globals.set("names", pyodide.toPy(job.modules))
const failed = pyodide.runPython(`
import importlib, json
failed = {}
for name in names:
    try:
        importlib.import_module(name)
    except BaseException as error:   # noqa: BLE001 - report every failure by name
        failed[name] = f"{type(error).__name__}: {error}"
json.dumps(failed)
`)
const compute = pyodide.pyimport("kvcalc.faces.web").compute
const answers = job.requests.map(request => compute(request))
writeFileSync(outPath, JSON.stringify({ failed: JSON.parse(failed), answers }))
