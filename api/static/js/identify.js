// Identify: take or drop a photo, see each detected card outlined with its match, tier and suggestions.
import * as api from './api.js';
import { addToCollectionControl } from './collections.js';
import { clear, errorBox, field, h, placeLabel, printRun, s } from './ui.js';

export async function identifyView(root) {
  const out = h('div', { id: 'identify-results', 'aria-live': 'polite' });
  const input = h('input', { id: 'photo', name: 'image', type: 'file', accept: 'image/*', capture: 'environment' });
  const segments = api.offers('GET', '/v1/catalog/segments')
    ? await api.get('/v1/catalog/segments', { take: 100 }).then((p) => p.segments).catch(() => []) : [];
  const seg = field('Segment', 'segment', { type: 'select', value: '',
    options: [['', 'Any (detect the segment)'], ...segments.map((sg) => [sg.shortname || sg.name, sg.name])],
    hint: 'Choosing the segment makes identification more accurate.' });
  const drop = h('div', { class: 'drop' },
    h('p', {}, h('label', { for: 'photo' }, 'Take or choose a photo of your cards'), ' (JPEG, PNG, WebP or HEIC, up to 20 MB)'),
    input, h('p', { class: 'muted' }, 'On a computer you can also drop an image file here.'));
  const run = (file) => identify(file, seg.querySelector('select').value, out);
  input.addEventListener('change', () => { if (input.files[0]) run(input.files[0]); });
  drop.addEventListener('dragover', (ev) => { ev.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (ev) => {
    ev.preventDefault();
    drop.classList.remove('over');
    const file = [...ev.dataTransfer.files].find((f) => f.type.startsWith('image/')) || ev.dataTransfer.files[0];
    if (file) run(file);
  });
  root.append(h('h1', {}, 'Identify cards'), h('div', { class: 'panel' }, seg, drop), out);
}

async function identify(file, segment, out) {
  clear(out).append(h('p', { class: 'muted' }, `Identifying ${file.name || 'photo'}…`));
  const form = new FormData();
  form.append('image', file, file.name || 'photo.jpg');
  const path = segment ? `/v1/identify/card/${encodeURIComponent(segment)}` : '/v1/identify/card';
  let res;
  try { res = await api.request('POST', path, { body: form }); } catch (e) { clear(out).append(errorBox(e)); return; }
  const url = URL.createObjectURL(file);
  const detections = res.detections || [];
  clear(out);
  for (const m of res.messages || []) out.append(h('p', { class: `msg ${m.type === 'warning' ? 'error' : 'info'}` }, m.message));
  out.append(h('h2', {}, detections.length ? `${detections.length} card${detections.length === 1 ? '' : 's'} found` : 'No cards found in this photo'),
    photo(url, detections));
  if (!detections.length) {
    out.append(h('p', {}, 'Try a sharper photo with the whole card in view, on a plain background.'));
    return;
  }
  out.append(h('div', { class: 'detections' }, detections.map((d, i) => detectionCard(d, i + 1))),
    h('p', { class: 'muted' }, `Request ${res.requestId}${res.processingTime != null ? ` · ${Math.round(res.processingTime)} ms` : ''}`));
}

// The identify response may carry an outline per detection; the spec does not name it, so accept the usual shapes.
function outline(d) {
  const raw = d.box ?? d.bbox ?? d.boundingBox ?? d.corners ?? d.polygon ?? d.quad ?? d.location ?? (d.card && d.card.box);
  if (!raw) return null;
  const pt = (p) => (Array.isArray(p) ? [Number(p[0]), Number(p[1])] : [Number(p.x), Number(p.y)]);
  if (Array.isArray(raw) && raw.length >= 3 && typeof raw[0] === 'object') return raw.map(pt);
  if (Array.isArray(raw) && raw.length === 4) { const [x1, y1, x2, y2] = raw.map(Number); return [[x1, y1], [x2, y1], [x2, y2], [x1, y2]]; }
  if (raw && typeof raw === 'object') {
    const x = Number(raw.x ?? raw.left), y = Number(raw.y ?? raw.top);
    const w = Number(raw.width ?? raw.w ?? (raw.right - x)), ht = Number(raw.height ?? raw.h ?? (raw.bottom - y));
    if ([x, y, w, ht].every(Number.isFinite)) return [[x, y], [x + w, y], [x + w, y + ht], [x, y + ht]];
  }
  return null;
}

function photo(url, detections) {
  const img = h('img', { src: url, alt: `Your photo with ${detections.length} detected card(s) outlined` });
  const wrap = h('figure', { class: 'photo' }, img);
  const shapes = detections.map((d, i) => [outline(d), i + 1]).filter(([p]) => p && p.every((q) => q.every(Number.isFinite)));
  if (shapes.length) {
    img.addEventListener('load', () => {
      const W = img.naturalWidth, H = img.naturalHeight;
      const normalised = shapes.every(([p]) => p.every(([x, y]) => x <= 1.001 && y <= 1.001));
      const sc = normalised ? [W, H] : [1, 1];
      wrap.append(s('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', 'aria-hidden': 'true' },
        shapes.map(([p, n]) => {
          const pts = p.map(([x, y]) => [x * sc[0], y * sc[1]]);
          return s('g', {}, s('polygon', { points: pts.map((q) => q.join(',')).join(' ') }),
            s('text', { x: pts[0][0] + 8, y: pts[0][1] + Math.max(28, H / 20), 'font-size': Math.max(24, H / 20) }, String(n)));
        })));
    }, { once: true });
  }
  return wrap;
}

function detectionCard(d, n) {
  const c = d.card || {};
  const tier = d.confidence || 'Low';
  const title = c.id ? `${c.name || 'Card'}${c.number ? ` #${c.number}` : ''}` : c.setName ? `Set: ${c.setName}` : 'Not identified';
  const where = placeLabel(c.year, c.releaseName, c.setName);
  const grading = d.grading ? [d.grading.company && d.grading.company.name, d.grading.grade && d.grading.grade.value,
    d.grading.certNumber ? `cert ${d.grading.certNumber}` : null].filter(Boolean).join(' ') : null;
  const parallels = c.parallelSuggestions || [];
  const gradeId = d.grading && d.grading.grade && d.grading.grade.id;
  const canAdd = c.id && api.offers('POST', '/v1/collection/{collectionId}/cards');
  // a Low answer is a guess: shown as a possible match among its alternatives, added only once one is chosen
  const unsure = tier === 'Low' && c.id;
  return h('article', { class: 'panel detection', 'aria-labelledby': `det-${n}` },
    h('h3', { id: `det-${n}` }, `${n}. ${unsure ? 'Possible match: ' : ''}${title} `,
      h('span', { class: `tier tier-${tier}` }, unsure ? 'Low · not sure' : tier)),
    where ? h('p', { class: 'muted' }, where) : null,
    grading ? h('p', {}, `Graded slab: ${grading}`) : null,
    c.id ? h('p', {}, h('a', { href: `#/card/${c.id}` }, 'Open card page')) : h('p', { class: 'muted' },
      'Only the set could be matched; pick the exact card from the suggestions or the catalog.'),
    parallels.length ? [h('h4', {}, 'Possible parallels'), h('ul', {}, parallels.map((p) => h('li', {},
      `${p.name} (${printRun(p.numberedTo)})${p.confidence ? ` · ${p.confidence}` : ''}`)))] : null,
    unsure ? possibleMatch(c, n, canAdd, gradeId, parallels) : [
      canAdd ? addToCollectionControl({ cardId: c.id, gradeId, parallels }) : null,
      (c.suggestions || []).length ? [h('h4', {}, 'Other possible cards'), h('ul', {}, c.suggestions.map((sg) => h('li', {},
        h('a', { href: `#/card/${sg.id}` }, api.cardLabel(sg)))))] : null]);
}

// A Low answer: the match and its alternatives as choices; "Add to collection" appears only for the card chosen.
function possibleMatch(c, n, canAdd, gradeId, parallels) {
  const choices = [c, ...(c.suggestions || [])].filter((x) => x && x.id);
  const slot = h('div', { class: 'chosen', 'aria-live': 'polite' });
  const choose = (card) => {
    clear(slot);
    if (canAdd) slot.append(addToCollectionControl({ cardId: card.id, gradeId, parallels: card.id === c.id ? parallels : [] }));
  };
  return [
    h('p', { class: 'msg info' }, 'Not sure which card this is: compare it with these and choose the one you have.'),
    h('fieldset', { class: 'choices' }, h('legend', {}, 'Which card is it?'), choices.map((o, i) => h('label', { class: 'choice' },
      h('input', { type: 'radio', name: `pick-${n}`, value: o.id, onchange: () => choose(o) }),
      ` ${api.cardLabel(o)}${i === 0 ? ' (closest match)' : ''} `, h('a', { href: `#/card/${o.id}` }, 'open')))),
    slot];
}
