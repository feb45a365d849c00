// Reference data: catalog segments and grading companies > types > grades.
import { get, offers } from './api.js';
import { clear, errorBox, field, formValues, h, table } from './ui.js';

export async function referenceView(root) {
  root.append(h('h1', {}, 'Reference data'));
  const segPanel = h('section', { class: 'panel', 'aria-labelledby': 'seg-title' }, h('h2', { id: 'seg-title' }, 'Segments'));
  const gradePanel = h('section', { class: 'panel', 'aria-labelledby': 'grades-title' }, h('h2', { id: 'grades-title' }, 'Grading companies'));
  root.append(segPanel, gradePanel);
  if (offers('GET', '/v1/catalog/segments')) segments(segPanel);
  await companies(gradePanel);
}

function segments(panel) {
  const out = h('div', { id: 'segments', 'aria-live': 'polite' });
  const form = h('form', { class: 'grid', role: 'search', 'aria-label': 'Filter segments' },
    field('Name', 'name'),
    field('Identifiable', 'is_identifiable', { type: 'select', options: [['', 'Any'], ['true', 'Yes'], ['false', 'No']] }),
    h('div', {}, h('button', { type: 'submit' }, 'Filter')));
  const load = async () => {
    clear(out);
    try {
      const page = await get('/v1/catalog/segments', { take: 100, ...formValues(form) });
      if (!page.segments.length) { out.append(h('p', { class: 'muted' }, 'No segments match.')); return; }
      out.append(h('p', { class: 'muted' }, `${page.total_count} segment(s)`), table(['Name', 'Short code', 'Identifiable'],
        page.segments.map((sg) => h('tr', {}, h('td', {}, sg.name), h('td', {}, sg.shortname || '—'), h('td', {}, sg.is_identifiable ? 'Yes' : 'No'))),
        { caption: 'Segments' }));
    } catch (e) { out.append(errorBox(e)); }
  };
  form.addEventListener('submit', (ev) => { ev.preventDefault(); load(); });
  panel.append(form, out);
  load();
}

async function companies(panel) {
  const detail = h('div', { 'aria-live': 'polite' });
  let page;
  try { page = await get('/v1/grades/companies'); } catch (e) { panel.append(errorBox(e)); return; }
  const list = h('ul', { class: 'chips', 'aria-label': 'Grading companies' }, page.companies.map((c) =>
    h('li', {}, h('button', { type: 'button', class: 'secondary', 'aria-pressed': 'false',
      onclick: (ev) => { select(list, ev.currentTarget); types(detail, c); } }, c.abbreviation || c.name))));
  panel.append(h('p', { class: 'muted' }, `${page.total} companies. Choose one to see its grading types and grades.`), list, detail);
}

function select(list, button) {
  for (const b of list.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b === button));
}

async function types(out, company) {
  clear(out).append(h('h3', {}, company.name));
  if (company.description) out.append(h('p', { class: 'muted' }, company.description));
  try {
    const page = await get(`/v1/grades/companies/${company.id}/types`);
    const typeList = h('ul', { class: 'chips', 'aria-label': `${company.name} grading types` });
    const gradesOut = h('div');
    for (const t of page.types) {
      typeList.append(h('li', {}, h('button', { type: 'button', class: 'secondary', 'aria-pressed': 'false',
        onclick: (ev) => { select(typeList, ev.currentTarget); grades(gradesOut, company, t); } }, t.name)));
    }
    out.append(typeList, gradesOut);
    const first = typeList.querySelector('button');
    if (first) first.click();
  } catch (e) { out.append(errorBox(e)); }
}

async function grades(out, company, type) {
  clear(out);
  try {
    const page = await get(`/v1/grades/companies/${company.id}/types/${type.id}/grades`);
    out.append(table(['Grade', 'Condition'], page.grades.map((g) => h('tr', {}, h('td', {}, g.grade), h('td', {}, g.condition || '—'))),
      { caption: `${company.name} ${type.name} grades` }));
  } catch (e) { out.append(errorBox(e)); }
}
