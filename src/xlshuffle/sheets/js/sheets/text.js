/**
 * Text shuffles by grapheme or by word, as xlshuffle's draw/text.py: graphemes are the
 * extended grapheme clusters of Unicode UAX #29 (Intl.Segmenter, which V8 has, in Apps
 * Script as in Node), words the runs of characters between Python's white space, which
 * stays where it was.
 */

import { PY_SPACE } from "../protocol/python.js";
import { shuffle } from "../protocol/shuffles.js";
import { Mistake } from "./cells.js";

export function graphemes(text) {
  if (typeof Intl === "undefined" || typeof Intl.Segmenter !== "function")
    throw new Mistake("this JavaScript has no Intl.Segmenter: graphemes cannot be found here");
  const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

const SPACES = new RegExp("(" + PY_SPACE + "+)");

/** unit "grapheme" or "word" (the names SHUFFLESTR takes: letters, words...). */
export function shuffleText(text, seed, unit) {
  const key = typeof unit === "string" ? unit.trim().toLowerCase() : unit;
  const letters = ["grapheme", "graphemes", "char", "chars", "character", "characters", "letters"];
  if (key === null || letters.includes(key)) return shuffle(graphemes(text), seed).join("");
  if (key !== "word" && key !== "words")
    throw new Mistake(`unknown unit '${unit}': use 'grapheme' or 'word'`);
  const parts = text.split(SPACES); // words at even indexes, the white space between at odd
  const words = parts.filter((p, i) => i % 2 === 0 && p);
  const drawn = shuffle(words, seed);
  let next = 0;
  return parts.map((p, i) => (i % 2 || !p ? p : drawn[next++])).join("");
}
