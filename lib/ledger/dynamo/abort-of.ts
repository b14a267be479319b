import type { LedgerRequest } from '../ledger.js';

/** The SDK's per-request options for a ledger request: its cancel signal, if any. */
export const abortOf = (request?: LedgerRequest) =>
  request?.signal ? { abortSignal: request.signal } : undefined;
