import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Env } from '../lib/config/config.js';
import { ConfigError } from '../lib/config/errors.js';
import { zodProblems } from '../lib/model/zod-problems.js';
import { FAULT_PATTERN } from './faults.js';
import { DEFAULT_GDAL_PYTHON } from './metatile-command.js';

const ms = z.coerce.number().int().min(0);

/**
 * `auto`'s limit: a source up to this size is downloaded once per worker and run, a larger one
 * read by ranges. 64 MiB is a second or less from S3 to a Fargate task, and no more scratch than a
 * few metatiles' tiles.
 */
export const DEFAULT_SOURCE_CACHE_MAX_BYTES = 64 * 1024 * 1024;

const schema = z.object({
  GEOHUB_WORKER_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,128}$/)
    .optional(),
  GEOHUB_SCRATCH_DIR: z.string().min(1).default(join(tmpdir(), 'geohub-scratch')),
  GEOHUB_TOOL_TIMEOUT_MS: ms.default(100_000),
  GEOHUB_KILL_GRACE_MS: ms.default(10_000),
  GEOHUB_STOP_GRACE_MS: ms.default(120_000),
  GEOHUB_LEASE_MS: ms.min(3_000).default(60_000),
  GEOHUB_RUN_WATCH_MS: ms.min(50).default(500),
  GEOHUB_RECEIVE_WAIT_S: z.coerce.number().int().min(0).max(20).default(20),
  GEOHUB_RETRY_DELAY_S: z.coerce.number().int().min(0).max(43_200).default(10),
  GEOHUB_IDLE_EXIT_MS: ms.optional(),
  GEOHUB_COUNT_REQUESTS: z.enum(['0', '1']).default('0'),
  GEOHUB_ORPHAN_AGE_S: z.coerce.number().int().min(1).optional(),
  GEOHUB_SOURCE_ACCESS: z.enum(['auto', 'ranged', 'cached']).default('auto'),
  GEOHUB_SOURCE_CACHE_MAX_BYTES: z.coerce.number().int().min(0).default(DEFAULT_SOURCE_CACHE_MAX_BYTES),
  GEOHUB_FAULT: z.string().regex(FAULT_PATTERN).optional(),
  GEOHUB_GDAL_PYTHON: z.string().min(1).default(DEFAULT_GDAL_PYTHON),
  GEOHUB_OUTPUT_MIRROR_DIR: z.string().min(1).optional(),
  GEOHUB_OUTPUT_MIRROR_PER_RUN: z.enum(['0', '1']).default('0'),
});

export interface WorkerConfig {
  readonly workerId: string;
  readonly scratchDir: string;
  /** Budget of one tool invocation. */
  readonly toolTimeoutMs: number;
  /** SIGTERM → SIGKILL for the tool's process group. */
  readonly killGraceMs: number;
  /** Time between SIGTERM to the worker and SIGKILL (ECS stopTimeout). */
  readonly stopGraceMs: number;
  /** Lease on a sub-tile and visibility of its message, both extended by heartbeats. */
  readonly leaseMs: number;
  /** How often a running sub-tile's run status is checked (cancel latency). */
  readonly runWatchMs: number;
  readonly receiveWaitSeconds: number;
  /** Visibility before a retryable failure is tried again. */
  readonly retryDelaySeconds: number;
  /** Exit 0 after this long without work (tests, scale to zero); unset = never. */
  readonly idleExitMs?: number;
  /** `auto`: a local copy of a source up to `sourceCacheMaxBytes`, ranged GETs for a larger one. */
  readonly sourceAccess: 'auto' | 'ranged' | 'cached';
  readonly sourceCacheMaxBytes: number;
  /** `geohub run` only: where each uploaded tile is also left for its copy into --out (lib/output/output-mirror.ts). */
  readonly outputMirrorDir?: string;
  /** Mirror a run only into its own directory of the mirror, when made (lib/output/output-mirror.ts). */
  readonly outputMirrorPerRun: boolean;
  /** A GDAL/PDAL process older than this is an orphan (default: the longest budget plus a margin). */
  readonly orphanAgeSeconds: number;
  /** Log the AWS requests this worker made, by service and command, when it exits (benchmarks). */
  readonly countRequests: boolean;
  /** The Python interpreter with GDAL's bindings that runs the metatile engine. */
  readonly gdalPython: string;
  /** Fault injection for reliability tests (see faults.ts); unset in production. */
  readonly fault?: string;
}

export function loadWorkerConfig(env: Env = process.env): WorkerConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(`invalid worker configuration: ${zodProblems(parsed.error)}`, {
      cause: parsed.error,
    });
  }
  const e = parsed.data;
  return {
    workerId: e.GEOHUB_WORKER_ID ?? `${hostname()}-${process.pid}`,
    scratchDir: e.GEOHUB_SCRATCH_DIR,
    toolTimeoutMs: e.GEOHUB_TOOL_TIMEOUT_MS,
    killGraceMs: e.GEOHUB_KILL_GRACE_MS,
    stopGraceMs: e.GEOHUB_STOP_GRACE_MS,
    leaseMs: e.GEOHUB_LEASE_MS,
    runWatchMs: e.GEOHUB_RUN_WATCH_MS,
    // A long poll is never aborted at a SIGTERM (worker-loop.ts): it must end by itself inside
    // the stop grace, so a short grace shortens it.
    receiveWaitSeconds: Math.min(e.GEOHUB_RECEIVE_WAIT_S, Math.floor(e.GEOHUB_STOP_GRACE_MS / 2_000)),
    retryDelaySeconds: e.GEOHUB_RETRY_DELAY_S,
    idleExitMs: e.GEOHUB_IDLE_EXIT_MS,
    sourceAccess: e.GEOHUB_SOURCE_ACCESS,
    sourceCacheMaxBytes: e.GEOHUB_SOURCE_CACHE_MAX_BYTES,
    outputMirrorDir: e.GEOHUB_OUTPUT_MIRROR_DIR,
    outputMirrorPerRun: e.GEOHUB_OUTPUT_MIRROR_PER_RUN === '1',
    fault: e.GEOHUB_FAULT,
    gdalPython: e.GEOHUB_GDAL_PYTHON,
    countRequests: e.GEOHUB_COUNT_REQUESTS === '1',
    orphanAgeSeconds:
      e.GEOHUB_ORPHAN_AGE_S ?? Math.ceil((e.GEOHUB_TOOL_TIMEOUT_MS + e.GEOHUB_KILL_GRACE_MS) / 1000) + 10,
  };
}
