import { formatDuration } from './format.js';

const SVG = 'http://www.w3.org/2000/svg';
const W = 320;
const H = 110;
const PAD = { left: 40, right: 10, top: 10, bottom: 22 };

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Sub-tiles done over time as a small SVG step chart (no chart library): x from the run's start
 * to its end (or now), y from 0 to the run's total, with a dashed line at the total.
 */
export function drawDoneChart(container, { progress, total, elapsedMs }) {
  const span = Math.max(elapsedMs, progress.at(-1)?.[0] ?? 0, 1);
  const top = Math.max(total, progress.at(-1)?.[1] ?? 0, 1);
  const x = (t) => PAD.left + (t / span) * (W - PAD.left - PAD.right);
  const y = (n) => H - PAD.bottom - (n / top) * (H - PAD.top - PAD.bottom);
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'done-chart', role: 'img' });
  chart.append(svg('title', {}, `sub-tiles done over time: ${progress.at(-1)?.[1] ?? 0} of ${total}`));
  chart.append(svg('line', { x1: PAD.left, y1: y(0), x2: W - PAD.right, y2: y(0), class: 'axis' }));
  chart.append(svg('line', { x1: PAD.left, y1: y(0), x2: PAD.left, y2: PAD.top, class: 'axis' }));
  chart.append(svg('line', { x1: PAD.left, y1: y(total), x2: W - PAD.right, y2: y(total), class: 'total' }));
  chart.append(svg('text', { x: PAD.left - 4, y: y(total) + 4, class: 'label end' }, String(total)));
  chart.append(svg('text', { x: PAD.left - 4, y: y(0) + 4, class: 'label end' }, '0'));
  chart.append(svg('text', { x: PAD.left, y: H - 6, class: 'label' }, '0 s'));
  chart.append(svg('text', { x: W - PAD.right, y: H - 6, class: 'label end' }, formatDuration(span)));
  let path = `M ${x(0)} ${y(0)}`;
  let last = 0;
  for (const [t, n] of progress) {
    path += ` H ${x(t).toFixed(1)} V ${y(n).toFixed(1)}`;
    last = n;
  }
  path += ` H ${x(elapsedMs).toFixed(1)}`;
  chart.append(svg('path', { d: path, class: 'curve' }));
  chart.dataset.done = String(last);
  container.replaceChildren(chart);
}
