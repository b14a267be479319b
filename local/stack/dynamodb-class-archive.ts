import { createHash } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { projectRoot } from '../project-root.js';

const require = createRequire(import.meta.url);

/** A copy of DynamoDB Local's jar and the class-data archive of its start, made for one JVM. */
export interface ClassArchive {
  readonly jar: string;
  readonly archive: string;
}

/** amplify-dynamodb-simulator's emulator directory: DynamoDBLocal.jar and its libraries. */
export const dynamoHome = (): string =>
  join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');

/** The project's own cache (node_modules/.cache, as other tools keep theirs): the user's, not /tmp's. */
export const defaultCacheRoot = (): string => join(projectRoot(), 'node_modules', '.cache', 'geohub');

/**
 * Where the archive for this JVM and this DynamoDB Local lives. An archive maps only into the
 * JVM that wrote it, with the very jar it was written with: both are in the key, so a Java
 * upgrade or a new DynamoDB Local gets a directory of its own, not a silently unused file.
 */
export function classArchiveFor(home: string, cacheRoot = defaultCacheRoot()): ClassArchive | undefined {
  const java = javaOnPath();
  if (!java) return undefined;
  const jvm = join(dirname(dirname(java)), 'lib', 'server', 'libjvm.so');
  const identity = [
    // How the archive is made: a new way is a new directory (2: Class-Path entries relative;
    // 3: trained with a run's requests).
    'make 3',
    java,
    fileIdentity(jvm),
    fileIdentity(join(home, 'DynamoDBLocal.jar')),
  ].join('\n');
  const key = createHash('sha256').update(identity).digest('hex').slice(0, 16);
  const dir = join(cacheRoot, `dynamodb-local-${key}`);
  return { jar: join(dir, 'DynamoDBLocal.jar'), archive: join(dir, 'classes.jsa') };
}

/** The archive if it was made (`prepareClassArchive`, run by scripts/setup.sh), else undefined. */
export function readyClassArchive(home: string, cacheRoot?: string): ClassArchive | undefined {
  const found = classArchiveFor(home, cacheRoot);
  return found && existsSync(found.jar) && existsSync(found.archive) ? found : undefined;
}

function fileIdentity(path: string): string {
  const s = statSync(path, { throwIfNoEntry: false });
  return s ? `${path} ${s.size} ${s.mtimeMs}` : `${path} absent`;
}

/** The `java` that a spawn of "java" runs, links resolved (Debian's alternatives). */
function javaOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'java');
    if (dir && existsSync(candidate)) return realpathSync(candidate);
  }
  return undefined;
}
