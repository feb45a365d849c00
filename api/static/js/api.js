// The only module that talks to the server. The API key lives in sessionStorage (this tab only).

import { placeLabel } from './ui.js';

const KEY = 'cardwise.apiKey';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const session = {
  get key() { return sessionStorage.getItem(KEY); },
  set key(v) { if (v) sessionStorage.setItem(KEY, v); else sessionStorage.removeItem(KEY); },
};

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((x) => q.append(k, x)); else q.append(k, v);
  }
  const text = q.toString();
  return text ? `?${text}` : '';
}

export async function request(method, path, { params = null, json = undefined, body = undefined, key = session.key, signIn = false } = {}) {
  const headers = { Accept: 'application/json' };
  if (key) headers['X-API-Key'] = key;
  let payload = body;
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(json);
  }
  let resp;
  try {
    resp = await fetch(path + query(params), { method, headers, body: payload, credentials: 'omit' });
  } catch (e) {
    throw new ApiError(0, 'NETWORK', 'Cannot reach the Cardwise server');
  }
  if (resp.status === 204) return null;
  let data = null;
  const text = await resp.text();
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!resp.ok) {
    const message = (data && data.error) || `${resp.status} ${resp.statusText}`;
    const err = new ApiError(resp.status, (data && data.code) || `HTTP_${resp.status}`, message);
    if (resp.status === 401 && key && !signIn) window.dispatchEvent(new CustomEvent('cardwise:unauthorized'));
    throw err;
  }
  return data;
}

export const get = (path, params) => request('GET', path, { params });
export const post = (path, json, params) => request('POST', path, { json, params });
export const put = (path, json) => request('PUT', path, { json });
export const del = (path) => request('DELETE', path);

/** Checks a key against GET /health/auth without storing it. */
export async function checkKey(key) {
  return request('GET', '/health/auth', { key, signIn: true });
}

// ---- which operations this server offers (from its public OpenAPI document) ----
let offered = null;
export async function loadCapabilities() {
  if (offered) return offered;
  try {
    const doc = await request('GET', '/openapi.json', { key: null });
    offered = new Set();
    for (const [path, ops] of Object.entries(doc.paths || {})) {
      for (const m of Object.keys(ops)) offered.add(`${m.toUpperCase()} ${path}`);
    }
  } catch {
    offered = new Set();
  }
  return offered;
}

/** True when the server offers METHOD PATH (path as in the OpenAPI document; trailing slash optional). */
export function offers(method, path) {
  if (!offered) return false;
  const alt = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
  return offered.has(`${method} ${path}`) || offered.has(`${method} ${alt}`);
}

// ---- small cache of catalog cards, so lists of ids show names ----
const cards = new Map();
export async function card(id) {
  if (!cards.has(id)) {
    cards.set(id, get(`/v1/catalog/cards/${encodeURIComponent(id)}`).catch((e) => { cards.delete(id); throw e; }));
  }
  return cards.get(id);
}

export function cardLabel(c) {
  if (!c) return 'Unknown card';
  const num = c.number ? ` #${c.number}` : '';
  const where = placeLabel(c.releaseYear, c.releaseName, c.setName);
  return `${c.name}${num}${where ? ` — ${where}` : ''}`;
}

// ---- collections need a collector; the console uses the key's first one (creating it once) ----
export async function defaultCollector() {
  const page = await get('/v1/collectors/', { take: 1 });
  if (page.collectors && page.collectors.length) return page.collectors[0];
  return post('/v1/collectors/', { name: 'Me' });
}

export async function createCollection(name, description) {
  const collector = await defaultCollector();
  return post('/v1/collection/', { collectorId: collector.id, name, description: description || undefined });
}

export async function allCollections() {
  const page = await get('/v1/collection/', { take: 100 });
  return page.collections || [];
}
