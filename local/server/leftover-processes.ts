import { processTable } from '../../lib/process/process-table.js';

/** Emulator, worker and tool processes still running on this machine (for after a stop). */
export function leftoverProcessLines(): string[] {
  return processTable()
    .filter((p) => p.state !== 'Z' && p.pid !== process.pid)
    .filter((p) =>
      /DynamoDBLocal|emulator-main|geohub-worker|^gdal|geohub-pointclo/.test(`${p.command} ${p.args}`),
    )
    .map((p) => `${p.pid} ${p.args.slice(0, 120)}`);
}
