/**
 * Section 9's prize table in a record (target.draw.prizes): checked against the record's own
 * counts, and each drawn place's prize, place and role.
 */

import { prizePlaces, prizeTotals } from "../protocol/prizes.js";
import { fail } from "./verdict.js";

/** The fields a draw by a prize table adds to each drawn row, before a ticket draw's ticket. */
export const PRIZE_FIELDS = ["Prize", "Place", "Role"];

/** The methods a prize table is drawn by: a raffle, by tickets or not, or a ticket draw. */
const PRIZE_METHODS = ["random", "weighted", "ticket", "rivest"];

/**
 * A record's prize table ([{prize, count, reserves}, ...]) as [[name, count, reserves], ...],
 * or a refusal naming what a draw by a prize table cannot be.
 */
export function prizeTable(prizes) {
  if (!Array.isArray(prizes) || !prizes.length)
    fail("the record's prize table lists no prize: it was edited");
  const table = prizes.map((p) => [p && p.prize, p && p.count, p && p.reserves]);
  const names = table.map(([name]) => name);
  if (names.some((name) => typeof name !== "string" || name.trim() === ""))
    fail("the record's prize table has a prize without a name: it was edited");
  if (new Set(names).size !== names.length)
    fail("the record's prize table lists a prize twice: it was edited");
  return table;
}

/**
 * The place of each position of the record's draw ([[prize, place, role], ...]), after
 * checking that the table is what the record draws: its counts are the record's k and
 * reserves, from the whole list (no strata, no rate), by a raffle's method.
 */
export function prizePlan(d) {
  const table = prizeTable(d.prizes);
  let places;
  try {
    places = prizePlaces(table);
  } catch (e) {
    fail(`the record's prize table: ${e.message}: it was edited`);
  }
  const { k, reserves } = prizeTotals(table);
  if (d.k !== k || (d.reserves || 0) !== reserves)
    fail(
      `the record's prize table gives ${k} winner(s) and ${reserves} reserve(s), the record draws ${d.k} and ${d.reserves || 0}: it was edited`,
    );
  if (d.strata || d.allocation || d.rate !== undefined)
    fail(
      "the record draws a prize table by strata or a rate: prizes are drawn from the whole list, it was edited",
    );
  if (!PRIZE_METHODS.includes(d.method))
    fail(
      `the record draws a prize table by the method ${JSON.stringify(d.method)}, which is not a raffle's: it was edited`,
    );
  return places;
}

/** The table as a person reads it: "Bike (1, 2 reserves), Mug (2)". */
export function prizeSummary(prizes) {
  return prizes
    .map(
      ([name, count, reserves]) =>
        `${name} (${count}${reserves ? `, ${reserves} reserve(s)` : ""})`,
    )
    .join(", ");
}
