/**
 * The live reveal page (verifier/reveal.html): a committed draw's winners shown prize by
 * prize on a projector, with the commitment hash, the public source and the revealed value
 * always on screen.
 *
 * Everything is decided before the first name appears: records/reveal.js checks the
 * commitment, the list and the value (section 17) and draws the committed draw; this module
 * only shows the fixed result, one step per press of Next (or the arrow keys, the space bar,
 * a presenter's clicker). No timer, no random number, no click position enters it.
 * window.xlshuffleReveal({commitment, files, reveal}) gives the same result to scripts:
 * {ok, message, winners: [{prize, place, role, id}]}, in reveal order.
 */

import { prepareReveal, revealSteps } from "./records/reveal.js";

const $ = (id) => document.getElementById(id);

/** The prepared reveal (null until a check passes), and the step shown. */
let ready = null,
  step = -1;

function showStatus(result) {
  $("status").className = result.ok ? "ok" : "bad";
  $("status").textContent = result.message;
}

/** Check and draw; on success the stage is made ready, else nothing of the result is kept. */
async function prepare(args) {
  ready = null;
  step = -1;
  $("start").disabled = true;
  $("stage").classList.remove("on");
  $("setup").hidden = false;
  for (const id of ["heading", "names", "done", "hash", "beacon", "values", "progress"])
    $(id).replaceChildren(); // nothing of an earlier reveal stays in the page
  const result = await prepareReveal(args);
  showStatus(result);
  const select = $("show-column");
  select.length = 1;
  if (result.ok) {
    ready = { ...result, steps: revealSteps(result.winners) };
    (result.list.labels || []).forEach((label, j) => {
      if (label !== "") select.add(new Option(label, String(j)));
    });
    $("hash").textContent = result.shown.hash;
    $("beacon").textContent = result.shown.beacon;
    $("values").textContent = result.shown.values.join(" / ");
    $("start").disabled = false;
  }
  return { ok: result.ok, message: result.message, winners: result.winners };
}

/** One drawn place as the screen shows it: the ID, and the chosen column beside it. */
function nameLine(i) {
  const w = ready.winners[i];
  const li = document.createElement("li");
  li.value = w.place;
  li.append(w.id === "" ? "(blank ID)" : w.id);
  const column = $("show-column").value;
  if (column !== "") {
    const more = document.createElement("span");
    more.className = "more";
    more.textContent = ` ${ready.list.textOf(ready.rows[i], Number(column))}`;
    li.append(more);
  }
  return li;
}

function render() {
  const at = ready.steps[step];
  $("heading").textContent = at.heading;
  $("names").replaceChildren(...at.shown.map(nameLine));
  const revealed = countShown();
  $("progress").textContent = `${revealed} of ${ready.winners.length} drawn places shown`;
  const last = step === ready.steps.length - 1;
  $("next").disabled = last;
  $("done").replaceChildren();
  if (last) showAll();
}

/** How many places the steps up to this one have shown. */
function countShown() {
  let n = 0;
  for (let s = 0; s <= step; s++) if (ready.steps[s].shown.length) n++;
  return n;
}

/** After the last name: every group with its names, in the order revealed. */
function showAll() {
  const groups = [];
  for (const s of ready.steps) {
    if (!s.shown.length) groups.push([s.heading, []]);
    else groups[groups.length - 1][1] = s.shown;
  }
  if (groups.length < 2) return;
  $("done").replaceChildren(
    ...groups.map(([heading, shown]) => {
      const p = document.createElement("p");
      p.textContent = `${heading}: ${shown.map((i) => ready.winners[i].id).join(", ")}`;
      return p;
    }),
  );
}

function next() {
  if (!ready || !$("stage").classList.contains("on")) return;
  if (step < ready.steps.length - 1) step++;
  render();
}

$("commitment-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) $("commitment").value = await file.text();
});

$("check").addEventListener("click", () => {
  $("status").className = "pending";
  $("status").textContent = "Checking…";
  prepare({
    commitment: $("commitment").value,
    files: Array.from($("files").files),
    reveal: $("reveal").value,
  });
});

$("start").addEventListener("click", () => {
  if (!ready) return;
  $("setup").hidden = true;
  $("stage").classList.add("on");
  step = 0;
  render();
  const full = document.documentElement.requestFullscreen;
  if (full) full.call(document.documentElement).catch(() => {}); // a display without it still works
});

$("next").addEventListener("click", next);

document.addEventListener("keydown", (event) => {
  if (!$("stage").classList.contains("on")) return; // typing in the setup's boxes
  if (["ArrowRight", "ArrowDown", "PageDown", " ", "Enter"].includes(event.key)) {
    if (event.target instanceof HTMLButtonElement && event.key !== "ArrowRight") return; // the button's own press
    event.preventDefault();
    next();
  }
});

window.xlshuffleReveal = (args) => prepare(args || {});
