import { el } from './dom.js';

/** Candidate spacings in degrees, coarse to fine; the coarsest that still draws 3 lines across the view is used. */
const STEPS = [
  30, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 5e-4, 2e-4, 1e-4, 5e-5, 2e-5, 1e-5,
];
const MIN_LINES = 3;
/** Pixels kept free of labels: zoom buttons (top left), scale bar (bottom left), attribution (bottom right). */
const CLEAR_TOP = 80;
const CLEAR_LEFT = 110;
const CLEAR_BOTTOM = 40;
const CLEAR_RIGHT = 80;
/** The square Web Mercator world ends here (atan(sinh(π))). */
const MAX_LAT = 85.0511287798066;

const decimalsOf = (step) => Math.max(0, Math.ceil(-Math.log10(step)));

function label(value, step, positive, negative) {
  const hemisphere = value > 0 ? positive : value < 0 ? negative : '';
  return `${Math.abs(value).toFixed(decimalsOf(step))}°${hemisphere}`;
}

/**
 * A lon/lat graticule with labels on the left and bottom edges, redrawn at each move: there is
 * no basemap (no network), so this and the scale bar are what place the sub-tiles on Earth.
 */
export function addGraticule(L, map, onStep = () => {}) {
  const pane = map.createPane('graticule');
  pane.style.zIndex = '350';
  pane.style.pointerEvents = 'none';
  const renderer = L.svg({ pane: 'graticule' });
  const lines = L.layerGroup().addTo(map);
  const style = {
    renderer,
    pane: 'graticule',
    className: 'graticule',
    color: '#8a94a6',
    weight: 1,
    opacity: 0.6,
    interactive: false,
  };

  const draw = () => {
    lines.clearLayers();
    const b = map.getBounds();
    const west = Math.max(b.getWest(), -180);
    const east = Math.min(b.getEast(), 180);
    const south = Math.max(b.getSouth(), -MAX_LAT);
    const north = Math.min(b.getNorth(), MAX_LAT);
    if (!(east > west && north > south)) return;
    const span = Math.min(east - west, north - south);
    const step = STEPS.find((s) => span / s >= MIN_LINES) ?? STEPS.at(-1);
    const at = (lat, lng, text, className) => {
      const p = map.latLngToContainerPoint([lat, lng]);
      const bottom = map.getSize().y - CLEAR_BOTTOM;
      const right = map.getSize().x - CLEAR_RIGHT;
      if (className === 'graticule-lat' ? p.y < CLEAR_TOP || p.y > bottom : p.x < CLEAR_LEFT || p.x > right)
        return;
      L.marker([lat, lng], {
        pane: 'graticule',
        interactive: false,
        keyboard: false,
        icon: L.divIcon({
          className: `graticule-label ${className}`,
          html: el('span', {}, text),
          iconSize: null,
        }),
      }).addTo(lines);
    };
    for (let i = Math.ceil(west / step); i * step <= east; i += 1) {
      const lon = i * step;
      L.polyline(
        [
          [south, lon],
          [north, lon],
        ],
        style,
      ).addTo(lines);
      at(south, lon, label(lon, step, 'E', 'W'), 'graticule-lon');
    }
    for (let i = Math.ceil(south / step); i * step <= north; i += 1) {
      const lat = i * step;
      L.polyline(
        [
          [lat, west],
          [lat, east],
        ],
        style,
      ).addTo(lines);
      at(lat, west, label(lat, step, 'N', 'S'), 'graticule-lat');
    }
    onStep(step);
  };
  map.on('moveend zoomend resize', draw);
  map.whenReady(draw);
  return lines;
}
