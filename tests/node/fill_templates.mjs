// The page script's template filler (docs/javascripts/kvcalc.js `fillTemplate` and the helpers it
// calls), run under Node on the fixtures tests/test_template_fillers.py gives the build-time filler
// (kvguide_macros/results.py `fill`), so the two fill rules are compared in `make test-core`.
//
//   node tests/node/fill_templates.mjs <cases.json> <filled.json>
//
// cases.json: {"templates": {name: tree}, "tables": {...}, "cases": [{"id", "name", "ctx"}]},
// a tree being {"tag", "attrs": [[name, value], ...], "children": [tree | {"text"} | {"raw"}]}
// (the templates as the build-time filler parsed them). filled.json: [{"id", "tree"}], same order.
//
// The functions are read out of kvcalc.js itself (the module runs the page when imported). They get
// a small DOM with just what they call: attributes in document order, element and text children,
// cloneNode, remove, replaceChildren, textContent. A chart is kept as its markup (the SVG sanitizer
// needs a real parser: the browser suite covers it).
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const [casesPath, outPath] = process.argv.slice(2)
if (!outPath) {
  console.error("usage: fill_templates.mjs <cases.json> <filled.json>")
  process.exit(2)
}
const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..")
const source = readFileSync(join(repo, "docs", "javascripts", "kvcalc.js"), "utf8")

/** The text of `function NAME(…) {…}` or `const NAME = …` (one line) in kvcalc.js, or an error. */
function extract(name) {
  const constMatch = new RegExp(`^const ${name} = .*$`, "m").exec(source)
  if (constMatch) return constMatch[0]
  const start = source.search(new RegExp(`^function ${name}\\(`, "m"))
  if (start < 0) throw new Error(`kvcalc.js has no function ${name}`)
  let depth = 0
  let quote = null
  for (let i = source.indexOf("{", start); i < source.length; i++) {
    const ch = source[i]
    if (quote) {
      if (ch === "\\") i++
      else if (ch === quote) quote = null
    } else if (ch === '"' || ch === "'" || ch === "`") quote = ch
    else if (ch === "{") depth++
    else if (ch === "}" && --depth === 0) return source.slice(start, i + 1)
  }
  throw new Error(`unbalanced braces in function ${name}`)
}

class Text {
  constructor(text) { this.text = text; this.parent = null }
  cloneNode() { return new Text(this.text) }
  toTree() { return { text: this.text } }
}

class Raw {
  constructor(markup) { this.markup = markup; this.parent = null }
  cloneNode() { return new Raw(this.markup) }
  toTree() { return { raw: this.markup } }
}

class Element {
  constructor(tag, attrs, childNodes) {
    this.tag = tag
    this.attrs = attrs.map(([k, v]) => [k, v])
    this.childNodes = []
    for (const child of childNodes) this.append(child)
  }
  append(child) { child.parent = this; this.childNodes.push(child) }
  get children() { return this.childNodes.filter(c => c instanceof Element) }
  get firstElementChild() { return this.children[0] ?? null }
  getAttribute(name) { return this.attrs.find(([k]) => k === name)?.[1] ?? null }
  hasAttribute(name) { return this.attrs.some(([k]) => k === name) }
  setAttribute(name, value) {
    const pair = this.attrs.find(([k]) => k === name)
    if (pair) pair[1] = String(value)
    else this.attrs.push([name, String(value)])
  }
  removeAttribute(name) { this.attrs = this.attrs.filter(([k]) => k !== name) }
  set textContent(text) {
    this.childNodes = []
    if (text !== "") this.append(new Text(String(text)))
  }
  replaceChildren(...nodes) {
    this.childNodes = []
    for (const node of nodes) this.append(node)
  }
  remove() {
    if (this.parent) this.parent.childNodes = this.parent.childNodes.filter(c => c !== this)
    this.parent = null
  }
  cloneNode() { return new Element(this.tag, this.attrs, this.childNodes.map(c => c.cloneNode())) }
  toTree() {
    return { tag: this.tag, attrs: this.attrs, children: this.childNodes.map(c => c.toTree()) }
  }
}

function build(tree) {
  if ("text" in tree) return new Text(tree.text)
  if ("raw" in tree) return new Raw(tree.raw)
  return new Element(tree.tag, tree.attrs, tree.children.map(build))
}

const SVG_NS = "http://www.w3.org/2000/svg"
/** The chart as one opaque node; `namespaceURI` says whether it is an SVG root. */
class DOMParser {
  parseFromString(markup) {
    const isSvg = /^\s*<svg\b[^>]*\bxmlns="http:\/\/www\.w3\.org\/2000\/svg"/.test(markup)
    const namespaceURI = isSvg ? SVG_NS : null
    const root = { markup, namespaceURI, attributes: [], querySelectorAll: () => [] }
    return { documentElement: root, getElementsByTagName: () => [] }
  }
}
const document = { importNode: root => new Raw(root.markup) }

const names = ["SLOT_ATTRIBUTES", "partition", "valueAt", "present", "slotText", "svgNode",
  "fillTemplate", "bindSlots"]
const fillTemplate = new Function("DOMParser", "document", "SVG_NS",
  `${names.map(extract).join("\n")}\nreturn fillTemplate`)(DOMParser, document, SVG_NS)

const { templates, tables, cases } = JSON.parse(readFileSync(casesPath, "utf8"))
const fragment = tree => build({ tag: "#fragment", attrs: [], children: [tree] })
const byName = new Map(Object.entries(templates).map(([n, t]) => [n, { content: fragment(t) }]))
const filled = cases.map(({ id, name, ctx }) =>
  ({ id, tree: fillTemplate(byName, tables, name, ctx).toTree() }))
writeFileSync(outPath, JSON.stringify(filled))
