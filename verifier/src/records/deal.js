/**
 * The JSON of `xlshuffle deal --json`.
 */

import { range } from "../protocol/python.js";
import { dealHands, standardDeck } from "../protocol/shuffles.js";
import { cannot, fail } from "./verdict.js";

export async function verifyDealJson(rec) {
  const hands = rec.hands;
  if (
    !Array.isArray(hands) ||
    !hands.length ||
    !hands.every((h) => Array.isArray(h) && h.length === hands[0].length)
  )
    fail("the record's hands are not lists of the same length");
  const cards = hands[0].length,
    want = JSON.stringify(hands);
  if (Number.isInteger(rec.deck)) {
    // --deck N: the numbers 1..N (recorded since xlshuffle 0.2)
    if (cards * hands.length > rec.deck)
      fail(`the record deals ${cards * hands.length} of ${rec.deck} numbers`);
    const dealt = await dealHands(
      range(rec.deck).map((i) => i + 1),
      cards,
      hands.length,
      rec.seed,
    );
    if (JSON.stringify(dealt) !== want)
      fail(
        `the seed deals hand 1 ${dealt[0].join(" ")} from 1..${rec.deck}, the record says ${hands[0].join(" ")}`,
      );
    return {
      message: `Verified: deal of ${cards} number(s) to ${hands.length} hand(s) from 1..${rec.deck} with seed ${JSON.stringify(rec.seed)}. Checked: the seed deals exactly these hands.`,
      table: hands.map((h, i) => [`hand ${i + 1}`, h.join(" ")]),
    };
  }
  if (hands.flat().some((c) => typeof c !== "string"))
    cannot("a deal of the numbers 1..N (--deck N) written before its record held N");
  for (let decks = 1; decks <= 4; decks++) {
    for (let jokers = 0; jokers <= 2; jokers++) {
      const deck = standardDeck(jokers, decks);
      if (cards * hands.length > deck.length) continue;
      if (JSON.stringify(await dealHands(deck, cards, hands.length, rec.seed)) === want) {
        return {
          message: `Verified: deal of ${cards} card(s) to ${hands.length} hand(s) with seed ${JSON.stringify(rec.seed)}, from ${decks} deck(s) of 52 cards${jokers ? ` and ${jokers} joker(s) each` : ""}. Checked: the seed deals exactly these hands.`,
          table: hands.map((h, i) => [`hand ${i + 1}`, h.join(" ")]),
        };
      }
    }
  }
  const first = await dealHands(standardDeck(0, 1), cards, hands.length, rec.seed);
  fail(
    `no standard deck (1 to 4 decks, 0 to 2 jokers each) dealt with seed ${JSON.stringify(rec.seed)} gives these hands; one deck gives hand 1 ${first[0].join(" ")}, the record says ${hands[0].join(" ")}`,
  );
}
