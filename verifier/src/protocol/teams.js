/**
 * Section 16: balanced teams, the best of up to 64 candidates.
 */

import { canonicalId } from "./exclusions.js";
import { range } from "./python.js";
import { shuffleFrom } from "./shuffles.js";
import { Stream } from "./stream.js";

async function teamCandidate(keys, k, stream) {
  const n = keys.length;
  const place = new Array(n);
  (await shuffleFrom(stream, range(n))).forEach((p, q) => {
    place[p] = q;
  });
  const ranks = new Map();
  const columns = n ? keys[0].length : 0;
  for (let c = 0; c < columns; c++) {
    const prefixes = [...new Set(keys.map((key) => JSON.stringify(key.slice(0, c))))];
    for (const prefix of prefixes) {
      const values = [
        ...new Set(
          keys.filter((key) => JSON.stringify(key.slice(0, c)) === prefix).map((key) => key[c]),
        ),
      ];
      const drawn = await shuffleFrom(stream, values);
      drawn.forEach((v, rank) => ranks.set(JSON.stringify(JSON.parse(prefix).concat([v])), rank));
    }
  }
  const relabel = await shuffleFrom(stream, range(k));
  const rankOf = keys.map((key) =>
    range(key.length).map((c) => ranks.get(JSON.stringify(key.slice(0, c + 1)))),
  );
  const line = range(n).sort((a, b) => {
    for (let c = 0; c < columns; c++)
      if (rankOf[a][c] !== rankOf[b][c]) return rankOf[a][c] - rankOf[b][c];
    return place[a] - place[b];
  });
  const team = new Array(n);
  line.forEach((person, q) => {
    team[person] = relabel[q % k] + 1;
  });
  const perm = new Array(n);
  place.forEach((q, p) => {
    perm[q] = p;
  });
  return { team, perm };
}

/** Section 16: balanced teams; labels[i] are person i's balancing values; before optional. */
export async function balancedTeams(labels, k, seed, before = null) {
  return (await balancedTeamsDrawn(labels, k, seed, before)).team;
}

/** Section 16 with the chosen candidate's details: {team, perm (its step 1), candidates, repeats, excess}. */
export async function balancedTeamsDrawn(labels, k, seed, before = null) {
  const keys = labels.map((row) => row.map(canonicalId));
  const stream = await Stream.ofSeed(seed);
  let best = null;
  for (let t = 0; t < 64; t++) {
    const { team, perm } = await teamCandidate(keys, k, stream);
    const per = new Map(),
      pairs = new Map();
    keys.forEach((key, i) => {
      for (let c = 1; c < key.length; c++) {
        const id = JSON.stringify([c, key[c]]);
        if (!per.has(id)) per.set(id, new Array(k).fill(0));
        per.get(id)[team[i] - 1] += 1;
      }
      if (before && before[i] !== null && before[i] !== undefined) {
        const id = JSON.stringify([before[i], team[i]]);
        pairs.set(id, (pairs.get(id) || 0) + 1);
      }
    });
    let repeats = 0,
      excess = 0;
    for (const x of pairs.values()) repeats += (x * (x - 1)) / 2;
    for (const x of per.values()) excess += Math.max(0, Math.max(...x) - Math.min(...x) - 1);
    if (!best || repeats < best.repeats || (repeats === best.repeats && excess < best.excess)) {
      best = { team, perm, repeats, excess, candidates: t + 1 };
    }
    if (repeats === 0 && excess === 0) return best;
  }
  return best;
}
