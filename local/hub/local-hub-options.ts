import type { Logger } from '../../lib/log/logger.js';
import type { FaultRates } from '../faults/fault-rates.js';
import type { EmulatorSet } from '../stack/emulator-set.js';
import type { LambdaLimits } from '../statemachine/lambda-limits.js';
import type { CapacitySettings } from './capacity-controller.js';

/** How a local hub is started (local-hub.ts): its workers, its cadence, the AWS behaviour it models. */
export interface LocalHubOptions {
  readonly workers: number;
  /** Extra worker environment (budgets, leases) on top of the stack's. */
  readonly workerEnv?: Readonly<Record<string, string>>;
  /** Milliseconds the coordinator waits between progress checks (AWS: 10 s). */
  readonly pollMs?: number;
  readonly log?: Logger;
  readonly onWorkerLog?: (line: string, parsed: Record<string, unknown> | undefined) => void;
  /** Counts the coordinator's AWS requests (the Lambdas' share), for benchmarks. */
  readonly onAwsRequest?: (service: string, command: string) => void;
  /** The stack's emulators, if the caller started them already (local/stack/emulator-set.ts). */
  readonly emulators?: EmulatorSet;
  /** The AWS-behaviour layer's rates (docs/architecture.md, "Local stack"); none: plain emulators. */
  readonly faults?: FaultRates;
  /** Sub-tiles per message (metatile size); default: the largest a message holds. */
  readonly tilesPerMessage?: number;
  /** Breaker thresholds for this hub's runs. */
  readonly breaker?: { minSample: number; failureRatio: number };
  /**
   * Step Functions' history limit (25,000) lowered for tests: the same code path fails an
   * execution at it, and the progress loop hands over at 60 % of it.
   */
  readonly historyLimit?: number;
  /**
   * Each task runs in a container capped at its serverless.yml memory size and timeout (on by
   * default); tests lower a function's limits here to see a task fail as it would on AWS.
   */
  readonly lambdaLimits?: false | Readonly<Record<string, Partial<LambdaLimits>>>;
  /** Spot → on-demand fallback settings (window, hysteresis, the cost model's assumptions). */
  readonly capacity?: CapacitySettings;
  /**
   * Answer CloudFormation, Step Functions and Lambda as a deployed stage does, for the CLI's
   * `--stage local` (control-plane/): off by default, nothing else calls them.
   */
  readonly controlPlane?: boolean;
  /** The template the stack is built from instead of serverless.yml: its roles and resources (stack.ts). */
  readonly template?: unknown;
}
