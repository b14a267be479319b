import type { PdalBench } from '../pdal-engines.js';
import { showSpread } from './stats.js';

/** The point-cloud rows of the table: each input's engines side by side, then the sizing check. */
export function pdalRows(p: PdalBench, older: string): string[] {
  const rows = p.inputs.map(
    (i) =>
      `| **point-cloud DTM, ${i.label}**: ${i.tiles} sub-tile${i.tiles === 1 ? '' : 's'} at zoom ${i.zoom}, one after the other as a worker makes them (extractor + \`pdal pipeline\`; extractor + \`gdal_grid\`)${older} | PDAL ${p.pdalVersion} ${showSpread(i.pdalSeconds)}: ${i.pdalPerTile} s per sub-tile, ${i.pdalPerMillion} s per million points; local engine ${showSpread(i.localSeconds)}: ${i.localPerTile} s per sub-tile, ${i.localPerMillion} s per million points | |`,
  );
  const s = p.sizing;
  const fits = s.metatileSeconds <= s.budgetSeconds;
  rows.push(
    `| the split's point-cloud sizing at its worst (the unclassified cloud above, every point read by every sub-tile, ground by SMRF)${older} | ${(s.measuredPointsPerSecond / 1e6).toFixed(2)} M points/s per sub-tile measured, ${(s.assumedPointsPerSecond / 1e6).toFixed(2)} M assumed; planned ${s.tilesPerMessage} sub-tile${s.tilesPerMessage === 1 ? '' : 's'} per message at ${s.predictedSecondsPerTile} s each, measured ${s.measuredSecondsPerTile} s: a metatile takes ${s.metatileSeconds} s, ${fits ? 'within' : '**over**'} the budget | ≤ ${s.budgetSeconds} s (a quarter of the 2-minute warning) |`,
  );
  return rows;
}
