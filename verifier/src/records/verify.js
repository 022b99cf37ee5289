/**
 * Any record (JSON, or Draw log rows) checked against files: the verdict of each kind.
 */

import { PROTOCOL } from "../protocol/stream.js";
import { verifyAllocation } from "./allocation.js";
import { verifyDealJson } from "./deal.js";
import { parseLogRows } from "./drawlog-rows.js";
import { verifyLogEntry } from "./drawlog.js";
import { verifyList } from "./list.js";
import { verifyOrders } from "./orders.js";
import { verifyRound } from "./rounds.js";
import { targetOfSelection } from "./selection.js";
import { Verdict, cannot } from "./verdict.js";
import { verifyWorkbook } from "./workbook.js";

export function parseRecords(text) {
  if (text && typeof text === "object") return Array.isArray(text) ? text : [text]; // already parsed
  const trimmed = String(text || "").trim();
  if (!trimmed) cannot("no record was given");
  if (trimmed[0] === "{" || trimmed[0] === "[") {
    let value;
    try {
      value = JSON.parse(trimmed);
    } catch (e) {
      cannot("the record is not valid JSON: " + e.message);
    }
    return Array.isArray(value) ? value : [value];
  }
  const entries = parseLogRows(trimmed);
  if (entries.length && entries.every((e) => e.protocol !== "" && e.mode !== ""))
    return entries.map((e) => ({ drawLog: e, log: entries }));
  cannot("the text is neither a JSON draw record nor a Draw log row this page knows");
}

async function verifyOne(rec, files) {
  if (!rec || typeof rec !== "object") cannot("the record is not a JSON object");
  if (rec.drawLog) return verifyLogEntry(rec.drawLog, files, rec.log);
  if (rec.protocol === PROTOCOL && rec.command === undefined && rec.hands !== undefined)
    return verifyDealJson(rec);
  if (rec.protocol !== PROTOCOL)
    cannot(`its protocol is ${JSON.stringify(rec.protocol)}, and this page knows only ${PROTOCOL}`);
  if (rec.record_version === undefined && Array.isArray(rec.lost)) rec = fromVersion1(rec);
  if (rec.record_version !== 2)
    cannot(
      `record version ${JSON.stringify(rec.record_version)}: this page reads version 2 records (xlshuffle 0.2 and later)`,
    );
  if (rec.command === "orders") return verifyOrders(rec, files);
  if (rec.command === "allocate") return verifyAllocation(rec, files);
  if (rec.command === "redraw") return verifyRound(rec, files);
  if (!["shuffle", "sample", "groups", "restore"].includes(rec.command))
    cannot(`a record of "${rec.command}" is not supported by this page yet`);
  const target = rec.target || {};
  if (target.kind === "list") return withSetAside(rec, await verifyList(rec, files));
  if (["sheet", "range", "table", "columns"].includes(target.kind))
    return withSetAside(rec, await verifyWorkbook(rec, files));
  cannot(`a target of kind ${JSON.stringify(target.kind)} is unknown to this page`);
}

/**
 * A sample's verdict, saying what it leaves out: the file of the rows set aside (amounts of
 * 0 or below, `--set-aside-output`), which this page does not read.
 */
function withSetAside(rec, result) {
  if (!rec.set_aside_output) return result;
  const sha = rec.set_aside_output_sha256 ? ` (SHA-256 ${rec.set_aside_output_sha256})` : "";
  return {
    ...result,
    message:
      `${result.message} Not checked here: the rows set aside, written to ${rec.set_aside_output}${sha}; ` +
      `xlshuffle verify RECORD --input INPUT --set-aside-output ${rec.set_aside_output} checks them.`,
  };
}

/**
 * A version 1 record (xlshuffle 0.1) as version 2 would write it: its target from the
 * selection text (`Sheet!A1:C7`, `Sheet!A,C (rows 1-7)`, `table T (Sheet!A1:B5)`); the
 * selected cells moved (unit "cells").
 */
function fromVersion1(rec) {
  const text = String(rec.selection || "");
  const target = targetOfSelection(text);
  if (!target)
    cannot(`the version 1 record's selection ${JSON.stringify(text)} is not one this page reads`);
  if (rec.lost.length) cannot(`the version 1 record says its save lost ${rec.lost.join(", ")}`);
  return {
    ...rec,
    record_version: 2,
    unit: "cells",
    target,
    parts: {},
    fingerprint: null,
    size: null,
  };
}

/** Check a record (JSON text, or a Draw log row) against files: {verified, message, supported, table, plans}. */
export async function verifyRecord({ record, files = [] }) {
  let result;
  try {
    const recs = parseRecords(record);
    const messages = [],
      tables = [],
      plans = [];
    for (const rec of recs) {
      const one = await verifyOne(rec, files);
      messages.push(one.message);
      tables.push(...one.table);
      plans.push(one.plan || null);
    }
    // plans: each sample's draw drawn again (drawplan.js), where an entrant finds their place
    result = {
      verified: true,
      supported: true,
      message: messages.join("\n"),
      table: tables,
      plans,
    };
  } catch (e) {
    if (e instanceof Verdict) {
      result = {
        verified: false,
        supported: e.supported,
        message: (e.supported ? "NOT verified: " : "") + e.message,
        table: [],
      };
    } else {
      result = {
        verified: false,
        supported: true,
        message: "NOT verified: " + (e && e.message ? e.message : String(e)),
        table: [],
      };
    }
  }
  return result;
}
