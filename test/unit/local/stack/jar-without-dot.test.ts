import { describe, expect, it } from 'vitest';
import { rewriteClassPath } from '../../../../local/stack/jar-without-dot.js';

// As DynamoDB Local's manifest has it: folded at 72 bytes, "." and a non-jar file listed first.
const manifest = [
  'Manifest-Version: 1.0',
  'Main-Class: com.amazonaws.services.dynamodbv2.local.main.ServerRunner',
  'Class-Path: . log4j2.xml DynamoDBLocal_lib/Apache-HttpComponents-HttpC',
  ' lient-4.5.x.jar DynamoDBLocal_lib/sqlite4java.jar',
  '',
  '',
].join('\r\n');

const unfold = (text: string) => text.replace(/\r\n /g, '');

describe('rewriteClassPath', () => {
  it("keeps only the jars, named from the copy's directory, and the other attributes as they were", () => {
    const out = unfold(
      rewriteClassPath(manifest, '/opt/ddb', '/home/u/proj/node_modules/.cache/geohub/ddb-1'),
    );
    expect(out).toContain('Main-Class: com.amazonaws.services.dynamodbv2.local.main.ServerRunner\r\n');
    const classPath = out.split('\r\n').find((l) => l.startsWith('Class-Path: '))!;
    expect(classPath.slice('Class-Path: '.length).split(' ')).toEqual([
      '../../../../../../../opt/ddb/DynamoDBLocal_lib/Apache-HttpComponents-HttpClient-4.5.x.jar',
      '../../../../../../../opt/ddb/DynamoDBLocal_lib/sqlite4java.jar',
    ]);
    expect(out.endsWith('\r\n\r\n')).toBe(true);
  });

  it('folds every line at 72 bytes without splitting a character', () => {
    const dir = '/home/jöse/プロジェクト/node_modules/amplify-dynamodb-simulator/emulator';
    const out = rewriteClassPath(manifest, dir, '/srv/cache');
    const lines = out.split('\r\n').filter((l) => l !== '');
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(72);
    expect(lines.some((l) => l.startsWith(' '))).toBe(true);
    expect(out).not.toContain('\uFFFD');
    expect(unfold(out)).toContain(`../..${dir}/DynamoDBLocal_lib/sqlite4java.jar`);
  });

  it('escapes a space or a percent sign in the directory, which would split or garble a Class-Path entry', () => {
    const out = unfold(
      rewriteClassPath(manifest, '/home/a user/100% geo/ddb', '/home/a user/100% geo/cache'),
    );
    const classPath = out.split('\r\n').find((l) => l.startsWith('Class-Path: '))!;
    expect(classPath.slice('Class-Path: '.length).split(' ')).toEqual([
      '../ddb/DynamoDBLocal_lib/Apache-HttpComponents-HttpClient-4.5.x.jar',
      '../ddb/DynamoDBLocal_lib/sqlite4java.jar',
    ]);
    const elsewhere = unfold(rewriteClassPath(manifest, '/home/a user/100% geo', '/srv/cache'));
    expect(elsewhere).toContain('../../home/a%20user/100%25%20geo/DynamoDBLocal_lib/sqlite4java.jar');
  });
});
