export type SourceFormat = 'tiff' | 'bigtiff' | 'las';

/** Bytes read to recognise the format (4 would do; 16 make a readable error message). */
export const MAGIC_BYTES = 16;

/**
 * The format from the file's first bytes (never its name): classic TIFF `II*\0` / `MM\0*`,
 * BigTIFF `II+\0` / `MM\0+`, LAS/LAZ/COPC `LASF`. Undefined for anything else.
 */
export function detectFormat(head: Uint8Array): SourceFormat | undefined {
  if (head.length >= 4) {
    const [a, b, c, d] = head;
    if (a === 0x49 && b === 0x49 && c === 0x2a && d === 0x00) return 'tiff';
    if (a === 0x4d && b === 0x4d && c === 0x00 && d === 0x2a) return 'tiff';
    if (a === 0x49 && b === 0x49 && c === 0x2b && d === 0x00) return 'bigtiff';
    if (a === 0x4d && b === 0x4d && c === 0x00 && d === 0x2b) return 'bigtiff';
    if (a === 0x4c && b === 0x41 && c === 0x53 && d === 0x46) return 'las';
  }
  return undefined;
}

/** A short, safe rendering of the first bytes for an error message: text if printable, else hex. */
export function previewBytes(head: Uint8Array): string {
  const sample = head.subarray(0, 16);
  const printable = sample.every((b) => (b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d);
  if (printable) return JSON.stringify(Buffer.from(sample).toString('latin1'));
  return `0x${Buffer.from(sample).toString('hex')}`;
}
