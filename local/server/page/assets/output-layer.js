/** Most output tiles drawn at once: zoomed far out, a run's tiles are too small to see anyway. */
const MAX_TILES = 600;
/** Failed renders of one tile retried on later polls before it is left alone. */
const RETRIES = 3;
/**
 * Images loading at once. A browser opens about six connections to a host; renders waiting for
 * GDAL must not hold them all, or the page's own API polls would wait behind them.
 */
const MAX_LOADING = 3;

/**
 * The run's output as an image layer: each DONE sub-tile drawn by the server as a PNG
 * (GET /api/runs/:id/render/z/x/y.png) at the run's zoom, scaled by Leaflet at other zooms.
 * Tiles appear as their sub-tiles are marked done; nothing is requested for the others.
 */
export function createOutputLayer(L, map, { onNote = () => {} } = {}) {
  const OutputGrid = L.GridLayer.extend({
    createTile(coords) {
      const img = document.createElement('img');
      img.alt = '';
      img.className = 'output-tile';
      img.setAttribute('role', 'presentation');
      const key = `${coords.z}/${coords.x}/${coords.y}`;
      const entry = { img, key, requested: false, failures: 0 };
      this.entries.set(key, entry);
      this.fill(entry);
      return img;
    },
    fill(entry) {
      if (entry.requested || entry.failures >= RETRIES || !this.ready(entry.key)) return;
      entry.requested = true;
      waiting.push({ grid: this, entry });
      pump();
    },
    load(entry) {
      loading += 1;
      const settle = (ok) => {
        loading -= 1;
        if (ok) entry.img.classList.add('loaded');
        else {
          // Busy (503) or not yet visible to the renderer: ask again on a later poll.
          entry.requested = false;
          entry.failures += 1;
        }
        pump();
      };
      entry.img.onload = () => settle(true);
      entry.img.onerror = () => settle(false);
      entry.img.src = `${this.base}/${entry.key}.png?v=${encodeURIComponent(this.version)}`;
    },
    // Leaflet walks every tile position of the view at the native zoom, in or out of the run:
    // zoomed far out from a high zoom that is billions. The walk is clipped to the run's
    // outline, and past MAX_TILES nothing is drawn (Leaflet 1.9 GridLayer internals).
    _getTiledPixelBounds(center) {
      const view = L.GridLayer.prototype._getTiledPixelBounds.call(this, center);
      const run = this.runPixels();
      if (!view.intersects(run)) return view;
      return L.bounds(
        [Math.max(view.min.x, run.min.x), Math.max(view.min.y, run.min.y)],
        [Math.min(view.max.x, run.max.x), Math.min(view.max.y, run.max.y)],
      );
    },
    _update(center) {
      if (!this._map || this._tileZoom === undefined) return;
      const view = L.GridLayer.prototype._getTiledPixelBounds.call(this, center ?? map.getCenter());
      const run = this.runPixels();
      const range = view.intersects(run)
        ? this._pxBoundsToTileRange(this._getTiledPixelBounds(center ?? map.getCenter()))
        : undefined;
      const count = range ? (range.max.x - range.min.x + 1) * (range.max.y - range.min.y + 1) : 0;
      const tooMany = count > MAX_TILES;
      onNote(tooMany ? `zoom in to see the output (${count.toLocaleString('en')} tiles in view)` : '');
      if (!range || tooMany) {
        this._removeAllTiles();
        return;
      }
      L.GridLayer.prototype._update.call(this, center);
    },
    /**
     * Whether a tile may be asked for: a base tile once its sub-tile is DONE; a pyramid's lower
     * tile (its state is not on the map) once the run has ended.
     */
    ready(key) {
      const z = Number(key.split('/')[0]);
      return z < this.baseZoom ? this.ended && this.lowerTiles.has(key) : this.stateOf(key) === 'DONE';
    },
    /** The run's outline in pixels at the tile zoom. */
    runPixels() {
      const b = this.options.bounds;
      return L.bounds(
        map.project(b.getNorthWest(), this._tileZoom),
        map.project(b.getSouthEast(), this._tileZoom),
      );
    },
  });

  const holder = L.layerGroup();
  let grid;
  let loading = 0;
  /** Tiles waiting for a connection, nearest the centre first (Leaflet creates them in that order). */
  let waiting = [];
  const pump = () => {
    while (loading < MAX_LOADING && waiting.length > 0) {
      const { grid: owner, entry } = waiting.shift();
      // Scrolled away, or another run shown meanwhile: not worth a request any more.
      if (owner === grid && owner.entries.get(entry.key) === entry) owner.load(entry);
      else entry.requested = false;
    }
  };

  return {
    /** Toggled by the layers control; keeps its place across runs. */
    layer: holder,
    /** A new run: its zoom, outline and how to know a tile's state (`z/x/y` → state). */
    show(runId, { zoom, minZoom, lowerTiles = new Set(), bounds, stateOf, version }) {
      holder.clearLayers();
      waiting = [];
      grid = new OutputGrid({
        pane: 'output',
        tileSize: 256,
        // A pyramid's levels are each drawn at their own zoom, the base scaled above it.
        minNativeZoom: minZoom ?? zoom,
        maxNativeZoom: zoom,
        maxZoom: 26,
        bounds,
        keepBuffer: 1,
        updateWhenZooming: false,
      });
      grid.entries = new Map();
      grid.stateOf = stateOf;
      grid.baseZoom = zoom;
      grid.lowerTiles = lowerTiles;
      grid.ended = false;
      grid.version = version;
      grid.base = `/api/runs/${encodeURIComponent(runId)}/render`;
      grid.on('tileunload', (e) => {
        const { x, y, z } = e.coords;
        grid.entries.delete(`${z}/${x}/${y}`);
      });
      holder.addLayer(grid);
    },
    /** The run has ended (or runs again): a pyramid's lower levels may be asked for. */
    setEnded(ended) {
      if (!grid || grid.ended === ended) return;
      grid.ended = ended;
      for (const entry of grid.entries.values()) grid.fill(entry);
    },
    /** After a states poll: draws the tiles that became DONE. */
    refresh() {
      if (!grid) return;
      for (const entry of grid.entries.values()) grid.fill(entry);
    },
    /** The run's look changed (a ramp re-scaled): every drawn tile is asked for again. */
    restyle(version) {
      if (!grid || grid.version === version) return;
      const first = grid.version === '';
      grid.version = version;
      // The first look known is the one the server drew with so far: nothing to redraw.
      if (first) return;
      for (const entry of grid.entries.values()) {
        entry.requested = false;
        entry.failures = 0;
        grid.fill(entry);
      }
    },
    clear() {
      holder.clearLayers();
      grid = undefined;
      waiting = [];
      onNote('');
    },
  };
}
