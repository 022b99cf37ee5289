/**
 * A workbook: its sheets, shared strings and date system, and each sheet's cells, formulas
 * and texts, read when asked for.
 */

import { sheetTexts } from "./celltexts.js";
import { dateStyles } from "./dates.js";
import { domSheet, scanSheet } from "./sheets.js";
import { elements, parseXml, stringItemText } from "./xml.js";
import { zipEntries, zipRead } from "./zip.js";

/** A workbook: its sheets' names, and read(sheetName) -> Map "row,col" -> value. */
export async function openWorkbook(bytes) {
  const entries = zipEntries(bytes);
  const read = async (name) => zipRead(bytes, entries, name);
  const workbook = await read("xl/workbook.xml");
  if (!workbook) throw new Error("no xl/workbook.xml: not an Excel workbook");
  const rels = parseXml(await read("xl/_rels/workbook.xml.rels"), "the workbook's relationships");
  const targets = new Map(
    elements(rels, "Relationship").map((r) => [r.getAttribute("Id"), r.getAttribute("Target")]),
  );
  const sheets = elements(parseXml(workbook, "xl/workbook.xml"), "sheet").map((s) => {
    const id =
      s.getAttributeNS(
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
        "id",
      ) || s.getAttribute("r:id");
    let target = targets.get(id) || "";
    target = target.startsWith("/") ? target.slice(1) : "xl/" + target;
    return { name: s.getAttribute("name"), path: target };
  });
  let shared = [];
  const sst = await read("xl/sharedStrings.xml");
  if (sst) shared = elements(parseXml(sst, "the shared strings"), "si").map(stringItemText);
  const pr = elements(parseXml(workbook, "xl/workbook.xml"), "workbookPr")[0];
  const date1904 = !!pr && ["1", "true"].includes((pr.getAttribute("date1904") || "").trim());
  const sheetXml = async (name) => {
    const sheet = sheets.find((s) => s.name === name);
    if (!sheet) throw new Error(`no sheet named ${JSON.stringify(name)}`);
    return new TextDecoder().decode(await read(sheet.path));
  };
  const book = {
    sheets: sheets.map((s) => s.name),
    shared,
    date1904,
    styles: null,
    async cells(name) {
      const text = await sheetXml(name);
      return scanSheet(text, shared) || domSheet(text, shared, name);
    },
    /** The cells and the formulas ({cells, formulas}): read only for the formula check. */
    async withFormulas(name) {
      const text = await sheetXml(name);
      return scanSheet(text, shared, true) || domSheet(text, shared, name, true);
    },
    /** The cells' texts as the list digest takes them (section 17, step 1). */
    async texts(name) {
      if (!book.styles) book.styles = dateStyles(await read("xl/styles.xml"));
      return sheetTexts(await sheetXml(name), book, name);
    },
  };
  return book;
}
