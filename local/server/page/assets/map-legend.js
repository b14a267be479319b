import { el, setText } from './dom.js';
import { TILE_STATES } from './tile-states.js';

/** The colour key of the sub-tile states with a count for each, and notes about what is shown. */
export function createMapLegend(L) {
  const counts = new Map();
  const note = el('p', { className: 'legend-note', id: 'map-note' });
  const grid = el('p', { className: 'legend-grid muted' });
  const shown = el('p', { className: 'legend-shown', id: 'map-shown' });
  const list = el(
    'ul',
    {},
    ...TILE_STATES.map((s) => {
      const count = el('span', { className: 'count', 'data-state': s.state }, '0');
      counts.set(s.state, count);
      const swatch = el('span', { className: 'swatch' });
      swatch.style.background = s.colour;
      return el('li', { title: s.label }, swatch, el('span', { className: 'name' }, s.state), count);
    }),
  );
  const box = el('div', { className: 'map-legend leaflet-bar' }, shown, list, note, grid);
  const Legend = L.Control.extend({ onAdd: () => box });

  return {
    control: new Legend({ position: 'topright' }),
    update({ counts: byState = {}, shown: n = 0, total = 0, note: text = '' }) {
      for (const [state, node] of counts) setText(node, (byState[state] ?? 0).toLocaleString('en'));
      setText(shown, `${n.toLocaleString('en')} of ${total.toLocaleString('en')} sub-tiles`);
      setText(note, text ?? '');
      note.hidden = !text;
    },
    gridStep(step) {
      setText(grid, `graticule every ${step}°`);
    },
  };
}
