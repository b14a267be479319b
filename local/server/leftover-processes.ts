import { processTable } from '../../lib/process/process-table.js';
import { isToolProcess } from '../../lib/process/tool-processes.js';

/** Emulator, worker and tool processes still running on this machine (for after a stop). */
export function leftoverProcessLines(): string[] {
  return processTable()
    .filter((p) => p.state !== 'Z' && p.pid !== process.pid)
    .filter((p) => isToolProcess(p) || /DynamoDBLocal|emulator-main|geohub-worker/.test(p.args))
    .map((p) => `${p.pid} ${p.args.slice(0, 120)}`);
}
