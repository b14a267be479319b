import { describe, expect, it } from 'vitest';
import { type UploadOutcomes, withOutcome } from '../../../../local/hub/upload-file.js';

const outcomes = (announced: boolean): UploadOutcomes => ({ waiting: new Map(), announces: () => announced });

describe('withOutcome: an upload waits for what its own S3 event did', () => {
  it("an upload the bucket announces resolves with its event's outcome, its key as S3 encodes it", async () => {
    const o = outcomes(true);
    const stored: string[] = [];
    const upload = withOutcome(o, 'ObjectCreated:Put', 'incoming/a b.tif', async (key) => {
      stored.push(key);
      return { parts: 1 };
    });
    await expect.poll(() => o.waiting.has('incoming/a+b.tif')).toBe(true);
    o.waiting.get('incoming/a+b.tif')?.({ outcome: 'started', runId: 'r-1', executionArn: 'arn' });
    expect(await upload).toEqual({
      outcome: 'started',
      runId: 'r-1',
      executionArn: 'arn',
      parts: 1,
      key: 'incoming/a b.tif',
    });
    expect(stored).toEqual(['incoming/a b.tif']);
  });

  it('an upload the bucket does not announce is stored and says at once that no run starts, instead of waiting forever', async () => {
    const o = outcomes(false);
    const result = await withOutcome(
      o,
      'ObjectCreated:CompleteMultipartUpload',
      'incoming/a.tif',
      async () => ({
        parts: 2,
      }),
    );
    expect(result).toMatchObject({ outcome: 'ignored', parts: 2, key: 'incoming/a.tif' });
    expect((result as { reason: string }).reason).toMatch(
      /notification configuration.*CompleteMultipartUpload/,
    );
    expect(o.waiting.size).toBe(0);
  });

  it('a failed upload is forgotten: no outcome waits for it', async () => {
    const o = outcomes(true);
    await expect(
      withOutcome(o, 'ObjectCreated:Put', 'incoming/a.tif', async () => {
        throw new Error('gone');
      }),
    ).rejects.toThrow('gone');
    expect(o.waiting.size).toBe(0);
  });
});
