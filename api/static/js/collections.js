// Collections (cards, value, breakdown, set progress) and want lists.
import * as api from './api.js';
import { bars, busy, clear, errorBox, field, formValues, h, money, notify, pct, placeLabel, signed, table } from './ui.js';

export async function collectionsView(root) {
  root.append(h('h1', {}, 'Collections'));
  const list = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'grid panel', 'aria-label': 'Create a collection' },
    field('New collection name', 'name', { required: true, maxlength: 200 }),
    field('Description', 'description'),
    h('div', {}, h('button', { type: 'submit' }, 'Create collection')));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const v = formValues(form);
    try {
      const c = await busy(form.querySelector('button'), () => api.createCollection(v.name, v.description));
      notify(`Created collection “${c.name}”.`, 'ok');
      location.hash = `#/collection/${c.id}`;
    } catch (e) { notify(errorText(e), 'error'); }
  });
  root.append(form, list);
  const cols = await api.allCollections();
  list.append(cols.length
    ? table(['Collection', 'Description'], cols.map((c) => h('tr', {},
      h('td', {}, h('a', { href: `#/collection/${c.id}` }, c.name || 'Untitled')), h('td', {}, c.description || '')),
    ), { caption: 'Your collections' })
    : h('p', { class: 'muted' }, 'No collections yet. Create one above, or add a card from the catalog or Identify.'));
  if (api.offers('GET', '/v1/lists/')) root.append(await wantLists());
}

function errorText(e) { return e.code ? `${e.message} (${e.code})` : String(e.message || e); }

async function wantLists() {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'wl-title' }, h('h2', { id: 'wl-title' }, 'Want lists'));
  const form = h('form', { class: 'grid', 'aria-label': 'Create a want list' },
    field('New want list name', 'name', { required: true, maxlength: 200 }),
    h('div', {}, h('button', { type: 'submit' }, 'Create want list')));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      const collector = await api.defaultCollector();
      const l = await api.post('/v1/lists/', { collectorId: collector.id, name: formValues(form).name });
      location.hash = `#/list/${l.id}`;
    } catch (e) { notify(errorText(e), 'error'); }
  });
  const page = await api.get('/v1/lists/', { take: 100 });
  panel.append(form, page.lists.length
    ? h('ul', {}, page.lists.map((l) => h('li', {}, h('a', { href: `#/list/${l.id}` }, l.name || 'Untitled'))))
    : h('p', { class: 'muted' }, 'No want lists yet.'));
  return panel;
}

/** Collection picker + one-click add, used by the card page and Identify. */
export function addToCollectionControl({ cardId, parallelId = null, gradeId = null, parallels = [] }) {
  const wrap = h('div', { class: 'add-to-collection' });
  const target = field('Collection', 'collection', { type: 'select', options: [['', 'Loading…']] });
  const newName = field('New collection name', 'newName', { value: 'My cards' });
  const variant = parallels.length ? field('Variant', 'parallelId', { type: 'select', value: parallelId || '',
    options: [['', 'Base card'], ...parallels.map((p) => [p.id, p.name])] }) : null;
  const select = target.querySelector('select');
  const sync = () => { newName.hidden = select.value !== '__new__'; };
  select.addEventListener('change', sync);
  const button = h('button', { type: 'button' }, 'Add to collection');
  const done = h('div', { 'aria-live': 'polite' });
  button.addEventListener('click', () => busy(button, async () => {
    clear(done);
    try {
      let id = select.value;
      let name = select.selectedOptions[0] ? select.selectedOptions[0].textContent : '';
      if (id === '__new__' || !id) {
        name = newName.querySelector('input').value.trim() || 'My cards';
        const c = await api.createCollection(name);
        id = c.id;
        select.insertBefore(h('option', { value: c.id }, name), select.lastChild);
        select.value = c.id;
        sync();
      }
      const item = { cardId, quantity: 1 };
      const par = variant ? variant.querySelector('select').value : parallelId;
      if (par) item.parallelId = par;
      if (gradeId) item.gradeId = gradeId;
      await api.post(`/v1/collection/${id}/cards`, item);
      done.append(h('p', { class: 'msg ok' }, 'Added to ', h('a', { href: `#/collection/${id}` }, name), '.'));
    } catch (e) { done.append(errorBox(e)); }
  }));
  api.allCollections().then((cols) => {
    clear(select).append(...cols.map((c) => h('option', { value: c.id }, c.name || 'Untitled')), h('option', { value: '__new__' }, 'New collection…'));
    sync();
  }).catch(() => { clear(select).append(h('option', { value: '__new__' }, 'New collection…')); sync(); });
  wrap.append(h('div', { class: 'row' }, target, variant, newName, h('div', { class: 'actions' }, button)), done);
  return wrap;
}

/** Catalog search that calls onPick(card) for a chosen result. */
function cardPicker(label, onPick) {
  const out = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'grid', role: 'search', 'aria-label': label },
    field('Card name', 'name', { required: true, type: 'search' }), field('Number', 'number'),
    h('div', {}, h('button', { type: 'submit', class: 'secondary' }, 'Find card')));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    clear(out);
    try {
      const page = await api.get('/v1/catalog/cards', { ...formValues(form), take: 10 });
      if (!page.cards.length) { out.append(h('p', { class: 'muted' }, 'No cards found.')); return; }
      out.append(h('ul', {}, page.cards.map((c) => h('li', { class: 'row' }, api.cardLabel(c),
        h('button', { type: 'button', class: 'secondary', 'aria-label': `Add ${api.cardLabel(c)}`,
          onclick: (e) => busy(e.currentTarget, () => onPick(c)) }, 'Add')))));
    } catch (e) { out.append(errorBox(e)); }
  });
  return h('div', {}, form, out);
}

export async function collectionView(root, id) {
  const col = await api.get(`/v1/collection/${id}`);
  root.append(h('p', {}, h('a', { href: '#/collections' }, '← All collections')), h('h1', {}, col.name || 'Untitled collection'));
  if (col.description) root.append(h('p', { class: 'muted' }, col.description));
  const summary = h('section', { 'aria-labelledby': 'value-title' }, h('h2', { id: 'value-title' }, 'Value at a glance'));
  const cards = h('section', { class: 'panel', 'aria-labelledby': 'cards-title' });
  const breakdown = h('section', { class: 'panel', 'aria-labelledby': 'bd-title' });
  const progress = h('section', { class: 'panel', 'aria-labelledby': 'sp-title' });
  root.append(summary, cards, breakdown, progress);
  const refresh = async () => {
    await Promise.all([analytics(summary, id), cardsPanel(cards, id, refresh), breakdownPanel(breakdown, id), progressPanel(progress, id)]);
  };
  await refresh();
}

async function analytics(panel, id) {
  const body = h('div', { class: 'tiles', id: 'analytics' });
  clear(panel).append(h('h2', { id: 'value-title' }, 'Value at a glance'), body);
  try {
    const a = await api.get(`/v1/collection/${id}/analytics`);
    const f = a.financials || {}; const o = a.overview || {}; const c = a.composition || {};
    const tile = (label, value, testid) => h('div', { class: 'tile', dataset: { metric: testid } },
      h('div', { class: 'label' }, label), h('div', { class: 'value' }, value));
    body.append(
      tile('Market value', money(f.currentMarketValue), 'currentMarketValue'),
      tile('Invested', money(f.totalInvested), 'totalInvested'),
      tile('Unrealized gains', signed(f.totalUnrealizedGains), 'totalUnrealizedGains'),
      tile('Realized gains', signed(f.totalRealizedGains), 'totalRealizedGains'),
      tile('Overall ROI', signed(f.overallROI, pct), 'overallROI'),
      tile('Cards', `${o.totalQuantity ?? 0} (${o.uniqueCards ?? 0} unique)`, 'totalQuantity'),
      tile('Graded / raw', `${c.gradedCount ?? 0} / ${c.rawCount ?? 0}`, 'graded'),
      tile('For sale / sold', `${c.forSaleCount ?? 0} / ${c.soldCount ?? 0}`, 'sales'));
    const top = a.performance && a.performance.topValue;
    if (top) panel.append(h('p', {}, 'Most valuable: ', h('a', { href: `#/card/${top.cardId}` }, top.cardName), ` (${money(top.currentValue)})`));
  } catch (e) { body.append(errorBox(e)); }
}

const EDITABLE = [['quantity', 'Quantity', 'number'], ['buyPrice', 'Buy price', 'text'], ['buyDate', 'Buy date', 'date'],
  ['sellPrice', 'Asking price', 'text'], ['soldPrice', 'Sold price', 'text'], ['soldDate', 'Sold date', 'date']];

async function cardsPanel(panel, id, refresh, skip = 0) {
  clear(panel).append(h('h2', { id: 'cards-title' }, 'Cards'));
  let page;
  try { page = await api.get(`/v1/collection/${id}/cards`, { take: 20, skip }); } catch (e) { panel.append(errorBox(e)); return; }
  const names = await Promise.all(page.cards.map((e) => api.card(e.cardId).catch(() => null)));
  const rows = [];
  page.cards.forEach((entry, i) => {
    const c = names[i];
    const par = c && entry.parallelId ? (c.parallels || []).find((p) => p.id === entry.parallelId) : null;
    const editRow = h('tr', { hidden: true }, h('td', { colspan: 6 }, editForm(id, entry, refresh)));
    rows.push(h('tr', {},
      h('td', {}, h('a', { href: `#/card/${entry.cardId}` }, c ? api.cardLabel(c) : 'Card not in the catalog'), par ? h('div', { class: 'muted' }, par.name) : null),
      h('td', { class: 'num' }, entry.quantity ?? 1), h('td', { class: 'num' }, money(entry.buyPrice)),
      h('td', { class: 'num hide-sm' }, money(entry.soldPrice)),
      h('td', {}, entry.soldPrice && entry.soldDate ? 'Sold' : entry.sellPrice ? `For sale ${money(entry.sellPrice)}` : 'Owned'),
      h('td', {}, h('button', { type: 'button', class: 'secondary', 'aria-expanded': 'false',
        'aria-label': `Edit ${c ? c.name : 'card'}`, onclick: (ev) => {
          editRow.hidden = !editRow.hidden;
          ev.currentTarget.setAttribute('aria-expanded', String(!editRow.hidden));
          if (!editRow.hidden) editRow.querySelector('input').focus();
        } }, 'Edit'))), editRow);
  });
  panel.append(page.cards.length ? table(['Card', '#Qty', '#Bought', '#Sold', 'Status', 'Actions'], rows, { caption: 'Cards in this collection' })
    : h('p', { class: 'muted', id: 'empty-collection' }, 'No cards yet.'));
  if (page.total_count > page.take) {
    panel.append(h('nav', { class: 'pager', 'aria-label': 'Card pages' },
      h('button', { type: 'button', class: 'secondary', disabled: skip <= 0, onclick: () => cardsPanel(panel, id, refresh, Math.max(0, skip - 20)) }, 'Previous'),
      h('span', {}, `${skip + 1}–${skip + page.cards.length} of ${page.total_count}`),
      h('button', { type: 'button', class: 'secondary', disabled: skip + page.cards.length >= page.total_count, onclick: () => cardsPanel(panel, id, refresh, skip + 20) }, 'Next')));
  }
  panel.append(h('h3', {}, 'Add a card'), cardPicker('Find a card to add', async (c) => {
    await api.post(`/v1/collection/${id}/cards`, { cardId: c.id, quantity: 1 });
    notify(`Added ${c.name}.`, 'ok');
    await refresh();
  }));
}

function editForm(id, entry, refresh) {
  const form = h('form', { class: 'grid', 'aria-label': 'Edit card' },
    EDITABLE.map(([k, label, type]) => field(label, k, { type, value: entry[k] ?? '', min: type === 'number' ? 1 : null,
      inputmode: type === 'text' ? 'decimal' : null, pattern: type === 'text' ? '\\d+(\\.\\d{1,2})?' : null })),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Save'),
      h('button', { type: 'button', class: 'danger', onclick: async () => {
        if (!window.confirm('Remove this card from the collection?')) return;
        try { await api.del(`/v1/collection/${id}/cards/${entry.id}`); notify('Card removed.', 'ok'); await refresh(); } catch (e) { notify(errorText(e), 'error'); }
      } }, 'Remove')));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const v = formValues(form);
    const body = {};
    for (const [k] of EDITABLE) {
      if (k === 'quantity') { if (v.quantity) body.quantity = Number(v.quantity); } else body[k] = v[k] ?? null; // empty clears
    }
    try { await busy(form.querySelector('button'), () => api.put(`/v1/collection/${id}/cards/${entry.id}`, body)); notify('Saved.', 'ok'); await refresh(); } catch (e) { notify(errorText(e), 'error'); }
  });
  return form;
}

async function breakdownPanel(panel, id) {
  const out = h('div', { 'aria-live': 'polite' });
  const group = field('Group by', 'groupBy', { type: 'select', value: panel.dataset.groupBy || 'release',
    options: [['release', 'Release'], ['year', 'Year'], ['grade', 'Grade'], ['player', 'Player'], ['manufacturer', 'Manufacturer']] });
  clear(panel).append(h('h2', { id: 'bd-title' }, 'Breakdown'), h('form', { class: 'grid' }, group), out);
  const load = async () => {
    panel.dataset.groupBy = group.querySelector('select').value;
    clear(out);
    try {
      const b = await api.get(`/v1/collection/${id}/breakdown`, { groupBy: panel.dataset.groupBy, take: 20 });
      if (!b.groups.length) { out.append(h('p', { class: 'muted' }, 'Nothing to break down yet.')); return; }
      const byValue = b.groups.some((g) => Number(g.totalCurrentValue) > 0);
      out.append(bars(b.groups.map((g) => ({ label: g.groupKey, value: byValue ? Number(g.totalCurrentValue) : g.cardCount,
        text: byValue ? `${money(g.totalCurrentValue)} · ${pct(g.percentageOfCollection)}` : `${g.cardCount} card(s)` })),
      { label: `Collection by ${panel.dataset.groupBy}` }));
    } catch (e) { out.append(errorBox(e)); }
  };
  group.querySelector('select').addEventListener('change', load);
  await load();
}

async function progressPanel(panel, id) {
  clear(panel).append(h('h2', { id: 'sp-title' }, 'Set progress'));
  try {
    const p = await api.get(`/v1/collection/${id}/set-progress`, { take: 20 });
    if (!p.sets.length) { panel.append(h('p', { class: 'muted' }, 'No sets started yet.')); return; }
    panel.append(h('p', { class: 'muted' }, `${p.summary.totalSets} set(s), ${p.summary.nearCompleteSets} nearly complete, ${p.summary.fullyCompleteSets} complete.`),
      bars(p.sets.map((st) => ({ label: placeLabel(st.releaseYear, st.releaseName, st.setName, ' '), value: st.completionPercentage,
        text: `${st.ownedCards}/${st.totalCards} · ${pct(st.completionPercentage)}` })), { max: 100, label: 'Set completion' }),
      ...p.sets.filter((st) => st.missingCards && st.missingCards.length).map(missingCards));
  } catch (e) { panel.append(errorBox(e)); }
}

const MISSING_SHOWN = 30;

/** A set's missing cards by name (looked up when opened; the API lists their ids). */
export function missingCards(st) {
  const list = h('ul', { class: 'missing' });
  const box = h('details', {}, h('summary', {}, `${st.missingCards.length} missing from ${placeLabel(st.releaseYear, st.releaseName, st.setName, ' ')}`), list);
  box.addEventListener('toggle', async () => {
    if (!box.open || list.dataset.loaded) return;
    list.dataset.loaded = '1';
    const ids = st.missingCards.slice(0, MISSING_SHOWN);
    const found = await Promise.all(ids.map((cid) => api.card(cid).catch(() => null)));
    list.append(...ids.map((cid, i) => h('li', {}, h('a', { href: `#/card/${cid}` }, found[i] ? cardName(found[i]) : 'Card not in the catalog'))));
    if (st.missingCards.length > MISSING_SHOWN) list.append(h('li', { class: 'muted' }, `and ${st.missingCards.length - MISSING_SHOWN} more`));
  });
  return box;
}

/** A card's name and number, for lists inside one set (the set is named above them). */
function cardName(c) {
  return `${c.name}${c.number ? ` #${c.number}` : ''}`;
}

export async function listView(root, id) {
  const list = await api.get(`/v1/lists/${id}`);
  root.append(h('p', {}, h('a', { href: '#/collections' }, '← Collections and want lists')), h('h1', {}, list.name || 'Want list'));
  const panel = h('section', { class: 'panel' });
  root.append(panel);
  const load = async () => {
    clear(panel);
    const page = await api.get(`/v1/lists/${id}/cards`, { take: 100 });
    const names = await Promise.all(page.cards.map((lc) => api.card(lc.cardId).catch(() => null)));
    panel.append(page.cards.length ? h('ul', {}, page.cards.map((lc, i) => h('li', { class: 'row' },
      h('a', { href: `#/card/${lc.cardId}` }, names[i] ? api.cardLabel(names[i]) : 'Card not in the catalog'),
      h('button', { type: 'button', class: 'link', 'aria-label': `Remove ${names[i] ? names[i].name : 'card'}`,
        onclick: async () => { try { await api.del(`/v1/lists/${id}/cards/${lc.id}`); await load(); } catch (e) { notify(errorText(e), 'error'); } } }, 'Remove'))))
      : h('p', { class: 'muted' }, 'This want list is empty.'),
    h('h2', {}, 'Add a card'), cardPicker('Find a card for the want list', async (c) => {
      try { await api.post(`/v1/lists/${id}/cards`, { cardId: c.id }); await load(); } catch (e) { notify(errorText(e), 'error'); }
    }));
  };
  await load();
}
