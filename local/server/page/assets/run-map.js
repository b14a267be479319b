import { el } from './dom.js';
import { addGraticule } from './graticule.js';
import { createMapLegend } from './map-legend.js';
import { STATE_BY_CODE, STATE_BY_NAME } from './tile-states.js';

/** Above this many sub-tiles one SVG element each gets slow: draw on a canvas instead. */
const SVG_LIMIT = 3_000;

const styleOf = (state) => {
  const colour = STATE_BY_NAME.get(state)?.colour ?? '#000';
  return { color: colour, fillColor: colour, weight: 1, opacity: 0.9, fillOpacity: 0.55 };
};

function popupFor(tile, state) {
  return el(
    'div',
    { className: 'tile-popup' },
    el('strong', {}, `${tile.z}/${tile.x}/${tile.y}`),
    el('div', {}, state),
    el('div', { className: 'muted' }, `sub-tile ${tile.tileId}`),
  );
}

/**
 * The selected run's sub-tiles on their real footprint, coloured by state, over a plain
 * background with a graticule, a scale bar and the run's outline (no basemap: no network).
 * Geometry is loaded once per run; states are then applied by index on every poll.
 */
export function createRunMap(L, container) {
  const map = L.map(container, { zoomSnap: 0.25, minZoom: 1, maxZoom: 26, worldCopyJump: false });
  map.setView([20, 0], 2);
  map.attributionControl.setPrefix('Leaflet');
  L.control.scale({ imperial: false, position: 'bottomleft' }).addTo(map);
  const legend = createMapLegend(L);
  legend.control.addTo(map);
  addGraticule(L, map, (step) => legend.gridStep(step));
  // One renderer of each kind for the map's life: a renderer per run would pile up empty layers.
  const renderers = { svg: L.svg({ padding: 0.5 }), canvas: L.canvas({ padding: 0.5 }) };

  let group;
  let outline;
  let layers = [];
  let states = [];
  let loaded;

  const clear = () => {
    group?.remove();
    outline?.remove();
    map.closePopup();
    group = undefined;
    outline = undefined;
    layers = [];
    states = [];
    loaded = undefined;
  };

  return {
    map,
    /** What is drawn: the run and how many sub-tiles the geometry had (to know when to reload it). */
    get loaded() {
      return loaded;
    },
    show(runId, collection) {
      clear();
      loaded = { runId, shown: collection.shown, total: collection.total };
      const renderer = collection.features.length > SVG_LIMIT ? renderers.canvas : renderers.svg;
      container.dataset.renderer = renderer === renderers.svg ? 'svg' : 'canvas';
      group = L.featureGroup();
      for (const feature of collection.features) {
        const ring = feature.geometry.coordinates[0].slice(0, -1).map(([lon, lat]) => [lat, lon]);
        const state = feature.properties.state;
        const layer = L.polygon(ring, { renderer, className: 'subtile', ...styleOf(state) });
        layer.tile = feature.properties;
        layers.push(layer);
        states.push(state);
        group.addLayer(layer);
      }
      group.on('click', (e) => {
        const layer = e.propagatedFrom ?? e.layer;
        const i = layers.indexOf(layer);
        if (i >= 0) L.popup().setLatLng(e.latlng).setContent(popupFor(layer.tile, states[i])).openOn(map);
      });
      group.addTo(map);
      container.dataset.features = String(layers.length);
      container.dataset.runId = runId;
      legend.update(collection);
      if (layers.length > 0) {
        // The whole run's outline (bbox), which is larger than the drawn tiles past the cap.
        const [west, south, east, north] = collection.bbox ?? [];
        const bounds = collection.bbox ? L.latLngBounds([south, west], [north, east]) : group.getBounds();
        outline = L.rectangle(bounds, {
          renderer: renderers.svg,
          className: 'run-outline',
          color: '#1f2933',
          weight: 1.5,
          dashArray: '6 4',
          fill: false,
          interactive: false,
        }).addTo(map);
        // Clear of the zoom buttons (left) and the scale bar and labels (bottom), centred.
        map.fitBounds(bounds, { paddingTopLeft: [56, 24], paddingBottomRight: [56, 40] });
      }
    },
    /** Applies a tile-states poll: one letter per feature, in the geometry's order. */
    update(polled) {
      if (!loaded || polled.shown !== layers.length) return false;
      for (let i = 0; i < layers.length; i += 1) {
        const state = STATE_BY_CODE.get(polled.states[i])?.state ?? 'QUEUED';
        if (state !== states[i]) {
          states[i] = state;
          layers[i].setStyle(styleOf(state));
        }
      }
      legend.update(polled);
      return true;
    },
    empty(note) {
      clear();
      container.dataset.features = '0';
      delete container.dataset.runId;
      legend.update({ note });
    },
  };
}
