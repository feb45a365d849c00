// A small inline-SVG price-history chart over timeseries candles, with a table for screen readers.
import { h, money, s, table } from './ui.js';

const W = 640, H = 220, L = 56, R = 12, T = 12, B = 28;

function stats(candle) {
  const t = candle.types || {};
  return t.auction || t.fixed || null; // completed sales first, asking prices when there are none
}

export function priceChart(candles, title) {
  const points = candles.map((c) => ({ date: c.period_start, st: stats(c) })).filter((p) => p.st);
  if (!points.length) return h('p', { class: 'muted' }, 'No sales in this period.');
  const lo = Math.min(...points.map((p) => p.st.low ?? p.st.median));
  const hi = Math.max(...points.map((p) => p.st.high ?? p.st.median));
  const span = hi - lo || Math.max(1, hi * 0.1);
  const x = (i) => L + (points.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (points.length - 1));
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / span);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.st.median).toFixed(1)}`).join(' ');
  const band = [...points.map((p, i) => `${x(i).toFixed(1)},${y(p.st.high ?? p.st.median).toFixed(1)}`),
    ...points.slice().reverse().map((p, j) => `${x(points.length - 1 - j).toFixed(1)},${y(p.st.low ?? p.st.median).toFixed(1)}`)].join(' ');
  const last = points[points.length - 1];
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${title}: median ${money(last.st.median)} in the latest period, range ${money(lo)} to ${money(hi)}` },
    s('title', {}, title),
    s('line', { class: 'axis', x1: L, y1: H - B, x2: W - R, y2: H - B }),
    s('line', { class: 'axis', x1: L, y1: T, x2: L, y2: H - B }),
    s('text', { x: L - 6, y: y(hi) + 4, 'text-anchor': 'end' }, money(hi)),
    s('text', { x: L - 6, y: y(lo) + 4, 'text-anchor': 'end' }, money(lo)),
    s('text', { x: L, y: H - 8 }, points[0].date),
    s('text', { x: W - R, y: H - 8, 'text-anchor': 'end' }, last.date),
    s('polygon', { class: 'range', points: band }),
    points.length > 1 ? s('polyline', { class: 'line', points: line }) : null,
    points.map((p, i) => s('circle', { cx: x(i), cy: y(p.st.median), r: 3, fill: '#1d4ed8' },
      s('title', {}, `${p.date}: median ${money(p.st.median)} (${p.st.count} sales)`))));
  const details = h('details', {}, h('summary', {}, 'Show the numbers'),
    table(['Period', '#Median', '#Low', '#High', '#Sales'], points.map((p) => h('tr', {}, h('td', {}, p.date),
      h('td', { class: 'num' }, money(p.st.median)), h('td', { class: 'num' }, money(p.st.low)),
      h('td', { class: 'num' }, money(p.st.high)), h('td', { class: 'num' }, p.st.count))), { caption: title }));
  return h('div', { class: 'chart' }, svg, h('p', { class: 'muted' }, 'Line: median price per period; band: low to high.'), details);
}
