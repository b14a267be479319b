import type { IamGate } from '../iam/iam-gate.js';
import { dynamodbFaults } from './dynamodb-faults.js';
import { type FaultDecider, PASS } from './fault-decider.js';
import { type FaultProxy, startFaultProxy } from './fault-proxy.js';
import type { FaultRates } from './fault-rates.js';
import { FRONT_DOORS } from './front-door.js';
import { s3Faults } from './s3-faults.js';
import { seededRandom } from './seeded-random.js';
import { sqsFaults } from './sqs-faults.js';
import { sqsShortPoll } from './sqs-short-poll.js';

export type FaultService = 'dynamodb' | 's3' | 'sqs';

/** What the layer did: requests seen and errors injected, by service and kind. */
export interface FaultCounts {
  readonly requests: Readonly<Record<FaultService, number>>;
  readonly injected: Readonly<Record<FaultService, Readonly<Record<string, number>>>>;
}

export interface AwsBehaviour<S extends FaultService = FaultService> {
  /** Endpoints to give clients instead of the emulators'. */
  readonly endpoints: Readonly<Record<S, string>>;
  counts(): FaultCounts;
  close(): Promise<void>;
}

export interface AwsBehaviourOptions<S extends FaultService = FaultService> {
  /** The services to front (each emulator's endpoint): all three, or those up so far. */
  readonly emulators: Readonly<Record<S, string>>;
  /** No rates: no faults, the layer only enforces IAM (the local stack's default). */
  readonly rates?: FaultRates;
  /** IAM per stand-in (local/iam/iam-gate.ts), before any fault. */
  readonly gates?: Readonly<Record<S, IamGate>>;
  /** Key attribute names by table name. */
  readonly keyNames: Readonly<Record<string, readonly string[]>>;
  /** This start's access key ids (the stack's, each principal's): the proxies refuse any other before reading a body. */
  readonly keyIds: readonly string[];
}

/**
 * The AWS-behaviour layer of the local stack (docs/architecture.md, "Local stack"): one
 * proxy per emulator, each with its own seeded random stream so a seed replays the same
 * faults per service.
 */
export async function startAwsBehaviour<S extends FaultService>(
  options: AwsBehaviourOptions<S>,
): Promise<AwsBehaviour<S>> {
  const { rates } = options;
  const pass: FaultDecider = () => PASS;
  const requests: Record<FaultService, number> = { dynamodb: 0, s3: 0, sqs: 0 };
  const injected: Record<FaultService, Record<string, number>> = { dynamodb: {}, s3: {}, sqs: {} };
  const deciders: Record<FaultService, (random: () => number) => FaultDecider> = {
    dynamodb: (random) =>
      rates ? dynamodbFaults({ rates: rates.dynamodb, random, keyNames: options.keyNames }) : pass,
    s3: (random) => (rates ? s3Faults(rates.s3, random) : pass),
    sqs: (random) => {
      if (!rates) return pass;
      const shortPoll = sqsShortPoll(rates.sqs.emptyShortPoll, random);
      const failures = sqsFaults(rates.sqs, random);
      return (request) => {
        const verdict = failures(request);
        return verdict.inject ? verdict : shortPoll(request);
      };
    },
  };
  const proxies = new Map<S, FaultProxy>();
  try {
    // Each service its own stream, whichever services this layer fronts: a seed replays the same.
    for (const [i, service] of ALL.entries()) {
      if (!(service in options.emulators)) continue;
      const s = service as S;
      const random = seededRandom((rates?.seed ?? 1) * 3 + i);
      proxies.set(
        s,
        await startFaultProxy({
          target: options.emulators[s],
          decide: deciders[service](random),
          latencyMs: rates?.latencyMs ?? 0,
          gate: options.gates?.[s],
          versioned: service === 's3',
          random,
          door: { ...FRONT_DOORS[service], keyIds: options.keyIds },
          onRequest: () => {
            requests[service] += 1;
          },
          onInjected: (kind) => {
            injected[service][kind] = (injected[service][kind] ?? 0) + 1;
          },
        }),
      );
    }
  } catch (error) {
    await Promise.all([...proxies.values()].map((p) => p.close()));
    throw error;
  }
  return {
    endpoints: Object.fromEntries([...proxies].map(([s, p]) => [s, p.endpoint])) as Record<S, string>,
    counts: () => structuredClone({ requests, injected }),
    close: async () => {
      await Promise.all([...proxies.values()].map((p) => p.close()));
    },
  };
}

const ALL: readonly FaultService[] = ['dynamodb', 's3', 'sqs'];

/**
 * Two layers as one (the stack starts S3's in front of its stand-in first, then the others'):
 * their endpoints together, their counts added.
 */
export function joinBehaviours<A extends FaultService, B extends FaultService>(
  a: AwsBehaviour<A>,
  b: AwsBehaviour<B>,
): AwsBehaviour<A | B> {
  return {
    endpoints: { ...a.endpoints, ...b.endpoints } as Record<A | B, string>,
    counts: () => {
      const [x, y] = [a.counts(), b.counts()];
      const requests = Object.fromEntries(ALL.map((s) => [s, x.requests[s] + y.requests[s]]));
      const injected = Object.fromEntries(
        ALL.map((s) => {
          const kinds = new Set([...Object.keys(x.injected[s]), ...Object.keys(y.injected[s])]);
          return [
            s,
            Object.fromEntries([...kinds].map((k) => [k, (x.injected[s][k] ?? 0) + (y.injected[s][k] ?? 0)])),
          ];
        }),
      );
      return { requests, injected } as unknown as FaultCounts;
    },
    close: async () => {
      await Promise.all([a.close(), b.close()]);
    },
  };
}
