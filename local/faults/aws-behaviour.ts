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

export interface AwsBehaviour {
  /** Endpoints to give clients instead of the emulators'. */
  readonly endpoints: Readonly<Record<FaultService, string>>;
  counts(): FaultCounts;
  close(): Promise<void>;
}

export interface AwsBehaviourOptions {
  readonly emulators: Readonly<Record<FaultService, string>>;
  /** No rates: no faults, the layer only enforces IAM (the local stack's default). */
  readonly rates?: FaultRates;
  /** IAM per stand-in (local/iam/iam-gate.ts), before any fault. */
  readonly gates?: Readonly<Record<FaultService, IamGate>>;
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
export async function startAwsBehaviour(options: AwsBehaviourOptions): Promise<AwsBehaviour> {
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
  const services: FaultService[] = ['dynamodb', 's3', 'sqs'];
  const proxies: FaultProxy[] = [];
  try {
    for (const [i, service] of services.entries()) {
      const random = seededRandom((rates?.seed ?? 1) * 3 + i);
      proxies.push(
        await startFaultProxy({
          target: options.emulators[service],
          decide: deciders[service](random),
          latencyMs: rates?.latencyMs ?? 0,
          gate: options.gates?.[service],
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
    await Promise.all(proxies.map((p) => p.close()));
    throw error;
  }
  return {
    endpoints: { dynamodb: proxies[0]!.endpoint, s3: proxies[1]!.endpoint, sqs: proxies[2]!.endpoint },
    counts: () => structuredClone({ requests, injected }),
    close: async () => {
      await Promise.all(proxies.map((p) => p.close()));
    },
  };
}
