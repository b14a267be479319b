import { el } from './dom.js';
import { addGraticule } from './graticule.js';
import { createLayerToggles } from './layer-toggles.js';
import { createMapLegend } from './map-legend.js';
import { createOutputLayer } from './output-layer.js';
import { STATE_BY_CODE, STATE_BY_NAME } from './tile-states.js';
import { createWorldLayer } from './world-layer.js';

/** Above this many sub-tiles one SVG element each gets slow: draw on a canvas instead. */
const SVG_LIMIT = 3_000;

/**
 * A state's style. Over the output, a DONE sub-tile is only a faint outline (its imagery is the
 * news); the others stay filled, so work still to come reads at a glance.
 */
const styleOf = (state, outputShown) => {
  const colour = STATE_BY_NAME.get(state)?.colour ?? '#000';
  if (outputShown && state === 'DONE')
    return { color: colour, fillColor: colour, weight: 0.6, opacity: 0.45, fillOpacity: 0 };
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
 * The selected run on a map: its output drawn as images, the sub-tiles' states as a toggleable
 * overlay, over Natural Earth's coastlines and borders, a graticule and a scale bar (no basemap
 * service: nothing leaves this machine). Geometry is loaded once per run; states are then
 * applied by index on every poll.
 */
/** A pyramid's lower tiles (`z/x/y`), the parents of the base tiles shown, down to its lowest level. */
function lowerTilesOf(collection, zoom) {
  const keys = new Set();
  const minZoom = collection.levels?.minZoom ?? zoom;
  for (const { properties: t } of collection.features)
    for (let z = minZoom; z < zoom; z += 1) {
      const shift = 2 ** (zoom - z);
      keys.add(`${z}/${Math.floor(t.x / shift)}/${Math.floor(t.y / shift)}`);
    }
  return keys;
}

export function createRunMap(L, container) {
  const map = L.map(container, { zoomSnap: 0.25, minZoom: 1, maxZoom: 26, worldCopyJump: false });
  map.setView([20, 0], 2);
  map.attributionControl.setPrefix('Leaflet');
  map.attributionControl.addAttribution('Natural Earth');
  L.control.scale({ imperial: false, position: 'bottomleft' }).addTo(map);
  const legend = createMapLegend(L);
  legend.control.addTo(map);
  const outputPane = map.createPane('output');
  outputPane.style.zIndex = '300';
  const world = createWorldLayer(map);
  world.layer.addTo(map);
  const graticule = addGraticule(L, map, (step) => legend.gridStep(step));
  const output = createOutputLayer(L, map, { onNote: (text) => legend.outputNote(text) });
  output.layer.addTo(map);
  const statesLayer = L.layerGroup().addTo(map);
  legend.toggles(
    createLayerToggles(map, [
      { id: 'output', label: 'Output', layer: output.layer },
      { id: 'states', label: 'Sub-tile states', layer: statesLayer },
      { id: 'world', label: 'Coastlines and borders', layer: world.layer },
      { id: 'graticule', label: 'Graticule', layer: graticule },
    ]),
  );
  // One renderer of each kind for the map's life: a renderer per run would pile up empty layers.
  const renderers = { svg: L.svg({ padding: 0.5 }), canvas: L.canvas({ padding: 0.5 }) };

  let group;
  let outline;
  let layers = [];
  let states = [];
  /** `z/x/y` → index into layers/states, for the output layer. */
  let index = new Map();
  let loaded;
  const outputShown = () => map.hasLayer(output.layer);
  const restyleAll = () => {
    for (const [i, layer] of layers.entries()) layer.setStyle(styleOf(states[i], outputShown()));
  };
  output.layer.on('add remove', restyleAll);

  const clear = () => {
    group?.remove();
    outline?.remove();
    output.clear();
    map.closePopup();
    group = undefined;
    outline = undefined;
    layers = [];
    states = [];
    index = new Map();
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
      // The run's whole count (a pyramid's every level), as its counters say: what a reload follows.
      loaded = { runId, shown: collection.shown, total: collection.levels?.total ?? collection.total };
      const renderer = collection.features.length > SVG_LIMIT ? renderers.canvas : renderers.svg;
      container.dataset.renderer = renderer === renderers.svg ? 'svg' : 'canvas';
      group = L.featureGroup();
      for (const feature of collection.features) {
        const ring = feature.geometry.coordinates[0].slice(0, -1).map(([lon, lat]) => [lat, lon]);
        const state = feature.properties.state;
        const layer = L.polygon(ring, { renderer, className: 'subtile', ...styleOf(state, outputShown()) });
        layer.tile = feature.properties;
        const { z, x, y } = feature.properties;
        index.set(`${z}/${x}/${y}`, layers.length);
        layers.push(layer);
        states.push(state);
        group.addLayer(layer);
      }
      group.on('click', (e) => {
        const layer = e.propagatedFrom ?? e.layer;
        const i = layers.indexOf(layer);
        if (i >= 0) L.popup().setLatLng(e.latlng).setContent(popupFor(layer.tile, states[i])).openOn(map);
      });
      statesLayer.addLayer(group);
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
        const zoom = collection.features[0].properties.z;
        output.show(runId, {
          zoom,
          // A pyramid's lower levels, browsed at their own zooms once the run has made them: a
          // lower tile exists exactly where one of the base tiles under it does.
          minZoom: collection.levels?.minZoom,
          lowerTiles: lowerTilesOf(collection, zoom),
          bounds,
          version: '',
          stateOf: (key) => states[index.get(key)],
        });
        // Clear of the zoom buttons (left), the legend (right) and the scale bar and labels (bottom).
        map.fitBounds(bounds, { paddingTopLeft: [56, 24], paddingBottomRight: [legend.width() + 24, 40] });
      }
    },
    /** Applies a tile-states poll: one letter per feature, in the geometry's order. */
    update(polled) {
      if (!loaded || polled.shown !== layers.length) return false;
      for (let i = 0; i < layers.length; i += 1) {
        const state = STATE_BY_CODE.get(polled.states[i])?.state ?? 'QUEUED';
        if (state !== states[i]) {
          states[i] = state;
          layers[i].setStyle(styleOf(state, outputShown()));
        }
      }
      output.refresh();
      legend.update(polled);
      return true;
    },
    /**
     * The run's look (from its story), for the legend and the tiles. A ramp sampled while the run
     * ran is sampled again once it has ended: the tiles are asked for again then (render/run-looks.ts).
     */
    setLook(look, ended) {
      output.setEnded(ended);
      legend.look(look);
      if (look)
        output.restyle(
          `${look.style} ${look.range?.min ?? ''} ${look.range?.max ?? ''} ${ended ? 'ended' : ''}`,
        );
    },
    empty(note) {
      clear();
      container.dataset.features = '0';
      delete container.dataset.runId;
      legend.update({ note });
      legend.look(undefined);
    },
  };
}
