import { el, setText } from './dom.js';
import { createOutputLegend } from './output-legend.js';
import { TILE_STATES } from './tile-states.js';

/** The colour key of the sub-tile states with a count for each, how the output is drawn, and notes. */
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
  const output = createOutputLegend();
  const toggles = el('div', { className: 'legend-toggles' });
  const box = el(
    'div',
    { className: 'map-legend leaflet-bar' },
    toggles,
    shown,
    list,
    note,
    output.element,
    grid,
  );
  // Clicks and scrolls in the legend are the legend's, not the map's.
  L.DomEvent.disableClickPropagation(box);
  L.DomEvent.disableScrollPropagation(box);
  const Legend = L.Control.extend({ onAdd: () => box });

  return {
    control: new Legend({ position: 'topright' }),
    update({ counts: byState = {}, shown: n = 0, total = 0, note: text = '' }) {
      for (const [state, node] of counts) setText(node, (byState[state] ?? 0).toLocaleString('en'));
      setText(shown, `${n.toLocaleString('en')} of ${total.toLocaleString('en')} sub-tiles`);
      setText(note, text ?? '');
      note.hidden = !text;
    },
    look: (look) => output.look(look),
    toggles: (element) => toggles.replaceChildren(element),
    /** The legend's width on screen, to keep the run clear of it. */
    width: () => box.offsetWidth,
    outputNote: (text) => output.note(text),
    gridStep(step) {
      setText(grid, `graticule every ${step}°`);
    },
  };
}
