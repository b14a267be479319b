import { el, setText } from './dom.js';

/** The stops of the server's colour ramp (render/colour-ramp.ts): viridis. */
const RAMP = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'];

const DESCRIPTIONS = {
  rgb: 'output: the image as it is',
  hillshade: 'output: hillshade of the terrain model',
  ramp: 'output: band 1, scaled to the run',
};

const formatValue = (v) => (Math.abs(v) >= 1000 || Number.isInteger(v) ? v.toFixed(0) : v.toPrecision(4));

/** How the output layer is drawn: the style, and for a ramp its colours and the run's range. */
export function createOutputLegend() {
  const text = el('p', { className: 'output-style', id: 'output-style' });
  const bar = el('div', { className: 'ramp-bar' });
  bar.style.background = `linear-gradient(to right, ${RAMP.join(', ')})`;
  const min = el('span', {});
  const max = el('span', {});
  const ramp = el(
    'div',
    { className: 'ramp', id: 'output-ramp' },
    bar,
    el('div', { className: 'ramp-ends' }, min, max),
  );
  const note = el('p', { className: 'legend-note', id: 'output-note' });
  const box = el('div', { className: 'output-legend' }, text, ramp, note);
  ramp.hidden = true;
  note.hidden = true;
  return {
    element: box,
    look(look) {
      setText(text, look ? (DESCRIPTIONS[look.style] ?? '') : '');
      ramp.hidden = !(look?.style === 'ramp' && look.range);
      if (look?.range) {
        setText(min, formatValue(look.range.min));
        setText(max, formatValue(look.range.max));
      }
    },
    note(message) {
      setText(note, message);
      note.hidden = !message;
    },
  };
}
