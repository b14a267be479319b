import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { text } from 'node:stream/consumers';
import { finished } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';

const MANIFEST = 'META-INF/MANIFEST.MF';

/**
 * A copy of a jar whose manifest Class-Path names the original's library jars from the copy's
 * own directory and drops the entries that are not jars ("." and the like). Java's class-data
 * sharing refuses a class path with a non-empty directory in it, and DynamoDB Local's own
 * manifest lists ".", the directory that holds the jar itself: its copy can be archived
 * (dynamodb-class-archive.ts). Relative, not absolute: class-data sharing appends a Class-Path
 * entry to the jar's directory whatever it is, so an absolute entry names no file for it, and
 * the library's classes (half of those DynamoDB Local loads) were left out of the archive while
 * the class loader still found them.
 */
export async function copyJarWithoutDirectories(source: string, target: string): Promise<void> {
  mkdirSync(dirname(target), { recursive: true });
  const zip = await yauzl.openPromise(source, { lazyEntries: true, autoClose: false });
  const out = new yazl.ZipFile();
  const written = finished(out.outputStream.pipe(createWriteStream(target, { mode: 0o600 })));
  try {
    for await (const entry of entries(zip)) {
      const options = { mtime: entry.getLastModDate(), compress: entry.compressionMethod !== 0 };
      if (entry.fileName.endsWith('/')) {
        out.addEmptyDirectory(entry.fileName, { mtime: options.mtime });
        continue;
      }
      const content = await zip.openReadStreamPromise(entry);
      if (entry.fileName === MANIFEST) {
        out.addBuffer(
          Buffer.from(rewriteClassPath(await text(content), dirname(source), dirname(target))),
          MANIFEST,
          options,
        );
      } else {
        const chunks: Buffer[] = [];
        for await (const chunk of content) chunks.push(chunk as Buffer);
        out.addBuffer(Buffer.concat(chunks), entry.fileName, options);
      }
    }
  } finally {
    zip.close();
    out.end();
  }
  await written;
}

async function* entries(zip: yauzl.ZipFile): AsyncGenerator<yauzl.Entry> {
  let settle: { resolve: (e?: yauzl.Entry) => void; reject: (error: Error) => void } | undefined;
  let failure: Error | undefined;
  zip.on('entry', (entry: yauzl.Entry) => settle?.resolve(entry));
  zip.on('end', () => settle?.resolve(undefined));
  zip.on('error', (error: Error) => {
    failure = error;
    settle?.reject(error);
  });
  for (;;) {
    if (failure) throw failure;
    const next = new Promise<yauzl.Entry | undefined>((resolve, reject) => {
      settle = { resolve, reject };
    });
    zip.readEntry();
    const entry = await next;
    if (!entry) return;
    yield entry;
  }
}

/**
 * The manifest with its Class-Path limited to jars, each named from `copyDir` (where the copy
 * lives) to the original's `jarDir` (JAR spec: 72-byte lines).
 */
export function rewriteClassPath(manifest: string, jarDir: string, copyDir: string): string {
  // Continuation lines start with one space: unfold, edit, fold again.
  const lines = manifest
    .replace(/\r?\n /g, '')
    .split(/\r?\n/)
    .filter((l) => l !== '');
  const edited = lines.map((line) => {
    if (!line.startsWith('Class-Path:')) return line;
    const jars = line
      .slice('Class-Path:'.length)
      .trim()
      .split(/\s+/)
      .filter((entry) => entry.endsWith('.jar'))
      .map((entry) => asUrlPath(relative(copyDir, isAbsolute(entry) ? entry : join(jarDir, entry))));
    return `Class-Path: ${jars.join(' ')}`;
  });
  return `${edited.flatMap(fold).join('\r\n')}\r\n\r\n`;
}

/**
 * A path as a Class-Path URL: entries are separated by spaces and decoded as URLs, so a project
 * under "My Projects" would otherwise lose every library jar.
 */
const asUrlPath = (path: string) => path.split(sep).join('/').replaceAll('%', '%25').replaceAll(' ', '%20');

/** Lines of at most 72 bytes, continued with one space, never splitting a character. */
function fold(line: string): string[] {
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (bytes + size > 72) {
      out.push(current);
      current = ' ';
      bytes = 1;
    }
    current += char;
    bytes += size;
  }
  out.push(current);
  return out;
}
