import type { InjectedAnswer } from './aws-error-shapes.js';

/** What the fault layer does with one request. */
export interface Verdict {
  /** Answer this instead of forwarding the request to the emulator. */
  readonly inject?: InjectedAnswer;
  /** Called once the forwarded request has been answered (or abandoned). */
  readonly done?: () => void;
}

export interface RequestInfo {
  readonly method: string;
  /** Path and query string. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/** Decides, per request, whether AWS would have answered with an error. */
export type FaultDecider = (request: RequestInfo) => Verdict;

export const PASS: Verdict = {};
