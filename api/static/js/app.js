// Entry point: sign-in, navigation (hash routes) and the view table.
import { checkKey, loadCapabilities, offers, session } from './api.js';
import { clear, clearNotice, describe, h, notify } from './ui.js';
import { askView } from './ask.js';
import { cardView, catalogView } from './catalog.js';
import { collectionView, collectionsView, listView } from './collections.js';
import { identifyView } from './identify.js';
import { referenceView } from './reference.js';

const VIEWS = [
  [/^#\/catalog$/, catalogView, 'GET /v1/catalog/cards'],
  [/^#\/card\/([^/]+)$/, cardView, 'GET /v1/catalog/cards/{id}'],
  [/^#\/identify$/, identifyView, 'POST /v1/identify/card'],
  [/^#\/collections$/, collectionsView, 'GET /v1/collection/'],
  [/^#\/collection\/([^/]+)$/, collectionView, 'GET /v1/collection/{collectionId}'],
  [/^#\/list\/([^/]+)$/, listView, 'GET /v1/lists/{listId}'],
  [/^#\/ask$/, askView, 'POST /v1/ai/query'],
  [/^#\/reference$/, referenceView, null],
];

const main = () => document.getElementById('main');

const HOMES = [['#/catalog', 'GET /v1/catalog/cards'], ['#/collections', 'GET /v1/collection/'], ['#/reference', null]];

function homeHash() {
  const [hash] = HOMES.find(([, needs]) => !needs || offers(...needs.split(' ')));
  return hash;
}

function signinView(root) {
  const input = h('input', { id: 'api-key', name: 'key', type: 'password', autocomplete: 'off', required: true,
    spellcheck: 'false', 'aria-describedby': 'key-hint' });
  const err = h('div', { 'aria-live': 'assertive' });
  const form = h('form', { class: 'panel signin', 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title' }, 'Sign in to Cardwise'),
    h('label', { for: 'api-key' }, 'API key'), input,
    h('p', { id: 'key-hint', class: 'muted' }, 'No key yet? On the server run ', h('code', {}, 'cardwise keys create'),
      ' and paste the key it prints. The key stays in this browser tab only and is forgotten when you close it.'),
    err,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Sign in')));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clear(err);
    const key = input.value.trim();
    if (!key) return;
    const button = form.querySelector('button');
    button.disabled = true;
    try {
      await checkKey(key);
      session.key = key;
      notify('Signed in.', 'ok');
      if (!location.hash || location.hash === '#/' || location.hash === '#/signin') location.hash = homeHash();
      else render();
    } catch (e) {
      err.append(h('div', { class: 'msg error', role: 'alert' },
        e.status === 401 ? 'That key was not accepted: it is unknown or revoked.' : describe(e)));
      input.focus();
      input.select();
    } finally {
      button.disabled = false;
    }
  });
  root.append(form);
  input.focus();
}

function unavailable(root, needs) {
  root.append(h('h1', {}, 'Not available'),
    h('p', { class: 'msg info' }, `This server does not offer ${needs} yet, so this page is switched off.`));
}

function updateChrome(signedIn) {
  const nav = document.getElementById('nav');
  nav.hidden = !signedIn;
  document.getElementById('signout').hidden = !signedIn;
  for (const li of nav.querySelectorAll('li[data-needs]')) {
    const path = li.dataset.needs;
    li.hidden = !(offers('GET', path) || offers('POST', path));
  }
  const current = location.hash.split('/').slice(0, 2).join('/');
  const parent = { '#/card': '#/catalog', '#/collection': '#/collections', '#/list': '#/collections' }[current] || current;
  for (const a of nav.querySelectorAll('a')) {
    if (a.getAttribute('href') === parent) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
}

let renderSeq = 0;
async function render() {
  const seq = ++renderSeq;
  await loadCapabilities();
  const root = clear(main());
  const signedIn = Boolean(session.key);
  updateChrome(signedIn);
  if (!signedIn) {
    document.title = 'Sign in · Cardwise';
    signinView(root);
    return;
  }
  if (!location.hash || location.hash === '#/' || location.hash === '#/signin') {
    location.replace(homeHash());
    return;
  }
  const match = VIEWS.map(([re, view, needs]) => [location.hash.match(re), view, needs]).find(([m]) => m);
  if (!match) {
    root.append(h('h1', {}, 'Page not found'), h('p', {}, h('a', { href: homeHash() }, 'Go to the start page')));
    return;
  }
  const [m, view, needs] = match;
  if (needs && !offers(...needs.split(' '))) {
    unavailable(root, needs);
    return;
  }
  try {
    await view(root, ...m.slice(1).map(decodeURIComponent));
  } catch (e) {
    if (seq === renderSeq) root.append(h('div', { class: 'msg error', role: 'alert' }, describe(e)));
  }
  if (seq === renderSeq) {
    const title = root.querySelector('h1');
    document.title = `${title ? title.textContent : 'Cardwise'} · Cardwise`;
    if (document.activeElement === document.body || !root.contains(document.activeElement)) main().focus({ preventScroll: true });
  }
}

window.addEventListener('hashchange', () => { clearNotice(); render(); });
window.addEventListener('cardwise:unauthorized', () => {
  session.key = null;
  notify('Your API key was rejected (revoked or unknown). Sign in again.', 'error');
  render();
});
document.querySelector('.skip').addEventListener('click', (ev) => {
  ev.preventDefault(); // the hash is the router's; move focus instead
  main().focus();
});
document.getElementById('signout').addEventListener('click', () => {
  session.key = null;
  location.hash = '#/signin';
  render();
});
render();
