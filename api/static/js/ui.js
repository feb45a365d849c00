// Small DOM helpers. Everything from the API goes in as text nodes, never as HTML.

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'style') node.style.cssText = v; // CSSOM: allowed under the console's CSP
    else if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (v === true) node.setAttribute(k, '');
    else node.setAttribute(k, String(v));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

const SVG = 'http://www.w3.org/2000/svg';
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  append(node, children);
  return node;
}

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

let fieldSeq = 0;
/** A labelled form field. type 'select' takes options [[value, text], ...]. */
export function field(label, name, { type = 'text', value = '', options = null, required = false, hint = null, ...rest } = {}) {
  const id = `f-${name}-${++fieldSeq}`;
  let input;
  if (type === 'select') {
    input = h('select', { id, name, required, ...rest },
      options.map(([v, t]) => h('option', { value: v, selected: String(v) === String(value) }, t)));
  } else if (type === 'textarea') {
    input = h('textarea', { id, name, required, ...rest }, value);
  } else {
    input = h('input', { id, name, type, value, required, 'aria-describedby': hint ? `${id}-hint` : null, ...rest });
  }
  return h('div', { class: 'field' }, h('label', { for: id }, label), input,
    hint ? h('div', { id: `${id}-hint`, class: 'muted' }, hint) : null);
}

export function formValues(form) {
  const out = {};
  for (const [k, v] of new FormData(form).entries()) if (typeof v === 'string' && v.trim() !== '') out[k] = v.trim();
  return out;
}

/** Announce a message in the status region (polite live region). kind: info | ok | error. */
export function notify(text, kind = 'info') {
  const region = document.getElementById('status');
  clear(region).append(h('div', { class: `msg ${kind}` }, text));
  if (kind !== 'error') setTimeout(() => { if (region.textContent === text) clear(region); }, 6000);
}
export function clearNotice() { clear(document.getElementById('status')); }

export function errorBox(err) {
  return h('div', { class: 'msg error', role: 'alert' }, describe(err));
}

export function describe(err) {
  if (err && err.status === 0) return 'Cannot reach the Cardwise server. Check that it is running.';
  if (err && err.code) return `${err.message} (${err.code})`;
  return String(err && err.message ? err.message : err);
}

export function money(v) {
  if (v === null || v === undefined || v === '') return '—';
  const n = Number(v);
  if (Number.isNaN(n)) return String(v);
  return n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

export function pct(v) {
  if (v === null || v === undefined) return '—';
  return `${Number(v).toFixed(1)}%`;
}

export function signed(v, fmt = money) {
  if (v === null || v === undefined || v === '') return h('span', {}, '—');
  const n = Number(v);
  return h('span', { class: n > 0 ? 'gain' : n < 0 ? 'loss' : '' }, `${n > 0 ? '+' : ''}${fmt(v)}`);
}

/** "2024 Topps Chrome" stays as is; "Base Set" from 1999 becomes "1999 Base Set". */
export function releaseLabel(year, name) {
  if (!name) return year || '';
  return year && !String(name).startsWith(String(year)) ? `${year} ${name}` : name;
}

/** Release and set named once: "1999 Base Set" (TCGdex and the demo name a release's one set after it),
 *  "2024 Topps Chrome · Base"; ``sep`` joins the two when both are shown. */
export function placeLabel(year, releaseName, setName, sep = ' · ') {
  const release = releaseLabel(year, releaseName);
  const same = (a, b) => String(a || '').trim().toLowerCase() === String(b || '').trim().toLowerCase();
  if (!setName || same(setName, releaseName) || same(setName, release)) return release || setName || '';
  return release ? `${release}${sep}${setName}` : setName;
}

export function printRun(numberedTo) {
  return numberedTo ? `/${numberedTo}` : 'unlimited';
}

/** A busy state on a button while an async action runs. */
export async function busy(button, fn) {
  const label = button.textContent;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  try { return await fn(); } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = label;
  }
}

/** Horizontal bars: items [{label, value, text}] scaled to max (or to 100 when percent). */
export function bars(items, { max = null, label = 'Chart' } = {}) {
  const top = max ?? Math.max(1, ...items.map((i) => Number(i.value) || 0));
  return h('ul', { class: 'bars', 'aria-label': label }, items.map((i) => {
    const w = Math.max(0, Math.min(100, ((Number(i.value) || 0) / top) * 100));
    return h('li', {}, h('span', {}, i.label),
      h('div', { class: 'bar', role: 'img', 'aria-label': `${i.label}: ${i.text}` }, h('span', { style: `width:${w.toFixed(1)}%` })),
      h('span', { class: 'num' }, i.text));
  }));
}

export function table(headers, rows, { caption = null } = {}) {
  return h('div', { class: 'table-wrap' }, h('table', {},
    caption ? h('caption', { class: 'visually-hidden' }, caption) : null,
    h('thead', {}, h('tr', {}, headers.map((t) => h('th', { scope: 'col', class: t.startsWith('#') ? 'num' : null }, t.replace(/^#/, ''))))),
    h('tbody', {}, rows)));
}
