import { s3Error } from './aws-error-shapes.js';
import { type FaultDecider, PASS } from './fault-decider.js';
import type { FaultRates } from './fault-rates.js';

/**
 * S3's occasional 503 SlowDown and 500 InternalError, on object requests and listings
 * (not on bucket set-up, which the stack does once at start).
 */
export function s3Faults(rates: FaultRates['s3'], random: () => number): FaultDecider {
  return (request) => {
    const path = new URL(request.url, 'http://localhost').pathname;
    const segments = path.split('/').filter(Boolean);
    const objectRequest = segments.length >= 2 || (segments.length === 1 && request.method === 'GET');
    if (!objectRequest) return PASS;
    const head = request.method === 'HEAD';
    if (random() < rates.slowDown) return { inject: s3Error(503, head) };
    if (random() < rates.serverError) return { inject: s3Error(500, head) };
    return PASS;
  };
}
