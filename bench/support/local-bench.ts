import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdapters } from '../../lib/adapters/create-adapters.js';
import type { AwsClients } from '../../lib/aws/clients.js';
import type { Ledger } from '../../lib/ledger/ledger.js';
import type { WorkQueue } from '../../lib/queue/work-queue.js';
import type { ObjectStore } from '../../lib/store/object-store.js';
import { type LocalStack, startLocalStack } from '../../local/stack/stack.js';

export const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Samples heap and RSS every 20 ms; `maxRSS` from the kernel catches what sampling misses. */
export function memoryProbe() {
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  sample();
  const timer = setInterval(sample, 20);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return {
        peakRssMiB: mib(peakRss),
        peakHeapUsedMiB: mib(peakHeap),
        processMaxRssMiB: mib(process.resourceUsage().maxRSS * 1024),
      };
    },
  };
}

export interface BenchStack {
  readonly stack: LocalStack;
  readonly clients: AwsClients;
  readonly store: ObjectStore;
  readonly ledger: Ledger;
  readonly queue: WorkQueue;
  readonly scratch: string;
}

/** A local stack of its own for one benchmark, with a scratch directory; both gone afterwards. */
export async function withBenchStack<T>(
  work: (b: BenchStack) => Promise<T>,
  options: { requestTimeoutMs?: number } = {},
): Promise<T> {
  // The SDK warns on Node 20 that it will need Node 22 from 2027: noise in the figures' output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const scratch = mkdtempSync(join(tmpdir(), 'geohub-bench-'));
  const stack = await startLocalStack();
  const adapters = createAdapters({
    ...stack.config,
    requestTimeoutMs: options.requestTimeoutMs ?? stack.config.requestTimeoutMs,
  });
  try {
    const { clients, store, ledger, queue } = adapters;
    return await work({ stack, clients, scratch, store, ledger, queue });
  } finally {
    adapters.destroy();
    await stack.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
