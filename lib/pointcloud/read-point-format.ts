import { open } from 'node:fs/promises';

/** Where the point data format byte sits in every LAS version's public header. */
const FORMAT_BYTE = 104;

/**
 * The point data format of a local LAS/LAZ file and whether it is compressed (LAZ sets bit 7 of
 * the format byte, some writers bit 6), from its first bytes; undefined when the file is not
 * there or not LAS, so the caller's own reader reports why.
 */
export async function readPointFormat(
  path: string,
): Promise<{ readonly compressed: boolean; readonly pointFormat: number } | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const head = new Uint8Array(FORMAT_BYTE + 1);
    const { bytesRead } = await handle.read(head, 0, head.byteLength, 0);
    if (bytesRead < head.byteLength || Buffer.from(head.subarray(0, 4)).toString('latin1') !== 'LASF') {
      return undefined;
    }
    const id = head[FORMAT_BYTE]!;
    return { compressed: (id & 0b1100_0000) !== 0, pointFormat: id & 0b0011_1111 };
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}
