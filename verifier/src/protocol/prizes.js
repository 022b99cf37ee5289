/**
 * Section 9's prize table: the places of one draw of every winner and reserve, given to the
 * prizes in the table's order.
 */

/**
 * The place of each position of the draw, for prizes [[name, count, reserves], ...] in the
 * order they are drawn: [[prize, place, "winner" | "reserve"], ...], every prize's winners
 * first (the first prize's places 1 to its count, then the next prize's), then every prize's
 * reserves in the same order.
 */
export function prizePlaces(prizes) {
  const places = [];
  for (const [name, count] of prizes) {
    if (!(Number.isInteger(count) && count >= 1))
      throw new Error(`the prize ${JSON.stringify(name)} is won by ${count}: give 1 or more`);
    for (let n = 1; n <= count; n++) places.push([name, n, "winner"]);
  }
  for (const [name, , reserves] of prizes) {
    if (!(Number.isInteger(reserves) && reserves >= 0))
      throw new Error(`the prize ${JSON.stringify(name)} has ${reserves} reserves: give 0 or more`);
    for (let n = 1; n <= reserves; n++) places.push([name, n, "reserve"]);
  }
  return places;
}

/** How many win and how many are reserves in a prize table: {k, reserves}. */
export function prizeTotals(prizes) {
  let k = 0,
    reserves = 0;
  for (const [, count, r] of prizes) {
    k += count;
    reserves += r;
  }
  return { k, reserves };
}
