// Catalog search and the card page (parallels, prices, price history, population).
import { card as getCard, get, offers } from './api.js';
import { addToCollectionControl } from './collections.js';
import { priceChart } from './chart.js';
import { bars, clear, errorBox, field, formValues, h, money, printRun, releaseLabel, table } from './ui.js';

const FILTERS = ['name', 'number', 'year', 'min_year', 'max_year', 'manufacturer', 'releaseName', 'setName',
  'attributeShortName', 'sort', 'order'];
let lastSearch = { take: 20, skip: 0 };

export async function catalogView(root) {
  const results = h('div', { id: 'results', 'aria-live': 'polite' });
  const v = lastSearch;
  const form = h('form', { class: 'grid panel', role: 'search', 'aria-label': 'Search the catalog' },
    field('Name (player or subject)', 'name', { value: v.name || '', type: 'search' }),
    field('Number', 'number', { value: v.number || '' }),
    field('Year', 'year', { value: v.year || '', inputmode: 'numeric', pattern: '\\d{4}' }),
    field('From year', 'min_year', { value: v.min_year || '', inputmode: 'numeric', pattern: '\\d{4}' }),
    field('To year', 'max_year', { value: v.max_year || '', inputmode: 'numeric', pattern: '\\d{4}' }),
    field('Manufacturer', 'manufacturer', { value: v.manufacturer || '' }),
    field('Release', 'releaseName', { value: v.releaseName || '' }),
    field('Set', 'setName', { value: v.setName || '' }),
    field('Attribute code', 'attributeShortName', { value: v.attributeShortName || '', hint: 'e.g. RC, AU' }),
    field('Sort by', 'sort', { type: 'select', value: v.sort || '', options: [['', 'Relevance'], ['name', 'Name'],
      ['release', 'Release'], ['set', 'Set'], ['year', 'Year'], ['price-raw', 'Raw price']] }),
    field('Order', 'order', { type: 'select', value: v.order || 'asc', options: [['asc', 'Ascending'], ['desc', 'Descending']] }),
    h('div', {}, h('button', { type: 'submit' }, 'Search')));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    lastSearch = { ...formValues(form), take: 20, skip: 0 };
    search(results);
  });
  root.append(h('h1', {}, 'Catalog'), form, results);
  if (FILTERS.some((k) => lastSearch[k])) await search(results);
}

async function search(out) {
  clear(out).append(h('p', { class: 'muted' }, 'Searching…'));
  let page;
  try { page = await get('/v1/catalog/cards', lastSearch); } catch (e) { clear(out).append(errorBox(e)); return; }
  clear(out);
  if (!page.cards.length) { out.append(h('p', {}, 'No cards match these filters.')); return; }
  out.append(h('h2', {}, `${page.total_count} card${page.total_count === 1 ? '' : 's'}`),
    table(['Card', 'Number', 'Set', 'Release', 'Year', '#Raw price'], page.cards.map((c) => h('tr', {},
      h('td', {}, h('a', { href: `#/card/${c.id}` }, c.name), (c.attributes || []).length ? ` ${c.attributes.join(' ')}` : ''),
      h('td', {}, c.number || '—'), h('td', {}, c.setName), h('td', {}, c.releaseName || '—'), h('td', {}, c.releaseYear || '—'),
      h('td', { class: 'num' }, money(c.prices && c.prices.raw)))), { caption: 'Matching cards' }),
    pager(page, out));
}

function pager(page, out) {
  const from = page.total_count ? page.skip + 1 : 0;
  const to = Math.min(page.skip + page.cards.length, page.total_count);
  const go = (skip) => { lastSearch = { ...lastSearch, skip }; search(out); };
  return h('nav', { class: 'pager', 'aria-label': 'Result pages' },
    h('button', { type: 'button', class: 'secondary', disabled: page.skip <= 0, onclick: () => go(Math.max(0, page.skip - page.take)) }, 'Previous'),
    h('span', {}, `${from}–${to} of ${page.total_count}`),
    h('button', { type: 'button', class: 'secondary', disabled: to >= page.total_count, onclick: () => go(page.skip + page.take) }, 'Next'));
}

export async function cardView(root, id) {
  const c = await getCard(id);
  root.append(h('p', {}, h('a', { href: '#/catalog' }, '← Back to search')),
    h('h1', {}, `${c.name}${c.number ? ` #${c.number}` : ''}`));
  const facts = h('dl', { class: 'facts' },
    h('dt', {}, 'Set'), h('dd', {}, c.setName),
    h('dt', {}, 'Release'), h('dd', {}, releaseLabel(c.releaseYear, c.releaseName) || '—'),
    c.description ? [h('dt', {}, 'Details'), h('dd', {}, c.description)] : null,
    (c.attributes || []).length ? [h('dt', {}, 'Attributes'), h('dd', {}, c.attributes.join(', '))] : null,
    c.numberedTo ? [h('dt', {}, 'Print run'), h('dd', {}, printRun(c.numberedTo))] : null,
    c.variationOf ? [h('dt', {}, 'Variation of'), h('dd', {}, h('a', { href: `#/card/${c.variationOf}` }, 'base card'))] : null);
  root.append(h('section', { class: 'panel', 'aria-label': 'Card details' }, facts,
    offers('POST', '/v1/collection/{collectionId}/cards') ? addToCollectionControl({ cardId: c.id, parallels: c.parallels || [] }) : null));

  root.append(h('section', { class: 'panel', 'aria-labelledby': 'par-title' },
    h('h2', { id: 'par-title' }, `Parallels (${c.parallelCount ?? (c.parallels || []).length})`),
    (c.parallels || []).length
      ? table(['Parallel', 'Print run', 'Scope', '#Raw price'], c.parallels.map((p) => h('tr', {},
        h('td', {}, p.name, p.description ? h('div', { class: 'muted' }, p.description) : null),
        h('td', {}, printRun(p.numberedTo)), h('td', {}, p.isPartial ? 'Some cards' : 'Whole set'),
        h('td', { class: 'num' }, money(p.prices && p.prices.raw)))), { caption: 'Parallels and print runs' })
      : h('p', { class: 'muted' }, 'This card has no parallels.')));

  root.append(pricesPanel(c));
  if (offers('GET', '/v1/pricing/{card_id}/timeseries')) root.append(historyPanel(c));
  if (offers('GET', '/v1/population/card/{card_id}')) root.append(populationPanel(c));
}

function pricesPanel(c) {
  const entries = Object.entries(c.prices || {});
  return h('section', { class: 'panel', 'aria-labelledby': 'price-title' }, h('h2', { id: 'price-title' }, 'Prices'),
    entries.length
      ? h('ul', { class: 'chips' }, entries.map(([k, v]) => h('li', { class: 'chip' }, `${k === 'raw' ? 'Raw' : k.toUpperCase()}: ${money(v)}`)))
      : h('p', { class: 'muted' }, 'No current prices for this card.'));
}

function historyPanel(c) {
  const out = h('div', { 'aria-live': 'polite' });
  const interval = field('Interval', 'interval', { type: 'select', value: 'weekly',
    options: [['daily', 'Daily (90 days)'], ['weekly', 'Weekly (52 weeks)'], ['monthly', 'Monthly (24 months)']] });
  const parallel = field('Variant', 'parallel_id', { type: 'select', value: 'null',
    options: [['null', 'Base card'], ['', 'All variants'], ...(c.parallels || []).map((p) => [p.id, p.name])] });
  const form = h('form', { class: 'grid' }, interval, parallel);
  const load = async () => {
    clear(out).append(h('p', { class: 'muted' }, 'Loading price history…'));
    try {
      const data = await get(`/v1/pricing/${c.id}/timeseries`, formValues(form));
      clear(out).append(priceChart(data.raw && data.raw.candles ? data.raw.candles : [], `${c.name} raw price history`));
    } catch (e) { clear(out).append(errorBox(e)); }
  };
  form.addEventListener('change', load);
  form.addEventListener('submit', (ev) => { ev.preventDefault(); load(); });
  load();
  return h('section', { class: 'panel', 'aria-labelledby': 'hist-title' }, h('h2', { id: 'hist-title' }, 'Price history'), form, out);
}

function populationPanel(c) {
  const out = h('div', {}, h('p', { class: 'muted' }, 'Loading population…'));
  (async () => {
    try {
      const pop = await get(`/v1/population/card/${c.id}`);
      clear(out);
      const groups = [];
      if (pop.base) groups.push(['Base', pop.base]);
      for (const p of pop.parallels || []) groups.push([p.parallel_name, p]);
      if (!groups.length) { out.append(h('p', { class: 'muted' }, 'No graded population reported for this card.')); return; }
      out.append(h('p', {}, `Total graded: ${pop.total_population}`));
      for (const [name, g] of groups) {
        for (const company of g.grading_companies || []) {
          for (const type of company.grading_types || []) {
            const items = (type.grades || []).filter((gr) => gr.population + gr.qualified_population > 0)
              .map((gr) => ({ label: `${company.name} ${gr.grade}`, value: gr.population + gr.qualified_population,
                text: String(gr.population + gr.qualified_population) }));
            if (!items.length) continue;
            out.append(h('h3', {}, `${name} · ${company.name} ${type.name} (${type.total_population})`),
              bars(items, { label: `${name} ${company.name} population by grade` }));
          }
        }
      }
    } catch (e) { clear(out).append(errorBox(e)); }
  })();
  return h('section', { class: 'panel', 'aria-labelledby': 'pop-title' }, h('h2', { id: 'pop-title' }, 'Population by grade'), out);
}
