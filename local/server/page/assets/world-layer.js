const L = globalThis.L;
const topojson = globalThis.topojson;

/** Natural Earth's 1:10m countries (world-atlas on npm), served by this server: no tile service. */
const WORLD_URL = '/vendor/world-atlas/countries-10m.json';

/**
 * Land and country borders under everything else, so a run shows where on Earth it is. Loaded
 * once, drawn on a canvas (a quarter of a million vertices is too many for SVG).
 */
export function createWorldLayer(map) {
  const pane = map.createPane('world');
  pane.style.zIndex = '200';
  pane.style.pointerEvents = 'none';
  const holder = L.layerGroup();
  let loading;

  const load = () => {
    loading ??= fetch(WORLD_URL)
      .then((r) => {
        if (!r.ok) throw new Error(`${WORLD_URL}: ${r.status}`);
        return r.json();
      })
      .then((topology) => {
        const countries = topojson.feature(topology, topology.objects.countries);
        L.geoJSON(countries, {
          pane: 'world',
          renderer: L.canvas({ pane: 'world', padding: 0.2 }),
          interactive: false,
          style: { color: '#8d99a6', weight: 0.8, opacity: 0.9, fillColor: '#ece7dc', fillOpacity: 1 },
        }).addTo(holder);
        map.getContainer().dataset.world = 'loaded';
      })
      .catch((error) => {
        map.getContainer().dataset.world = `failed: ${error.message}`;
      });
    return loading;
  };

  holder.on('add', () => void load());
  return { layer: holder, load };
}
