import { el } from './dom.js';

/**
 * Checkboxes that show and hide map layers, in the legend (Leaflet's layers control would cover
 * the map beside it). Each follows its layer, however it was added or removed.
 */
export function createLayerToggles(map, entries) {
  const items = entries.map(({ id, label, layer }) => {
    const box = el('input', { type: 'checkbox', id: `toggle-${id}` });
    box.checked = map.hasLayer(layer);
    box.addEventListener('change', () => (box.checked ? map.addLayer(layer) : map.removeLayer(layer)));
    layer.on('add remove', () => {
      box.checked = map.hasLayer(layer);
    });
    return el('li', {}, el('label', { for: `toggle-${id}` }, box, ` ${label}`));
  });
  return el('ul', { className: 'layer-toggles' }, ...items);
}
