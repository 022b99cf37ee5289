/**
 * xlshuffle in Google Sheets: the custom functions and the draw-and-lock menu, at the top
 * level of the Apps Script file, where Sheets finds them (it lists a function with the tag
 * customfunction in its autocomplete; a menu item names a top-level function).
 */

import { FUNCTIONS } from "./functions.js";
import { lockedAllocation, lockedOrders, lockedTeams } from "./designs.js";
import { lockedDraw, lockedSeed, restoreLast } from "./lock.js";

/** One call of a function: a mistake becomes one line, "NAME: what to change". */
function xlshuffleCall_(name, args) {
  try {
    return FUNCTIONS[name](...args);
  } catch (exc) {
    const text = String((exc && exc.message) || exc)
      .split(/\s+/)
      .join(" ");
    throw new Error(`${name}: ${text}`.slice(0, 300), { cause: exc });
  }
}

/**
 * Returns the cells in a fair random order, same shape; whole rows move by default.
 *
 * @param {Array<Array<*>>} data The cells to shuffle, any shape.
 * @param {*} seed Optional. A number, text or date: the same seed gives the same result everywhere.
 * @param {string} by Optional. "rows" (default), "columns", "cells", "within rows" or "within columns".
 * @param {boolean} header Optional. TRUE keeps the first row (the labels) in place.
 * @return The cells, shuffled.
 * @customfunction
 */
function SHUFFLE(data, seed, by, header) {
  return xlshuffleCall_("SHUFFLE", [data, seed, by, header]);
}

/**
 * Returns the text with its letters, or its words, in a fair random order.
 *
 * @param {string} text The text to jumble: one cell.
 * @param {*} seed Optional. A number, text or date.
 * @param {string} unit Optional. "letters" (default: accents and emoji stay whole) or "words".
 * @return The text, shuffled.
 * @customfunction
 */
function SHUFFLESTR(text, seed, unit) {
  return xlshuffleCall_("SHUFFLESTR", [text, seed, unit]);
}

/**
 * Deals cards as at a table: one column per hand, one row per round.
 *
 * @param {number} cards Cards to each hand: a whole number of 1 or more.
 * @param {number} hands Optional. How many hands (players); 1 by default.
 * @param {*} seed Optional. A number, text or date.
 * @param {*} deck Optional. Empty for 52 cards, a number N for 1 to N, or a range of cards.
 * @return The hands.
 * @customfunction
 */
function DEAL(cards, hands, seed, deck) {
  return xlshuffleCall_("DEAL", [cards, hands, seed, deck]);
}

/**
 * Draws k rows without replacement, in draw order: the first k rows of SHUFFLE.
 *
 * @param {Array<Array<*>>} data The rows to draw from (the cells, for a single row).
 * @param {number} k How many rows to draw.
 * @param {*} seed Optional. A number, text or date.
 * @param {Array<Array<*>>} weights Optional. Tickets per row: whole or decimal numbers, 0 never wins.
 * @param {number} reserves Optional. Reserves drawn after the winners: adds the columns Role and Rank.
 * @param {Array<Array<*>>} exclude Optional. IDs that cannot win, matched against ids.
 * @param {Array<Array<*>>} ids Optional. The IDs exclude is matched against; the first column of data by default.
 * @param {string} method Optional. "random" (the default), "ticket" (each row's own ticket from the seed and its ID, lowest first) or "rivest".
 * @return The rows drawn.
 * @customfunction
 */
function SAMPLE(data, k, seed, weights, reserves, exclude, ids, method) {
  return xlshuffleCall_("SAMPLE", [data, k, seed, weights, reserves, exclude, ids, method]);
}

/**
 * Draws k rows from each stratum on its own, the strata in order of first appearance.
 *
 * @param {Array<Array<*>>} data The rows to draw from.
 * @param {number} k How many rows to draw from each stratum.
 * @param {Array<Array<*>>} strata Each row's stratum label: one column the height of data.
 * @param {*} seed Optional. A number, text or date.
 * @param {Array<Array<*>>} weights Optional. Tickets per row.
 * @param {number} reserves Optional. Reserves per stratum: adds the columns Role and Rank.
 * @return The rows drawn, stratum after stratum.
 * @customfunction
 */
function SAMPLEBY(data, k, strata, seed, weights, reserves) {
  return xlshuffleCall_("SAMPLEBY", [data, k, strata, seed, weights, reserves]);
}

/**
 * Selects rows for an audit at a fixed interval from one random start, in the rows' order.
 *
 * @param {Array<Array<*>>} data The rows to select from.
 * @param {number} k Rows to select ("systematic"), or hits ("mus") or cells ("cell").
 * @param {*} seed Optional. A number, text or date.
 * @param {string} method Optional. "systematic" (default), "mus" (monetary-unit, with amounts) or "cell" (one unit in each of k cells).
 * @param {Array<Array<*>>} amounts Optional. Money amounts per row, for "mus" and "cell"; rows of 0 are set aside, a negative one refused.
 * @param {*} top_stratum Optional. With "mus" or "cell": rows of this amount or more are taken whole; "interval" for the amounts' total over k.
 * @return The rows selected (with a column Hits for "mus" and "cell", and Top stratum with top_stratum).
 * @customfunction
 */
function AUDITSAMPLE(data, k, seed, method, amounts, top_stratum) {
  return xlshuffleCall_("AUDITSAMPLE", [data, k, seed, method, amounts, top_stratum]);
}

/**
 * Returns a group number 1 to k for each row, in the rows' order; sizes differ by 1 at most.
 *
 * @param {Array<Array<*>>} data The rows to split into groups.
 * @param {number} k How many groups.
 * @param {*} seed Optional. A number, text or date.
 * @param {*} balance Optional. Columns to balance the groups by: numbers or header texts.
 * @return A group number per row.
 * @customfunction
 */
function GROUPS(data, k, seed, balance) {
  return xlshuffleCall_("GROUPS", [data, k, seed, balance]);
}

/**
 * Returns each person's own fair random order of the items: a row per ID, ID first.
 *
 * @param {Array<Array<*>>} items The items to order: one column or one row.
 * @param {Array<Array<*>>} ids The people's IDs, one column or one row.
 * @param {*} seed Optional. A number, text or date.
 * @param {number} k Optional. Only the first k places of each order.
 * @param {boolean} balanced Optional. TRUE for counterbalanced orders (a Williams design).
 * @return One row per person.
 * @customfunction
 */
function ORDERS(items, ids, seed, k, balanced) {
  return xlshuffleCall_("ORDERS", [items, ids, seed, k, balanced]);
}

/**
 * Returns a permuted-block allocation list: Seq, the strata, Block, BlockSize and Arm.
 *
 * @param {*} arms The arms' names: a range with one name per cell, or one cell such as "A,B".
 * @param {number} n How many rows are wanted (the last block is complete: use the first n).
 * @param {*} seed Optional. A number, text or date.
 * @param {*} ratio Optional. Whole numbers, one per arm: "2:1" or a range (1 each by default).
 * @param {*} block_sizes Optional. The block sizes, multiples of the ratio's sum: "3,6", a number or a range.
 * @param {*} strata Optional. Stratum factors: "site=North,South;sex=F,M", or a range with a factor per row.
 * @return The allocation list.
 * @customfunction
 */
function ALLOCATE(arms, n, seed, ratio, block_sizes, strata) {
  return xlshuffleCall_("ALLOCATE", [arms, n, seed, ratio, block_sizes, strata]);
}

/**
 * Returns each ID's ticket: 64 hex digits from the seed and the ID; lowest is drawn first.
 *
 * @param {Array<Array<*>>} ids An entrant's ID, or a range of IDs.
 * @param {*} seed The draw's seed (required).
 * @param {number} number Optional. Which of an entrant's tickets (0, the default, is the first).
 * @return The tickets.
 * @customfunction
 */
function TICKET(ids, seed, number) {
  return xlshuffleCall_("TICKET", [ids, seed, number]);
}

/**
 * Returns the smallest sample whose upper limit stays below the tolerable rate.
 *
 * @param {*} confidence The confidence: a rate such as 95% or 0.95.
 * @param {*} tolerable The tolerable rate: deviations, or for monetary units the tolerable misstatement over the book value (T/B).
 * @param {*} expected Optional. The expected rate, below the tolerable one (0 by default); for monetary units the expected misstatement over the book value.
 * @param {number} population Optional. The items in the population: the hypergeometric model needs it.
 * @param {string} model Optional. "binomial" (the default, as the AICPA attribute tables), "poisson" (as the AICPA monetary-unit tables) or "hypergeometric".
 * @return The sample size.
 * @customfunction
 */
function SAMPLESIZE(confidence, tolerable, expected, population, model) {
  return xlshuffleCall_("SAMPLESIZE", [confidence, tolerable, expected, population, model]);
}

/**
 * Returns the upper limit on the population's error rate at the confidence given.
 *
 * @param {number} sample_size The items tested, or the hits of a MUS sample.
 * @param {*} errors The deviations found (a whole number), or for monetary units a range of the hits' taintings, (book - audited) / book each; empty cells count as 0.
 * @param {*} confidence The confidence: a rate such as 95% or 0.95.
 * @param {number} population Optional. The items in the population: the hypergeometric model needs it.
 * @param {string} model Optional. "binomial" (the default for a count), "poisson" (the default for taintings: the Stringer bound with the AICPA factors) or "hypergeometric".
 * @return The upper limit, a rate.
 * @customfunction
 */
function UPPERLIMIT(sample_size, errors, confidence, population, model) {
  return xlshuffleCall_("UPPERLIMIT", [sample_size, errors, confidence, population, model]);
}

// ------------------------------------------------------------------ draw and lock (the menu)

/** Adds the xlshuffle menu when the spreadsheet opens. */
function onOpen() {
  SpreadsheetApp.getUi()
    .createMenu("xlshuffle")
    .addItem("Shuffle the selected rows", "xlshuffleShuffleRows")
    .addItem("Draw winners...", "xlshuffleDrawWinners")
    .addItem("Draw a raffle...", "xlshuffleDrawRaffle")
    .addItem("Deal...", "xlshuffleDeal")
    .addItem("Assign groups...", "xlshuffleAssignGroups")
    .addItem("Assign balanced teams...", "xlshuffleAssignTeams")
    .addItem("Write orders...", "xlshuffleWriteOrders")
    .addItem("Write an allocation list...", "xlshuffleWriteAllocation")
    .addSeparator()
    .addItem("Restore the last draw", "xlshuffleRestoreLastDraw")
    .addItem("Write a fresh seed", "xlshuffleWriteSeed")
    .addToUi();
}

/** The number a prompt asks for, or null when cancelled. */
function xlshuffleAsk_(ui, title, question, blank) {
  const answer = ui.prompt(title, question, ui.ButtonSet.OK_CANCEL);
  if (answer.getSelectedButton() !== ui.Button.OK) return null;
  const text = answer.getResponseText().trim();
  if (text === "" && blank !== undefined) return blank;
  return /^\d+$/.test(text) ? Number(text) : text;
}

/** Runs a locked draw (a mode of lockedDraw, or a command of designs.js); a mistake is
 * shown in a dialog and nothing is written. */
function xlshuffleLock_(mode, questions) {
  const run = typeof mode === "function" ? mode : (book, args) => lockedDraw(book, mode, args);
  const ui = SpreadsheetApp.getUi();
  const args = {};
  for (const [key, question, blank] of questions) {
    const answer = xlshuffleAsk_(ui, "xlshuffle", question, blank);
    if (answer === null) return null;
    args[key] = answer;
  }
  try {
    return run(SpreadsheetApp.getActiveSpreadsheet(), args);
  } catch (exc) {
    ui.alert("xlshuffle", String((exc && exc.message) || exc), ui.ButtonSet.OK);
    return null;
  }
}

function xlshuffleShuffleRows() {
  return xlshuffleLock_("shuffle", []);
}

function xlshuffleDrawWinners() {
  return xlshuffleLock_("winners", [["k", "How many winners?"]]);
}

function xlshuffleDrawRaffle() {
  return xlshuffleLock_("raffle", [
    ["k", "How many winners?"],
    ["reserves", "How many reserves? (empty: none)", 0],
    ["tickets", "The tickets column: its header or letters (empty: one ticket each)", ""],
  ]);
}

function xlshuffleDeal() {
  return xlshuffleLock_("deal", [
    ["k", "How many cards to each hand?"],
    ["hands", "How many hands?"],
  ]);
}

function xlshuffleAssignGroups() {
  return xlshuffleLock_("groups", [["k", "How many groups?"]]);
}

function xlshuffleAssignTeams() {
  return xlshuffleLock_(lockedTeams, [
    ["k", "How many teams?"],
    ["balance", "Balance by: the columns' headers (in the row above the selection) or letters"],
  ]);
}

function xlshuffleWriteOrders() {
  return xlshuffleLock_(lockedOrders, [
    ["ids", "The IDs: a named range or cells such as E2:E31 (empty: the named range IDS)", ""],
    ["k", "How many places in each order? (empty: all)", ""],
    ["balanced", "Counterbalanced orders (a Williams design)? TRUE or FALSE (empty: FALSE)", ""],
  ]);
}

function xlshuffleWriteAllocation() {
  return xlshuffleLock_(lockedAllocation, [
    ["arms", "The arms, separated by commas (empty: A,B)", "A,B"],
    ["n", "Rows per stratum, at least (empty: 20)", 20],
    ["ratio", "The ratio, such as 2:1 (empty: 1 each)", ""],
    ["blockSizes", "The block sizes, such as 3,6 (empty: 2 and 4 times the ratio's sum)", ""],
    ["strata", "The strata, such as site=North,South;sex=F,M (empty: none)", ""],
  ]);
}

/** Runs a command on the spreadsheet; a mistake is shown in a dialog. */
function xlshuffleRun_(command) {
  try {
    return command(SpreadsheetApp.getActiveSpreadsheet());
  } catch (exc) {
    const ui = SpreadsheetApp.getUi();
    ui.alert("xlshuffle", String((exc && exc.message) || exc), ui.ButtonSet.OK);
    return null;
  }
}

function xlshuffleRestoreLastDraw() {
  return xlshuffleRun_(restoreLast);
}

function xlshuffleWriteSeed() {
  return xlshuffleRun_(lockedSeed);
}
