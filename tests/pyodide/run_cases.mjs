// Runs xlshuffle's Excel functions inside Pyodide, the runtime of xlwings Lite.
//
//   node run_cases.mjs XLWINGS_WHEEL SRC_DIR CASES_JSON
//
// Installs xlwings' pure-Python wheel and the package source into Pyodide's file system,
// then evaluates every case [func_name, args] through xlwings' own custom_functions_call,
// the way xlwings Lite does, and prints one line "RESULT <json>" for the test to compare
// with CPython. Works offline: it loads only what the npm package ships.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { createRequire } from "node:module";
import { loadPyodide } from "pyodide";

const [wheel, srcDir, casesFile] = process.argv.slice(2);
const quiet = () => {};
const pyodide = await loadPyodide({ stdout: quiet, stderr: quiet });

// The package source, as pip would install it from the pure wheel.
function copyTree(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const target = join("/home/pyodide/src", relative(srcDir, path));
    if (entry.isDirectory() && entry.name !== "__pycache__") {
      pyodide.FS.mkdirTree(target);
      copyTree(path);
    } else if (entry.name.endsWith(".py") || entry.name === "py.typed") {
      pyodide.FS.writeFile(target, readFileSync(path));
    }
  }
}
copyTree(srcDir);
pyodide.FS.writeFile("/tmp/xlwings.whl", readFileSync(wheel));

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
import json, os, site, sys, zipfile
os.environ["XLWINGS_ON_SERVER"] = "true"
os.environ["XLWINGS_LICENSE_KEY"] = "noncommercial"
zipfile.ZipFile("/tmp/xlwings.whl").extractall(site.getsitepackages()[0])
sys.path.insert(0, "/home/pyodide/src")
sys.dont_write_bytecode = True

import js
import xlwings as xw
from xlwings.server import custom_functions_call
from xlshuffle import excel

results = []
# to_py() turns JS null into pyodide's jsnull, as in xlwings Lite: xlwings must cope.
for name, args in js.XLSHUFFLE_CASES.to_py():
    body = {"client": "Office.js", "func_name": name, "args": args,
            "caller_address": "[Book1.xlsx]Sheet1!C1", "culture_info_name": "en-US",
            "date_format": "M/d/yyyy", "version": xw.__version__, "runtime": "1.4"}
    try:
        results.append({"value": await custom_functions_call(body, excel)})
    except xw.XlwingsError as exc:
        results.append({"error": str(exc)})
    except Exception as exc:  # reported, not hidden: the test decides what it means
        results.append({"exception": f"{type(exc).__name__}: {exc}"})
json.dumps({"python": sys.version.split()[0], "platform": sys.platform,
            "xlwings": xw.__version__, "regex": bool(js.XLSHUFFLE_HAVE_REGEX),
            "results": results})
`);
console.log("RESULT " + out);
