/**
 * XML, read through the DOM (DOMParser) for the workbook's small parts, and as text by the
 * sheet scanner: entities and attributes.
 */

export function parseXml(bytes, what) {
  const doc = new DOMParser().parseFromString(new TextDecoder().decode(bytes), "application/xml");
  if (doc.getElementsByTagName("parsererror").length)
    throw new Error(what + " is not well-formed XML");
  return doc;
}

export function elements(node, local) {
  return Array.from(node.getElementsByTagNameNS("*", local));
}

/** The text of a string item (<si> or <is>): its <t>, leaving out phonetic runs (<rPh>). */
export function stringItemText(item) {
  const only = item.firstElementChild;
  if (only && only.localName === "t" && !only.nextElementSibling) return only.textContent;
  let text = "";
  for (const t of elements(item, "t")) {
    let up = t.parentNode,
      phonetic = false;
    while (up && up !== item) {
      if (up.localName === "rPh") phonetic = true;
      up = up.parentNode;
    }
    if (!phonetic) text += t.textContent;
  }
  return text;
}

const XML_ENTITY = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(lt|gt|amp|quot|apos));/g;

const NAMED = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

export function unescapeXml(text) {
  if (text.indexOf("&") < 0) return text;
  return text.replace(XML_ENTITY, (_, hex, dec, name) =>
    name ? NAMED[name] : String.fromCodePoint(parseInt(hex || dec, hex ? 16 : 10)),
  );
}

const ATTRIBUTES = new Map();

export function attribute(attrs, name) {
  // the common form first, name="value" after a space, without entities
  const at = attrs.indexOf(" " + name + '="');
  if (at >= 0) {
    const from = at + name.length + 3,
      to = attrs.indexOf('"', from);
    const value = attrs.slice(from, to);
    if (value.indexOf("&") < 0) return value;
  }
  return attributeSlow(attrs, name);
}

function attributeSlow(attrs, name) {
  let pattern = ATTRIBUTES.get(name);
  if (!pattern) {
    pattern = new RegExp("(?:^|\\s)" + name + "\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)')");
    ATTRIBUTES.set(name, pattern);
  }
  const m = pattern.exec(attrs);
  return m ? unescapeXml(m[1] !== undefined ? m[1] : m[2]) : null;
}
