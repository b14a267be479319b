import { describe, expect, it } from 'vitest';
import { interleavePages } from '../../../../../lib/ledger/dynamo/query-items.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A paged query stand-in: `pages` pages of `[name-i]`, each after `delayMs` and after `before`
 * (an event to wait for, not a time); records whether it was closed.
 */
function pagedQuery(
  name: string,
  pages: number,
  delayMs: number,
  failAt?: number,
  before?: Promise<unknown>,
) {
  const state = { closed: false, served: 0 };
  const query = (async function* () {
    try {
      for (let i = 0; i < pages; i++) {
        await pause(delayMs);
        await before;
        if (i === failAt) throw new Error(`${name} failed`);
        state.served += 1;
        yield [`${name}-${i}`];
      }
    } finally {
      state.closed = true;
    }
  })();
  return { query, state };
}

describe('interleavePages', () => {
  it('yields every page of every query, a fast one not waiting for a slow one', async () => {
    // The slow query answers only once the fast one's last page was taken: interleaving that
    // waited for each query in turn would never get there (and the test would time out).
    let fastDone = () => {};
    const slow = pagedQuery('slow', 2, 0, undefined, new Promise<void>((r) => (fastDone = r)));
    const fast = pagedQuery('fast', 4, 1);
    const seen: string[] = [];
    for await (const page of interleavePages([slow.query, fast.query])) {
      seen.push(...page);
      if (page[0] === 'fast-3') fastDone();
    }
    expect(new Set(seen)).toEqual(new Set(['slow-0', 'slow-1', 'fast-0', 'fast-1', 'fast-2', 'fast-3']));
    // The fast query's pages all came before the slow one's first.
    expect(seen.indexOf('fast-3')).toBeLessThan(seen.indexOf('slow-0'));
  });

  it('a failing query fails the read and closes the others, with no unhandled rejection', async () => {
    const failing = pagedQuery('bad', 3, 5, 1);
    const other = pagedQuery('other', 1_000, 5);
    const alsoFailing = pagedQuery('late', 3, 20, 0);
    await expect(
      (async () => {
        for await (const _ of interleavePages([failing.query, other.query, alsoFailing.query]));
      })(),
    ).rejects.toThrow('bad failed');
    expect(other.state.closed).toBe(true);
    // Paging stopped: the long query served a handful of pages, not a thousand.
    expect(other.state.served).toBeLessThan(20);
    await pause(50);
  });
});
