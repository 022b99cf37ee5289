/**
 * The page: its buttons, the verdict shown, and the hooks scripts and tests call.
 *
 * xlshuffle's browser verifier (docs/verifier.md) is built from the modules beside this one
 * (tools/make_verifier.py writes verifier/index.html), in three parts:
 *
 * 1. protocol/: an implementation of draw protocol v1 (docs/draw-protocol.md), written from
 *    the specification and independent of xlshuffle's Python code; section numbers are the
 *    specification's. Exposed as window.xlshuffleProtocol.
 * 2. read/: readers of the files a draw reads and writes: zip packages (central directory,
 *    inflated with DecompressionStream), .xlsx sheets (DOMParser, or a scanner for large
 *    sheets), CSV/TSV and text lists. Exposed, for tests, as window.xlshuffleVerifier.
 * 3. records/: the checks of each kind of record against its files. Exposed as
 *    window.xlshuffleVerify({record, files}) -> {verified, message, supported}; an
 *    entrant's own checks as window.xlshuffleCheckEntry (section 17) and
 *    window.xlshuffleCheckTicket({record, files, seed, id}) (section 18).
 *
 * Everything runs in the page: no server, no network, no other file.
 */

import { allocationList } from "./protocol/allocation.js";
import { cell, monetaryUnit, musSelect, systematic } from "./protocol/audits.js";
import { sha256, toHex } from "./protocol/bytes.js";
import {
  canonicalJson,
  commitSeed,
  commitmentHash,
  entrantHashes,
  entrantIdHashes,
  listDigest,
  revealedValue,
} from "./protocol/commit.js";
import { canonicalId, exclusionDigest, keptIndexes } from "./protocol/exclusions.js";
import { balancedOrders, personOrder, personStream, williams } from "./protocol/orders.js";
import { prizePlaces, prizeTotals } from "./protocol/prizes.js";
import { pythonFloatRepr } from "./protocol/python.js";
import { excelSerial, numberText, seedBytes } from "./protocol/seeds.js";
import {
  deal,
  dealFrom,
  dealHands,
  groups,
  permutation,
  shuffle,
  shuffleFrom,
  shuffleGrid,
  standardDeck,
} from "./protocol/shuffles.js";
import { largestRemainder, strata, stratumStream } from "./protocol/strata.js";
import { Stream, seedKey, subKey } from "./protocol/stream.js";
import { balancedTeams, balancedTeamsDrawn } from "./protocol/teams.js";
import {
  populationDigest,
  rateThreshold,
  rivestTicket,
  ticket,
  ticketDraw,
  ticketOrder,
  ticketPrefix,
  ticketsAtScale,
  ticketsOf,
} from "./protocol/ticketdraws.js";
import { scaleDecimals, weighted, weightedFrom } from "./protocol/tickets.js";
import { formulaKey, shiftFormula } from "./read/formulas.js";
import { parseList } from "./read/lists.js";
import { domSheet, scanSheet } from "./read/sheets.js";
import { openWorkbook } from "./read/workbook.js";
import { zipEntries, zipRead } from "./read/zip.js";
import { drawRows } from "./records/drawplan.js";
import { entryHint, entryVerdict } from "./records/entry.js";
import { ticketVerdict } from "./records/ticketcheck.js";
import { verifyRecord } from "./records/verify.js";

window.xlshuffleProtocol = {
  seedBytes,
  numberText,
  pythonFloatRepr,
  excelSerial,
  seedKey,
  subKey,
  Stream,
  sha256,
  toHex,
  dealFrom,
  shuffleFrom,
  deal,
  shuffle,
  permutation,
  groups,
  shuffleGrid,
  weighted,
  weightedFrom,
  scaleDecimals,
  prizePlaces, // section 9: a prize table's places
  prizeTotals,
  canonicalId,
  exclusionDigest,
  keptIndexes,
  stratumStream,
  largestRemainder,
  strata,
  systematic,
  monetaryUnit,
  cell,
  musSelect,
  personStream,
  personOrder,
  williams,
  balancedOrders,
  allocationList,
  balancedTeams,
  balancedTeamsDrawn,
  standardDeck,
  dealHands,
  canonicalJson,
  commitmentHash,
  listDigest,
  revealedValue,
  commitSeed,
  entrantHashes,
  entrantIdHashes,
  ticketPrefix, // section 18: ticket draws
  ticket,
  ticketsOf,
  ticketDraw,
  ticketOrder,
  rateThreshold,
  ticketsAtScale,
  rivestTicket,
  populationDigest,
  drawRows, // sections 8-12 with one entry per ID and small strata: drawPlan over plain rows
};

/** Check a record against files, and show the verdict: {verified, message, supported, table}. */
async function verify(args) {
  const result = await verifyRecord(args);
  show(result);
  return result;
}

function show(result) {
  const verdict = document.getElementById("verdict");
  verdict.className = result.verified ? "ok" : result.supported ? "bad" : "unknown";
  verdict.textContent = result.message;
  const details = document.getElementById("details");
  details.textContent = "";
  if (!result.table || !result.table.length) return;
  const table = document.createElement("table");
  const limit = 200;
  for (const [label, text] of result.table.slice(0, limit)) {
    const tr = table.insertRow();
    tr.insertCell().textContent = label;
    tr.insertCell().textContent = text;
  }
  details.appendChild(table);
  if (result.table.length > limit) {
    const more = document.createElement("p");
    more.textContent = `… and ${result.table.length - limit} more.`;
    details.appendChild(more);
  }
}

/** What an entrant types to check their entry, said as soon as the record is given. */
function showEntryHint() {
  document.getElementById("entry-hint").textContent = entryHint(
    document.getElementById("record").value,
  );
}

document.getElementById("record").addEventListener("input", showEntryHint);

document.getElementById("record-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) document.getElementById("record").value = await file.text();
  showEntryHint();
});

document.getElementById("verify").addEventListener("click", async () => {
  const verdict = document.getElementById("verdict");
  verdict.className = "pending";
  verdict.textContent = "Checking…";
  await verify({
    record: document.getElementById("record").value,
    files: Array.from(document.getElementById("files").files),
  });
});

/**
 * Section 17, step 5, for the page: check the row ({record, row}) or the ID ({record, id,
 * salt}) and show the verdict under it.
 */
async function checkEntry(args) {
  const result = await entryVerdict(args);
  const box = document.getElementById("entry-verdict");
  box.className = result.found ? "ok" : "bad";
  box.textContent = result.message;
  return result;
}

document.getElementById("check-entry").addEventListener("click", () =>
  checkEntry({
    record: document.getElementById("record").value,
    row: document.getElementById("entry").value,
  }),
);

document.getElementById("check-id").addEventListener("click", () =>
  checkEntry({
    record: document.getElementById("record").value,
    id: document.getElementById("entry-id").value,
    salt: document.getElementById("entry-salt").value,
  }),
);

window.xlshuffleCheckEntry = checkEntry;

/**
 * Section 18 for an entrant: their ticket by ID and seed (the record's when left empty), and
 * their place with the record's files or a ticket listing; the verdict shown under it.
 */
async function checkTicket(args) {
  const box = document.getElementById("ticket-verdict");
  box.className = "pending";
  box.textContent = "Checking…";
  const result = await ticketVerdict(args);
  box.className = result.found ? "ok" : "bad";
  box.textContent = result.message;
  return result;
}

document.getElementById("check-ticket").addEventListener("click", () =>
  checkTicket({
    record: document.getElementById("record").value,
    files: Array.from(document.getElementById("files").files),
    seed: document.getElementById("ticket-seed").value,
    id: document.getElementById("ticket-id").value,
  }),
);

window.xlshuffleCheckTicket = checkTicket;

/** The page's file readers, for tests. */
window.xlshuffleVerifier = {
  zipEntries,
  zipRead,
  openWorkbook,
  scanSheet,
  domSheet,
  parseList,
  shiftFormula,
  formulaKey,
};

window.xlshuffleVerify = async (args) => {
  const r = await verify(args || {});
  return { verified: r.verified, message: r.message, supported: r.supported };
};
