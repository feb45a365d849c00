// A minimal DOM and fetch for running the console's modules under node (tests/api/test_console_static.py).
class Node {
  constructor() { this.childNodes = []; this.parentNode = null; }
  get firstChild() { return this.childNodes[0] || null; }
  append(...nodes) {  // as the DOM does: anything but a node becomes text (an array would read "[object ...]")
    for (const n of nodes) {
      const node = n instanceof Node ? n : new Text(String(n));
      node.parentNode = this;
      this.childNodes.push(node);
    }
  }
  removeChild(n) { this.childNodes = this.childNodes.filter((c) => c !== n); return n; }
  get textContent() { return this.childNodes.map((c) => c.textContent).join(' '); }
}
class Text extends Node { constructor(t) { super(); this.text = t; } get textContent() { return this.text; } }
class Element extends Node {
  constructor(tag) { super(); this.tagName = tag; this.attrs = {}; this.dataset = {}; this.style = {}; this.listeners = {}; }
  setAttribute(k, v) { this.attrs[k] = v; }
  getAttribute(k) { return this.attrs[k]; }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  async dispatch(type) { for (const fn of this.listeners[type] || []) await fn({ preventDefault() {} }); }
  querySelector() { return null; }
}
globalThis.Node = Node;
globalThis.document = {
  createElement: (t) => new Element(t), createElementNS: (_, t) => new Element(t), createTextNode: (t) => new Text(t),
  getElementById: () => null,
};
globalThis.sessionStorage = { getItem: () => 'key', setItem() {}, removeItem() {} };
globalThis.window = { dispatchEvent() {}, addEventListener() {} };
export const calls = [];
/** Answer each GET from ``routes`` (path -> JSON body); anything else is a 404. */
export function serve(routes) {
  globalThis.fetch = async (url) => {
    const path = url.split('?')[0];
    calls.push(path);
    const body = routes[path];
    return { status: body ? 200 : 404, ok: !!body, statusText: '', text: async () => JSON.stringify(body || { error: 'no', code: 'NOT_FOUND' }) };
  };
}
export const el = (t) => new Element(t);
