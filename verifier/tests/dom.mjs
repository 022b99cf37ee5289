/**
 * A small XML DOM for Node, which has no DOMParser: just what the page's readers call on the
 * browser's (parseFromString, getElementsByTagName(NS), getAttribute(NS), children and
 * siblings, localName, textContent, parentNode, documentElement). Enough for the workbooks
 * of these tests: namespaces, entities (the five named ones, character references and a
 * DOCTYPE's internal ones), CDATA, comments and processing instructions. A document that is
 * not well-formed comes back holding a <parsererror> element, as the browser's does.
 *
 * It stands in for the browser's parser in `node --test` only: the page itself is tested
 * with Chromium's (tests/test_verifier_page.py).
 */

const XMLNS = "http://www.w3.org/2000/xmlns/";
const XML = "http://www.w3.org/XML/1998/namespace";
const NAMED = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

class Text {
  constructor(data, parentNode) {
    this.data = data;
    this.parentNode = parentNode;
  }

  get textContent() {
    return this.data;
  }
}

class Node {
  constructor(parentNode) {
    this.parentNode = parentNode;
    this.childNodes = [];
  }

  get children() {
    return this.childNodes.filter((n) => n instanceof Element);
  }

  get firstElementChild() {
    return this.children[0] || null;
  }

  get textContent() {
    return this.childNodes.map((n) => n.textContent).join("");
  }

  getElementsByTagName(name) {
    return this.descendants().filter((e) => e.tagName === name);
  }

  getElementsByTagNameNS(ns, local) {
    return this.descendants().filter(
      (e) => (ns === "*" || e.namespaceURI === ns) && (local === "*" || e.localName === local),
    );
  }

  descendants() {
    const out = [];
    for (const child of this.children) out.push(child, ...child.descendants());
    return out;
  }
}

class Element extends Node {
  constructor(tagName, attributes, parentNode) {
    super(parentNode);
    this.tagName = tagName;
    this.attributes = attributes; // [{name, value, namespaceURI, localName}]
    this.localName = tagName.includes(":") ? tagName.slice(tagName.indexOf(":") + 1) : tagName;
    this.namespaceURI = null;
  }

  get nextElementSibling() {
    const siblings = this.parentNode.children;
    return siblings[siblings.indexOf(this) + 1] || null;
  }

  getAttribute(name) {
    const a = this.attributes.find((x) => x.name === name);
    return a ? a.value : null;
  }

  getAttributeNS(ns, local) {
    const a = this.attributes.find((x) => x.namespaceURI === ns && x.localName === local);
    return a ? a.value : null;
  }
}

class Document extends Node {
  get documentElement() {
    return this.firstElementChild;
  }
}

function decode(text, entities) {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);/g, (whole, ref) => {
    if (ref[0] === "#") {
      const hex = ref[1] === "x";
      return String.fromCodePoint(parseInt(ref.slice(hex ? 2 : 1), hex ? 16 : 10));
    }
    if (ref in NAMED) return NAMED[ref];
    if (entities.has(ref)) return entities.get(ref);
    throw new Error("undefined entity " + whole);
  });
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const ATTRIBUTE = /^\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/;

/** Resolve the element's and its attributes' prefixes with the declarations in scope. */
function resolve(element, scopes) {
  const scope = new Map(scopes[scopes.length - 1]);
  for (const a of element.attributes) {
    if (a.name === "xmlns") scope.set("", a.value);
    else if (a.name.startsWith("xmlns:")) scope.set(a.name.slice(6), a.value);
  }
  const prefix = (name) => (name.includes(":") ? name.slice(0, name.indexOf(":")) : "");
  const tagPrefix = prefix(element.tagName);
  if (tagPrefix && !scope.has(tagPrefix)) throw new Error("unbound prefix " + tagPrefix);
  element.namespaceURI = scope.get(tagPrefix) || null;
  for (const a of element.attributes) {
    const p = prefix(a.name);
    a.localName = p ? a.name.slice(p.length + 1) : a.name;
    if (a.name === "xmlns" || p === "xmlns") a.namespaceURI = XMLNS;
    else if (p === "xml") a.namespaceURI = XML;
    else if (p) {
      if (!scope.has(p)) throw new Error("unbound prefix " + p);
      a.namespaceURI = scope.get(p);
    } else a.namespaceURI = null;
  }
  return scope;
}

function parse(text) {
  const doc = new Document(null);
  const entities = new Map();
  const scopes = [new Map([["xml", XML]])];
  let node = doc;
  let at = 0;
  const skip = (close) => {
    const end = text.indexOf(close, at);
    if (end < 0) throw new Error("unclosed " + close);
    const body = text.slice(at, end);
    at = end + close.length;
    return body;
  };
  while (at < text.length) {
    if (text[at] !== "<") {
      const end = text.indexOf("<", at) < 0 ? text.length : text.indexOf("<", at);
      const data = text.slice(at, end);
      if (node === doc) {
        if (data.trim()) throw new Error("text outside the root element");
      } else node.childNodes.push(new Text(decode(data, entities), node));
      at = end;
    } else if (text.startsWith("<?", at)) {
      skip("?>");
    } else if (text.startsWith("<!--", at)) {
      skip("-->");
    } else if (text.startsWith("<![CDATA[", at)) {
      at += 9;
      node.childNodes.push(new Text(skip("]]>"), node));
    } else if (text.startsWith("<!DOCTYPE", at)) {
      const open = text.indexOf("[", at),
        close = text.indexOf(">", at);
      let subset = "";
      if (open >= 0 && open < close) {
        at = open + 1;
        subset = skip("]");
      }
      for (const m of subset.matchAll(/<!ENTITY\s+([\w.-]+)\s+(?:"([^"]*)"|'([^']*)')\s*>/g)) {
        entities.set(m[1], m[2] !== undefined ? m[2] : m[3]);
      }
      skip(">");
    } else if (text.startsWith("</", at)) {
      at += 2;
      const name = skip(">").trim();
      if (node === doc || name !== node.tagName) throw new Error("mismatched </" + name + ">");
      scopes.pop();
      node = node.parentNode;
    } else {
      at += 1;
      const name = NAME.exec(text.slice(at));
      if (!name) throw new Error("a bad tag");
      at += name[0].length;
      const attributes = [];
      for (let m; (m = ATTRIBUTE.exec(text.slice(at))); at += m[0].length) {
        const value = decode(m[2] !== undefined ? m[2] : m[3], entities);
        attributes.push({ name: m[1], value });
      }
      const end = /^\s*(\/?)>/.exec(text.slice(at));
      if (!end) throw new Error("a bad tag " + name[0]);
      at += end[0].length;
      if (node === doc && doc.children.length) throw new Error("two root elements");
      const element = new Element(name[0], attributes, node);
      node.childNodes.push(element);
      const scope = resolve(element, scopes);
      if (!end[1]) {
        scopes.push(scope);
        node = element;
      }
    }
  }
  if (node !== doc || !doc.children.length) throw new Error("no complete root element");
  return doc;
}

export class DOMParser {
  parseFromString(text, type) {
    if (type !== "application/xml") throw new Error("only application/xml is read here");
    try {
      return parse(text);
    } catch (e) {
      const doc = new Document(null);
      const error = new Element("parsererror", [], doc);
      error.childNodes.push(new Text(e.message, error));
      doc.childNodes.push(error);
      return doc;
    }
  }
}
