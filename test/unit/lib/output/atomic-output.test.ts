import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withAtomicOutput, withAtomicOutputs } from '../../../../lib/output/atomic-output.js';

const root = mkdtempSync(join(tmpdir(), 'geohub-atomic-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('withAtomicOutput', () => {
  it('promotes the part file by rename on success, in the same directory', async () => {
    const final = join(root, 'ok', '12', '2100', '1300.tif');
    let seen = '';
    await withAtomicOutput(final, async (part) => {
      seen = part;
      expect(dirname(part)).toBe(dirname(final));
      expect(part.endsWith('.part')).toBe(true);
      writeFileSync(part, 'tile');
    });
    expect(readFileSync(final, 'utf8')).toBe('tile');
    expect(existsSync(seen)).toBe(false);
    expect(readdirSync(dirname(final))).toEqual(['1300.tif']);
  });

  it('discards the partial output on failure and never creates the final file', async () => {
    const final = join(root, 'fail', '1.tif');
    await expect(
      withAtomicOutput(final, async (part) => {
        writeFileSync(part, 'half a tile');
        throw new Error('tool failed');
      }),
    ).rejects.toThrow('tool failed');
    expect(readdirSync(dirname(final))).toEqual([]);
  });

  it('discards the partial output on cancellation (a rejection that is not an Error)', async () => {
    const final = join(root, 'cancel', '1.tif');
    const controller = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((r) => {
      started = r;
    });
    const pending = withAtomicOutput(final, async (part) => {
      writeFileSync(part, 'partial');
      const aborted = new Promise((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason)),
      );
      started();
      await aborted;
    });
    await running;
    controller.abort('run cancelled');
    await expect(pending).rejects.toBe('run cancelled');
    expect(readdirSync(dirname(final))).toEqual([]);
  });
});

describe('withAtomicOutputs (a metatile: several outputs of one tool run)', () => {
  it('promotes every part by its own rename, only once the whole run succeeded', async () => {
    const finals = [
      join(root, 'many', '3', '1.tif'),
      join(root, 'many', '3', '2.tif'),
      join(root, 'many', '4', '1.tif'),
    ];
    await withAtomicOutputs(finals, async (parts) => {
      expect(parts.map(dirname)).toEqual(finals.map(dirname));
      for (const part of parts) writeFileSync(part, part);
      // Nothing is final while the tool runs.
      expect(finals.some((f) => existsSync(f))).toBe(false);
    });
    for (const final of finals) expect(readFileSync(final, 'utf8')).toMatch(/\.part$/);
    expect(readdirSync(join(root, 'many', '3')).sort()).toEqual(['1.tif', '2.tif']);
  });

  it('on failure leaves neither parts nor finals, even for the outputs already written', async () => {
    const finals = [join(root, 'many-fail', '1.tif'), join(root, 'many-fail', '2.tif')];
    await expect(
      withAtomicOutputs(finals, async (parts) => {
        writeFileSync(parts[0]!, 'one tile of two');
        throw new Error('tool died after the first tile');
      }),
    ).rejects.toThrow('tool died');
    expect(readdirSync(join(root, 'many-fail'))).toEqual([]);
  });
});
