import { describe, expect, it } from 'vitest';
import { incomingKey } from '../../../../local/hub/incoming-key.js';

describe('incomingKey (issue 20 #4, #13)', () => {
  it('gives every upload its own key, also within one millisecond', () => {
    const keys = new Set(Array.from({ length: 1_000 }, () => incomingKey('same.tif')));
    expect(keys.size).toBe(1_000);
  });
  it('keeps a long name readable, short, and its extension', () => {
    const key = incomingKey(`${'é'.repeat(200)}.laz`);
    expect(key).toMatch(/^incoming\/\d{25}\/é+\.laz$/);
    expect(Buffer.byteLength(key.split('/')[2]!)).toBeLessThan(130);
  });
  it('names the object as the user named the file, in a folder of its own', () => {
    expect(incomingKey('RGB.byte.tif')).toMatch(/^incoming\/\d{25}\/RGB\.byte\.tif$/);
  });
});
