import { describe, expect, it } from 'vitest';
import { assemblyTimeoutMs, MAX_PARTS, MiB } from '../../../../lib/store/multipart-limits.js';
import { copyPartBytes } from '../../../../lib/store/s3-multipart-copy.js';

describe('multipart limits shared by uploads and copies', () => {
  it('bounds an assembly at 20 MB/s, never under a minute', () => {
    expect(assemblyTimeoutMs(0)).toBe(60_000);
    expect(assemblyTimeoutMs(1_000 * 20 * MiB)).toBe(1_000_000);
    expect(assemblyTimeoutMs(5 * 1024 * MiB)).toBe(256_000);
  });

  it('copies in 512 MiB parts until 10,000 of them would not hold the object', () => {
    expect(copyPartBytes(6 * 1024 * MiB)).toBe(512 * MiB);
    expect(copyPartBytes(MAX_PARTS * 512 * MiB)).toBe(512 * MiB);
    // S3's largest object, 5 TiB, is past 10,000 parts of 512 MiB: its parts grow to fit.
    const largest = 5 * 1024 ** 4;
    expect(copyPartBytes(largest)).toBeGreaterThan(512 * MiB);
    expect(Math.ceil(largest / copyPartBytes(largest))).toBe(MAX_PARTS);
  });
});
