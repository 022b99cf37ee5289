// Runs xlshuffle's Excel functions inside Pyodide, the runtime of xlwings Lite.
//
//   node run_cases.mjs CASES_JSON MAIN_PY WHEEL...
//
// Installs the pure-Python wheels (xlwings' only: no xlshuffle) into Pyodide's
// site-packages, loads MAIN_PY as the module "main" (what a user pastes into xlwings Lite:
// workbooks/lite/main.py, the bundle that carries xlshuffle), reports where each xlshuffle
// module came from, registers its functions with xlwings' custom_functions_meta and
// evaluates every case through xlwings' own custom_functions_call on that
// module, as xlwings Lite does. CASES_JSON is {"functions": [[func_name, args]...],
// "scripts": [[script_name, book_json, args]...]}; each script runs through xlwings' own
// custom_scripts_call with a real xw.Book built from the Office.js payload book_json, and
// its actions (the writes Excel would apply) are reported. Prints one line
// "RESULT <json>" for the test to compare with CPython. Works offline: it loads only what
// the npm package ships.
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { createRequire } from "node:module";
import { loadPyodide } from "pyodide";

const [casesFile, mainPy, ...wheels] = process.argv.slice(2);
const quiet = () => {};
const pyodide = await loadPyodide({ stdout: quiet, stderr: quiet });

pyodide.FS.mkdirTree("/tmp/wheels");
for (const wheel of wheels) {
  pyodide.FS.writeFile(`/tmp/wheels/${basename(wheel)}`, readFileSync(wheel));
}
pyodide.FS.writeFile("/home/pyodide/main.py", readFileSync(mainPy));

// Pyodide ships `regex` (the grapheme splitter) in its distribution, not in the npm
// package; xlwings Lite fetches it. Load it only where its wheel is on disk.
const require = createRequire(import.meta.url);
const indexURL = dirname(require.resolve("pyodide/pyodide.mjs"));
const lock = JSON.parse(readFileSync(join(indexURL, "pyodide-lock.json"), "utf8"));
const regexWheel = lock.packages.regex && join(indexURL, lock.packages.regex.file_name);
const haveRegex = Boolean(regexWheel && existsSync(regexWheel));
if (haveRegex) await pyodide.loadPackage("regex", { messageCallback: quiet });

globalThis.XLSHUFFLE_CASES = JSON.parse(readFileSync(casesFile, "utf8"));
globalThis.XLSHUFFLE_HAVE_REGEX = haveRegex;
const out = await pyodide.runPythonAsync(`
import json, os, pathlib, site, sys, zipfile
os.environ["XLWINGS_ON_SERVER"] = "true"
os.environ["XLWINGS_LICENSE_KEY"] = "noncommercial"
for wheel in sorted(pathlib.Path("/tmp/wheels").iterdir()):
    zipfile.ZipFile(wheel).extractall(site.getsitepackages()[0])
sys.path.insert(0, "/home/pyodide")

import js
import xlwings as xw
from xlwings.server import custom_functions_call, custom_functions_meta, custom_scripts_call
import main

registered = [f["name"] for f in custom_functions_meta(main)["functions"]]
origins = {m: str(getattr(sys.modules[m].__spec__, "origin", None))
           for m in sys.modules if m.split(".")[0] == "xlshuffle"}

results = []
# to_py() turns JS null into pyodide's jsnull, as in xlwings Lite: xlwings must cope.
cases = js.XLSHUFFLE_CASES.to_py()
for name, args in cases["functions"]:
    body = {"client": "Office.js", "func_name": name, "args": args,
            "caller_address": "[Book1.xlsx]Sheet1!C1", "culture_info_name": "en-US",
            "date_format": "M/d/yyyy", "version": xw.__version__, "runtime": "1.4"}
    try:
        results.append({"value": await custom_functions_call(body, main)})
    except xw.XlwingsError as exc:
        results.append({"error": str(exc)})
    except Exception as exc:  # reported, not hidden: the test decides what it means
        results.append({"exception": f"{type(exc).__name__}: {exc}"})
scripts = []
for name, payload, args in cases["scripts"]:
    book = xw.Book(json=json.loads(payload))
    try:
        done = await custom_scripts_call(main, name, typehint_to_value={xw.Book: book}, args=args)
        scripts.append({"actions": done.json()["actions"]})
    except xw.XlwingsError as exc:
        scripts.append({"error": str(exc)})
    except Exception as exc:
        scripts.append({"exception": f"{type(exc).__name__}: {exc}"})
json.dumps({"python": sys.version.split()[0], "platform": sys.platform,
            "xlwings": xw.__version__, "regex": bool(js.XLSHUFFLE_HAVE_REGEX), "registered": registered,
            "origins": origins,
            "results": results, "scripts": scripts})
`);
console.log("RESULT " + out);
