/**
 * The page's readers in Node: zip packages (zip64 too) and their inflating, workbooks (the
 * DOM's reading and the sheet scanner's, which must agree), cell texts, formula texts and
 * CSV/TSV lists, against the engine's fixtures (tests/fixtures/engine) and files made here.
 * The expected cell texts are those of xlshuffle's text_of (common/celltext.py).
 */

import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { test } from "node:test";

import { cellKey, columnLetters, parseRef } from "../src/read/a1.js";
import { durationText, formatKind, isoCellText, serialText } from "../src/read/dates.js";
import { numberCellText } from "../src/read/celltexts.js";
import { formulaKey, formulaTexts, shiftFormula } from "../src/read/formulas.js";
import { parseList } from "../src/read/lists.js";
import { domSheet, scanSheet } from "../src/read/sheets.js";
import { openWorkbook } from "../src/read/workbook.js";
import { isZip, zipEntries, zipRead } from "../src/read/zip.js";
import { DOMParser } from "./dom.mjs";
import { bytesOf, makeZip } from "./support.mjs";

globalThis.DOMParser = DOMParser; // Node has none: the readers take this one

const ENGINE = "tests/fixtures/engine/";
const text = (bytes) => new TextDecoder().decode(bytes);

/** A sheet's Map (cellKey -> value) as {A1: value}. */
function byName(map) {
  const out = {};
  for (const [key, value] of map) out[columnLetters(key % 20000) + Math.floor(key / 20000)] = value;
  return out;
}

// ---------------------------------------------------------------- zip

for (const zip64 of [false, true]) {
  test(`a zip package${zip64 ? " with zip64 records" : ""}: stored and deflated entries`, async () => {
    const long = "xlshuffle ".repeat(5000);
    const bytes = makeZip(
      [
        ["stored.txt", "as it is", "stored"],
        ["deflated.txt", long, "deflated"],
        ["xl/naïve.xml", "<x>é</x>", "deflated"],
      ],
      { zip64 },
    );
    assert.ok(isZip(bytes));
    const entries = zipEntries(bytes);
    assert.deepEqual([...entries.keys()], ["stored.txt", "deflated.txt", "xl/naïve.xml"]);
    assert.equal(entries.get("deflated.txt").method, 8);
    assert.ok(entries.get("deflated.txt").size < long.length / 10);
    assert.equal(text(await zipRead(bytes, entries, "stored.txt")), "as it is");
    assert.equal(text(await zipRead(bytes, entries, "deflated.txt")), long);
    assert.equal(text(await zipRead(bytes, entries, "xl/naïve.xml")), "<x>é</x>");
    assert.equal(await zipRead(bytes, entries, "missing.txt"), null);
  });
}

test("what is not a zip package is refused", () => {
  assert.ok(!isZip(new TextEncoder().encode("name,score\nAnn,1\n")));
  assert.throws(() => zipEntries(new Uint8Array(100)), /not a zip package/);
  const bytes = makeZip([["a.txt", "a"]]);
  const cut = bytes.slice(0, bytes.length - 30); // the end record cut short
  assert.throws(() => zipEntries(cut), /not a zip package|broken/);
});

test("an entry of another method than deflate is refused by name", async () => {
  const bytes = makeZip([["a.txt", "a", "stored"]]);
  const entries = zipEntries(bytes);
  entries.get("a.txt").method = 12; // bzip2
  await assert.rejects(zipRead(bytes, entries, "a.txt"), /a\.txt: zip method 12 is not deflate/);
});

// ---------------------------------------------------------------- workbooks

test("every fixture's sheets: the scanner reads what the DOM reads", async () => {
  let compared = 0;
  for (const name of readdirSync(new URL(`../../${ENGINE}`, import.meta.url)).sort()) {
    if (!/\.xls[xm]$/.test(name)) continue;
    const bytes = bytesOf(ENGINE + name);
    const book = await openWorkbook(bytes);
    const entries = zipEntries(bytes);
    for (const path of [...entries.keys()].filter((p) => /^xl\/worksheets\/[^/]+\.xml$/.test(p))) {
      const xml = text(await zipRead(bytes, entries, path));
      const scanned = scanSheet(xml, book.shared, true);
      if (scanned === null) continue; // prefixed names, CDATA, a document type: the DOM's
      const dom = domSheet(xml, book.shared, path, true);
      assert.deepEqual([...scanned.cells], [...dom.cells], `${name} ${path}`);
      assert.deepEqual([...scanned.formulas], [...dom.formulas], `${name} ${path}`);
      compared += 1;
    }
  }
  assert.ok(compared > 30, `${compared} sheets compared`);
});

test("a workbook's sheets and cells: shared and inline strings, numbers", async () => {
  const book = await openWorkbook(bytesOf(ENGINE + "inline_strings.xlsx"));
  assert.deepEqual(book.sheets.slice(0, 1), ["Data"]);
  const cells = byName((await book.cells(book.sheets[0])).cells);
  assert.equal(cells.A1, "s:id");
  assert.equal(cells.B4, "s:bold red italic plain");
  assert.equal(cells.B6, "s:   three leading spaces");
  assert.equal(cells.C2, "n:8");
});

test("what the scanner leaves to the DOM: CDATA, a document type, prefixed names", async () => {
  const cdata = await openWorkbook(bytesOf(ENGINE + "cdata_charrefs.xlsx"));
  const cells = byName((await cdata.cells(cdata.sheets[0])).cells);
  assert.equal(cells.B3, 's:</row> and <c r="Z9"> as text');
  assert.equal(cells.B4, "s:two\nlines");
  assert.equal(cells.B5, "s:smile 😀 & <ok>");
  assert.equal(cells.A4, "s:r3");
  const doctype = await openWorkbook(bytesOf(ENGINE + "doctype.xlsx"));
  assert.equal(byName((await doctype.cells(doctype.sheets[0])).cells).A2, "s:r1");
  const plain = await openWorkbook(bytesOf(ENGINE + "shared_formulas.xlsx"));
  const prefixed = await openWorkbook(bytesOf(ENGINE + "prefixed.xlsx"));
  const p = byName((await prefixed.cells(prefixed.sheets[0])).cells);
  assert.equal(p.A1, "s:id");
  assert.equal(p.C2, "n:8");
  assert.ok(Object.keys(p).length >= 27);
  assert.ok(plain.sheets.length >= 1);
});

test("a Strict Open XML workbook's sheets are found by their relationships", async () => {
  const book = await openWorkbook(bytesOf(ENGINE + "strict.xlsx"));
  assert.equal(book.sheets.length, 2);
  const cells = byName((await book.cells(book.sheets[0])).cells);
  assert.equal(cells.A1, "s:id");
  assert.equal(cells.C2, "n:8");
});

test("a package without a workbook part is not a workbook", async () => {
  const bytes = makeZip([["word/document.xml", "<w/>"]]);
  await assert.rejects(openWorkbook(bytes), /no xl\/workbook\.xml: not an Excel workbook/);
});

// ---------------------------------------------------------------- cell texts (section 17)

for (const [name, system] of [
  ["dates_1900.xlsx", false],
  ["dates_1904.xlsx", true],
]) {
  test(`cell texts of ${name}: dates and date-times in ISO 8601, as xlshuffle writes them`, async () => {
    const book = await openWorkbook(bytesOf(ENGINE + name));
    assert.equal(book.date1904, system);
    const texts = byName(await book.texts(book.sheets[0]));
    // prettier-ignore
    assert.deepEqual(
      [texts.A1, texts.B2, texts.C2, texts.D2, texts.C8, texts.C9, texts.D9],
      ["id", "2025-02-07T00:00:00", "2025-02-07T03:00:00", "8", "2025-09-17T21:00:00", "2025-10-25T00:00:00", "5"],
    );
    assert.equal(Object.keys(texts).length, 36);
  });
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** A workbook of one sheet, "Kinds", made of these parts. */
function smallBook(sheetData, { styles = null, shared = null } = {}) {
  const rel = (id, type, target) =>
    `<Relationship Id="${id}" Type="${RELS}/${type}" Target="${target}"/>`;
  return makeZip([
    [
      "xl/workbook.xml",
      `<workbook xmlns="${MAIN}" xmlns:r="${RELS}"><sheets>` +
        `<sheet name="Kinds" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        rel("rId1", "worksheet", "worksheets/sheet1.xml") +
        `</Relationships>`,
    ],
    [
      "xl/worksheets/sheet1.xml",
      `<worksheet xmlns="${MAIN}"><sheetData>${sheetData}</sheetData></worksheet>`,
    ],
    ...(styles ? [["xl/styles.xml", `<styleSheet xmlns="${MAIN}">${styles}</styleSheet>`]] : []),
    ...(shared ? [["xl/sharedStrings.xml", `<sst xmlns="${MAIN}">${shared}</sst>`]] : []),
  ]);
}

test("every kind of cell, its value and its text (a workbook made here)", async () => {
  const book = await openWorkbook(
    smallBook(
      '<row r="1"><c r="A1" t="b"><v>1</v></c><c r="B1" t="b"><v>0</v></c>' +
        '<c r="C1" t="e"><v>#N/A</v></c><c r="D1" t="str"><v>text</v></c>' +
        '<c r="E1" t="inlineStr"><is><t>a_x0041_b</t></is></c><c r="F1" t="s"><v>0</v></c>' +
        '<c r="G1" t="s"><v>1</v></c></row>' +
        '<row r="2"><c r="A2" s="1"><v>45292.5</v></c><c r="B2" s="2"><v>1.25</v></c>' +
        '<c r="C2" s="3"><v>45292</v></c><c r="D2"><v>0.1</v></c><c r="E2" s="4"><v>0.25</v></c>' +
        '<c r="F2" t="d"><v>2024-03-04T05:06:07</v></c><c r="G2"><f>1+1</f><v>2</v></c></row>',
      {
        styles:
          '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>' +
          '<numFmt numFmtId="165" formatCode="[h]:mm:ss"/></numFmts><cellXfs count="5">' +
          '<xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="14"/>' +
          '<xf numFmtId="9"/></cellXfs>',
        shared: "<si><t>Zo&#235;</t></si><si><r><t>rich </t></r><r><t>text</t></r></si>",
      },
    ),
  );
  assert.deepEqual(book.sheets, ["Kinds"]);
  // prettier-ignore
  assert.deepEqual(byName((await book.cells("Kinds")).cells), {
    A1: "b:TRUE", B1: "b:FALSE", C1: "e:#N/A", D1: "s:text", E1: "s:a_x0041_b", F1: "s:Zoë",
    G1: "s:rich text", A2: "n:45292.5", B2: "n:1.25", C2: "n:45292", D2: "n:0.1", E2: "n:0.25",
    F2: "n:2024-03-04T05:06:07", G2: "Fn:2",
  });
  // the texts are xlshuffle's (text_of of cell_value, the same parts)
  // prettier-ignore
  assert.deepEqual(byName(await book.texts("Kinds")), {
    A1: "True", B1: "False", C1: "#N/A", D1: "text", E1: "aAb", F1: "Zoë", G1: "rich text",
    A2: "2024-01-01T12:00:00", B2: "1 day, 6:00:00", C2: "2024-01-01T00:00:00", D2: "0.1",
    E2: "0.25", F2: "2024-03-04T05:06:07", G2: "2",
  });
  await assert.rejects(book.cells("Other"), /no sheet named "Other"/);
});

/** The expected texts are Python's: text_of, openpyxl's from_excel, str(timedelta). */
test("number, serial, duration and ISO texts", () => {
  assert.deepEqual(
    ["3", "3.0", "0.1", "1e-05", "2.5e+20", "123456789012345678", "1E400"].map(numberCellText),
    ["3", "3", "0.1", "1e-05", "250000000000000000000", "123456789012345678", "inf"],
  );
  assert.throws(() => numberCellText("abc"), /a number cell holds "abc"/);
  assert.equal(serialText(45292.5, false), "2024-01-01T12:00:00");
  assert.equal(serialText(0.75, false), "18:00:00");
  assert.equal(serialText(59, false), "1900-02-28T00:00:00");
  assert.equal(serialText(61, false), "1900-03-01T00:00:00");
  assert.equal(serialText(0, true), "00:00:00");
  assert.equal(serialText(1, true), "1904-01-02T00:00:00");
  assert.equal(serialText(2958466, false), "#VALUE!");
  assert.equal(durationText("1.25"), "1 day, 6:00:00");
  assert.equal(durationText("-0.5"), "-1 day, 12:00:00");
  assert.equal(durationText("7"), "7 days, 0:00:00");
  assert.equal(durationText("1000000000"), "#VALUE!");
  assert.equal(isoCellText("2024-03-04T05:06:07.250Z"), "2024-03-04T05:06:07.250000");
  assert.equal(isoCellText("13:30:15"), "13:30:15");
  assert.deepEqual(formatKind("yyyy-mm-dd"), { date: true, elapsed: false });
  assert.deepEqual(formatKind("[h]:mm:ss"), { date: true, elapsed: true });
  assert.deepEqual(formatKind('"day" 0'), { date: false, elapsed: false });
  assert.deepEqual(formatKind("[Red]0.00"), { date: false, elapsed: false });
});

// ---------------------------------------------------------------- formulas

test("formulas moved as Excel translates them (openpyxl's Translator's answers)", () => {
  const cases = [
    ["A1*2", 3, 0, "A4*2"],
    ["$A$1+B2", 3, 0, "$A$1+B5"],
    ["A$1+$B2", 5, 1, "B$1+$B7"],
    ["SUM(A:A)+SUM($B:C)", 0, 2, "SUM(C:C)+SUM($B:E)"],
    ["SUM(2:2)+SUM($3:4)", -1, 0, "SUM(1:1)+SUM($3:3)"],
    ["Sheet2!A1+'My Sheet'!B3", 0, 2, "Sheet2!C1+'My Sheet'!D3"],
    ['"A1"&B2&"say ""B2"""', 3, 0, '"A1"&B5&"say ""B2"""'],
    ["LOG10(A1)+ATAN2(C3,D4)", 3, 0, "LOG10(A4)+ATAN2(C6,D7)"],
    ["Table1[[#This Row],[Amount]]*C2", 3, 0, "Table1[[#This Row],[Amount]]*C5"],
    ["A1*2", -1, 0, null],
    ["XFD1+A1", 0, 1, null],
    ['"open', 1, 0, null],
  ];
  for (const [formula, dr, dc, want] of cases) {
    assert.equal(shiftFormula(formula, dr, dc), want, `${formula} by ${dr}, ${dc}`);
  }
  assert.equal(formulaKey('sum( a1 , b2 )&" x "'), 'SUM(A1,B2)&" x "');
});

test("a shared formula's followers read as its master moved", async () => {
  const book = await openWorkbook(bytesOf(ENGINE + "shared_formulas.xlsx"));
  const sheet = await book.withFormulas(book.sheets[0]);
  const texts = byName(formulaTexts(sheet));
  assert.equal(texts.C2, "B2*2");
  assert.equal(texts.C9, "B9*2");
  assert.equal(texts.D1, "ROW(B1)-1");
  assert.equal(texts.D5, "ROW(B5)-1");
  assert.equal(sheet.cells.get(cellKey(5, 3)), "Fn:6");
  assert.deepEqual(parseRef("$B$2:C9"), { r1: 2, c1: 2, r2: 9, c2: 3 });
});

// ---------------------------------------------------------------- lists

test("CSV and TSV records: quotes, doubled quotes, line breaks, each record's raw text", () => {
  const csv = 'name,note\r\n"Smith, Jo","say ""hi"""\n"two\nlines",x\nlast,';
  assert.deepEqual(parseList(csv, ","), [
    { raw: "name,note", cells: ["name", "note"] },
    { raw: '"Smith, Jo","say ""hi"""', cells: ["Smith, Jo", 'say "hi"'] },
    { raw: '"two\nlines",x', cells: ["two\nlines", "x"] },
    { raw: "last,", cells: ["last", ""] },
  ]);
  assert.deepEqual(
    parseList("a\tb\n\nc", "\t").map((r) => r.cells),
    [["a", "b"], [""], ["c"]],
  );
});
