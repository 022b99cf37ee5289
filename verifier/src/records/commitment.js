/**
 * A committed draw's record (section 17): the commitment, the seed, the committed request
 * and pinned files, the list digest and the entrant hashes (by row and by ID).
 */

import { UTF8, sha256, toHex } from "../protocol/bytes.js";
import {
  canonicalJson,
  commitSeed,
  commitmentHash,
  entrantHashes,
  entrantIdHashes,
  listDigest,
} from "../protocol/commit.js";
import { PROTOCOL } from "../protocol/stream.js";
import { populationDigest, ticketId, ticketsAtScale } from "../protocol/ticketdraws.js";
import { cannot, fail } from "./verdict.js";

/**
 * Section 17: the commitment's hash, the seed from it and the revealed values, the committed
 * draw, the list digest and the entrant hashes. Returns what was checked. Version 1 states the
 * draw as command-line texts (body.draw.options); version 2 as a request (body.draw.request)
 * and pins each file the draw read beside the list (body.inputs): what the draw took from it.
 */
export async function checkCommitment(rec, headRows, dataRows) {
  const c = rec.commitment,
    body = c.body || {};
  const version = body.commitment_version;
  if (version !== 1 && version !== 2)
    cannot(`commitment version ${JSON.stringify(version)} is unknown to this page`);
  if (body.protocol !== PROTOCOL)
    cannot(`the commitment's protocol is ${JSON.stringify(body.protocol)}`);
  const hash = await commitmentHash(body);
  if (hash !== c.sha256)
    fail(
      `the commitment in the record hashes to ${hash}, not to the commitment hash it names, ${c.sha256}`,
    );
  let seed;
  try {
    seed = commitSeed(hash, rec.reveal || []);
  } catch (e) {
    fail(`the revealed values: ${e.message}`);
  }
  if (!(rec.reveal || []).length) fail("the record reveals no value");
  if (seed !== rec.seed)
    fail(
      `the commitment hash and the revealed values give the seed ${JSON.stringify(seed)}, the record says ${JSON.stringify(rec.seed)}`,
    );
  if (body.draw.command !== rec.command)
    fail(`the commitment is to a ${body.draw.command}, the record is of a ${rec.command}`);
  let pinned = [];
  if (version === 1) checkCommittedOptions(rec, committedOptions(body.draw.options || []));
  else {
    pinned = await checkPins(rec, body); // first: its message names the file
    checkCommittedRequest(rec, body.draw.request);
  }
  if (body.list.rows !== dataRows.length)
    fail(`the commitment is to ${body.list.rows} data rows, the input has ${dataRows.length}`);
  const digest = await listDigest(headRows.concat(dataRows));
  if (digest !== body.list.sha256)
    fail(
      `the input's list digest is ${digest}, the commitment's ${body.list.sha256}: not the committed list`,
    );
  const checked = [
    `the commitment hashes to ${hash} (compare it with the hash published before the draw)`,
    `the seed comes from that hash and the revealed value(s) ${(rec.reveal || []).map((v) => JSON.stringify(v)).join(", ")} (beacon: ${body.beacon})`,
    "the input is the committed list",
    "the draw is the committed one",
  ];
  if (pinned.length)
    checked.push(
      `every file the draw read beside the list is the committed one (pinned by SHA-256: ${pinned.join(", ")})`,
    );
  if (body.population) checked.push(await checkPopulation(rec, body.population, dataRows));
  if (body.entrants) {
    if (!c.salt) fail("the commitment holds entrant hashes but the record reveals no salt");
    const hashes = await entrantHashes(c.salt, dataRows);
    if (JSON.stringify(hashes) !== JSON.stringify(body.entrants.salted_sha256))
      fail("the committed entrant hashes are not those of the input's rows with the revealed salt");
    checked.push("the committed entrant hashes are the input's rows with the revealed salt");
    if (body.entrants.ids_salted_sha256 !== undefined) {
      const id = (rec.target.draw || {}).id;
      if (!id || !Number.isInteger(id.index))
        fail("the commitment holds entrant hashes by ID but the record's draw names no ID column");
      const ids = await entrantIdHashes(
        c.salt,
        dataRows.map((row) => row[id.index] ?? ""),
      );
      if (JSON.stringify(ids) !== JSON.stringify(body.entrants.ids_salted_sha256))
        fail(
          `the committed entrant hashes by ID are not those of the input's IDs (${id.column}) with the revealed salt`,
        );
      checked.push(`the committed entrant hashes by ID are the input's IDs (${id.column})`);
    }
  }
  return checked;
}

/**
 * A ticket draw's committed population (sections 17 and 18): the digest of the input's
 * entrants (each row's ID, or with one entry per ID each distinct ID once, with its ticket
 * count when an entrant may hold several) is the one committed.
 */
async function checkPopulation(rec, population, dataRows) {
  const d = rec.target.draw || {};
  if (!d.id || !Number.isInteger(d.id.index))
    fail("the commitment holds a population but the record's draw names no ID column");
  const cell = (row, c) => (row[c] === undefined ? "" : row[c]);
  let ids = dataRows.map((row) => cell(row, d.id.index));
  let counts = null;
  try {
    if (d.weights)
      counts = ticketsAtScale(
        dataRows.map((row) => cell(row, d.weights.index)),
        d.weight_scale || 1,
      );
    if (d.one_entry_per_id) {
      const held = new Map();
      ids.forEach((v, i) => {
        const id = ticketId(v);
        held.set(id, (held.get(id) ?? 0n) + (counts ? BigInt(counts[i]) : 1n));
      });
      ids = [...held.keys()];
      counts = [...held.values()];
    }
  } catch (e) {
    fail(`the input's entrants cannot make the committed population: ${e.message}`);
  }
  const digest = await populationDigest(ids, counts);
  if (ids.length !== population.entrants || digest !== population.sha256)
    fail(
      `the input's ${ids.length} entrants have the population digest ${digest}, the commitment's ${population.entrants} ${population.sha256}: not the committed population`,
    );
  return `the input's ${ids.length} entrants are the committed population (digest ${digest.slice(0, 16)}..., section 18)`;
}

/** Version 1: the record's draw against the committed options' texts. */
function checkCommittedOptions(rec, options) {
  const d = rec.target.draw || {};
  const k = rec.target.draw ? d.k : rec.k;
  if (options["-k"] !== undefined && String(options["-k"]) !== String(k))
    fail(`the commitment draws -k ${options["-k"]}, the record ${k}`);
  for (const [flag, got] of [
    ["--weights", d.weights],
    ["--strata", d.strata],
    ["--amount", d.amount],
    ["--id", d.id],
  ]) {
    const want = options[flag];
    if ((want === undefined) !== !got || (got && want !== got.column))
      fail(
        `the commitment's ${flag} is ${want === undefined ? "not given" : JSON.stringify(want)}, the record's ${got ? JSON.stringify(got.column) : "none"}`,
      );
  }
  if (options["--reserves"] !== undefined && Number(options["--reserves"]) !== (d.reserves || 0))
    fail(`the commitment draws ${options["--reserves"]} reserves, the record ${d.reserves || 0}`);
}

/** The record's name of a committed sample --method. */
const RECORD_METHODS = {
  random: ["random", "weighted"],
  systematic: ["systematic"],
  mus: ["monetary-unit"],
  cell: ["monetary-unit-cell"],
  ticket: ["ticket"],
  rivest: ["rivest"],
};

/**
 * Version 2: the record's draw against the committed request (its kind, and the options of
 * shuffle, sample or groups; a column option as it was given, as the record names it).
 */
function checkCommittedRequest(rec, req) {
  const kind = req && typeof req === "object" ? req.kind : undefined;
  const o = kind ? req[kind] : undefined;
  if (!["shuffle", "sample", "groups"].includes(kind) || !o || typeof o !== "object")
    cannot("the commitment's draw request is not one this page knows");
  if (kind !== rec.command)
    fail(`the commitment is to a ${kind}, the record is of a ${rec.command}`);
  const shown = (v) => (v === null || v === undefined ? "not given" : JSON.stringify(v));
  if (kind === "shuffle") {
    if (o.by !== rec.mode) fail(`the commitment shuffles by ${o.by}, the record by ${rec.mode}`);
    return;
  }
  if (kind === "groups") {
    if (o.k !== null && o.k !== undefined && String(o.k) !== String(rec.k))
      fail(`the commitment deals -k ${o.k} groups, the record ${rec.k}`);
    if (o.size !== null && o.size !== undefined && String(o.size) !== String(rec.size))
      fail(`the commitment deals groups of --size ${o.size}, the record ${rec.size ?? "none"}`);
    const b = rec.target.balance || null;
    const want = Array.isArray(o.balance) ? o.balance.map(String) : null;
    const got = b ? (b.columns || []).map((col) => col.column) : null;
    if (JSON.stringify(want) !== JSON.stringify(got))
      fail(
        `the commitment's --balance is ${want ? JSON.stringify(want.join(",")) : "not given"}, the record's ${got ? JSON.stringify(got.join(",")) : "none"}`,
      );
    const avoid = b && b.avoid ? b.avoid : null;
    if ((o.avoid === null || o.avoid === undefined) !== !avoid)
      fail(
        `the commitment's --avoid is ${shown(o.avoid)}, the record's ${avoid ? JSON.stringify(avoid.file ?? "given") : "none"}`,
      );
    return;
  }
  // sample: a plain sample -k (o.draw null), or a draw with tickets, reserves, exclusions, strata or an audit's method
  const w = o.draw && typeof o.draw === "object" ? o.draw : null;
  const d = rec.target.draw || null;
  const k = w ? w.k : o.k,
    got = d ? d.k : rec.k;
  if (k !== null && k !== undefined && String(k) !== String(got))
    fail(`the commitment draws -k ${k}, the record ${got}`);
  for (const [flag, name] of [
    ["--weights", "weights"],
    ["--strata", "strata"],
    ["--amount", "amount"],
    ["--id", "id"],
  ]) {
    const want = w ? (w[name] ?? null) : null,
      have = d ? d[name] || null : null;
    if ((want === null) !== !have || (have && want !== have.column))
      fail(
        `the commitment's ${flag} is ${shown(want)}, the record's ${have ? JSON.stringify(have.column) : "none"}`,
      );
  }
  const reserves = w ? w.reserves || 0 : 0;
  if (Number(reserves) !== ((d && d.reserves) || 0))
    fail(`the commitment draws ${reserves} reserves, the record ${(d && d.reserves) || 0}`);
  if (w && d && RECORD_METHODS[w.method] && !RECORD_METHODS[w.method].includes(d.method))
    fail(`the commitment draws by --method ${w.method}, the record by ${d.method}`);
  // a ticket draw's rate and stated scale (section 18), present only when given
  for (const [flag, name] of [
    ["--rate", "rate"],
    ["--weight-scale", "weight_scale"],
    ["--top-stratum", "top_stratum"], // section 20: cents, or "interval"
  ]) {
    const want = w ? (w[name] ?? null) : null,
      have = d ? (d[name] ?? null) : null;
    if (String(want) !== String(have))
      fail(`the commitment's ${flag} is ${shown(want)}, the record's ${shown(have)}`);
  }
  // section 20: a decimal mark the request states is the one the record read (absent: the
  // list's column decided, and the record says which)
  const mark = w ? (w.decimal ?? null) : null;
  if (mark !== null && (mark === "comma") !== (d && d.decimal === "comma"))
    fail(`the commitment reads amounts with a decimal ${mark}, the record's draw does not`);
  for (const name of ["one_entry_per_id", "all_of_small_strata"]) {
    // rules present only when asked for
    const want = Boolean(w && w[name] === true),
      have = Boolean(d && d[name] === true);
    if (want !== have)
      fail(
        `the commitment's --${name.replaceAll("_", "-")} is ${want ? "given" : "not given"}, the record's draw ${have ? "applies it" : "does not apply it"}`,
      );
  }
  // section 9: the prize table, [[name, count, reserves], ...] in the request
  const prizes = w ? (w.prizes ?? null) : null,
    drawn = d && d.prizes ? d.prizes.map((p) => [p.prize, p.count, p.reserves]) : null;
  if (canonicalJson(prizes) !== canonicalJson(drawn))
    fail(
      `the commitment's prize table is ${showPrizes(prizes)}, the record's draw ${showPrizes(drawn)}: not the committed draw`,
    );
  const exclude = w ? (w.exclude ?? null) : null,
    excluded = d ? d.exclusion || null : null;
  if ((exclude === null) !== !excluded)
    fail(
      `the commitment's --exclude is ${shown(exclude)}, the record's draw ${excluded ? "excludes IDs" : "excludes none"}`,
    );
  const allocation = (d && d.allocation) || {};
  const total = w ? (w.total ?? null) : null;
  if (String(total) !== String(allocation.total ?? null))
    fail(
      `the commitment's --total is ${shown(total)}, the record's ${shown(allocation.total ?? null)}`,
    );
  const counts = w ? (w.counts ?? null) : null;
  if (canonicalJson(counts) !== canonicalJson(allocation.counts ?? null))
    fail(
      `the commitment's strata counts are ${showCounts(counts)}, the record's draw took ${showCounts(allocation.counts ?? null)}`,
    );
}

/** A prize table ([[name, count, reserves], ...]) as "Bike 1+1, Mug 2+0". */
function showPrizes(prizes) {
  return Array.isArray(prizes)
    ? prizes.map((p) => (Array.isArray(p) ? `${p[0]} ${p[1]}+${p[2]}` : "?")).join(", ")
    : "none";
}

/** Strata counts ([[label, n], ...]) as "N 1, S 2". */
function showCounts(counts) {
  return Array.isArray(counts)
    ? counts
        .map((pair) => (Array.isArray(pair) ? pair.join(" ") : JSON.stringify(pair)))
        .join(", ") || "none"
    : "none";
}

/**
 * Version 2: each file the draw read beside the list (--exclude, --strata-counts, --avoid,
 * --prizes), as
 * body.inputs pins it: what the record's draw took from it must be what the commitment pinned
 * ("holds"), and a file the request names must be pinned. Returns the files' names.
 */
async function checkPins(rec, body) {
  const inputs = body.inputs ?? [];
  if (!Array.isArray(inputs)) cannot("the commitment's pinned files are not a list");
  const req = body.draw.request || {},
    o = (typeof req.kind === "string" && req[req.kind]) || {};
  const named = {
    "--exclude": o.draw ? (o.draw.exclude ?? null) : null,
    "--avoid": req.kind === "groups" ? (o.avoid ?? null) : null,
  };
  for (const [option, file] of Object.entries(named)) {
    if (file !== null && !inputs.some((pin) => pin && pin.option === option))
      fail(
        `the commitment names ${option} ${file} but does not pin what the draw takes from it: not a commitment to everything the draw reads`,
      );
  }
  const d = rec.target.draw || {};
  const short = (hex) => (typeof hex === "string" ? hex.slice(0, 16) + "..." : "none");
  const names = [];
  for (const pin of inputs) {
    const option = pin && pin.option,
      file = pin && pin.file,
      holds = pin && pin.holds;
    if (!holds || typeof holds !== "object")
      cannot(`the commitment's pin of ${option} ${file} states nothing the draw took from it`);
    let got, show, took;
    if (option === "--exclude") {
      const x = d.exclusion || {};
      got = { ids: x.ids ?? null, digest: x.digest ?? null };
      show = (h) => `${h.ids ?? "no"} ID${h.ids === 1 ? "" : "s"} (digest ${short(h.digest)})`;
      took = "excluded";
    } else if (option === "--strata-counts") {
      got = { counts: (d.allocation || {}).counts ?? null };
      show = (h) => `the counts ${showCounts(h.counts)}`;
      took = "took";
    } else if (option === "--avoid") {
      const avoid = (rec.target.balance || {}).avoid || {};
      got = {
        before_sha256: toHex(await sha256(UTF8.encode(canonicalJson(avoid.before ?? null)))),
      };
      show = (h) => `an earlier split of SHA-256 ${short(h.before_sha256)}`;
      took = "avoided";
    } else if (option === "--prizes") {
      got = { prizes: d.prizes ?? null };
      show = (h) =>
        `the prize table ${showPrizes(Array.isArray(h.prizes) ? h.prizes.map((p) => [p.prize, p.count, p.reserves]) : null)}`;
      took = "drew";
    } else cannot(`the commitment pins ${option} ${file}, a file this page does not know`);
    let same;
    try {
      same = canonicalJson(got) === canonicalJson(holds);
    } catch (e) {
      cannot(`the commitment's pin of ${option} ${file}: ${e.message}`);
    }
    if (!same)
      fail(
        `the commitment pinned ${option} ${file} holding ${show(holds)}, the record's draw ${took} ${show(got)}: not the committed draw`,
      );
    names.push(file);
  }
  return names;
}

/** The committed draw's options as flag -> value ("--by rows" -> {"--by": "rows"}). */
function committedOptions(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith("-")) continue;
    const [flag, inline] = argv[i].split("=", 2);
    if (inline !== undefined) out[flag] = inline;
    else if (i + 1 < argv.length && !/^--?[a-z]/.test(argv[i + 1])) out[flag] = argv[++i];
    else out[flag] = true;
  }
  return out;
}
