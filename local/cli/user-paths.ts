import { basename } from 'node:path';
import { memberFolder } from '../hub/upload-collection.js';
import type { InputFile } from './input-file.js';

/**
 * A reason or warning with the user's paths in place of the objects they were uploaded to: the
 * source's key becomes the file the user named, a collection member's key its own path.
 */
export function userPaths(bucket: string, key: string, file: string, members: readonly InputFile[] = []) {
  const folder = `s3://${bucket}/${memberFolder(key)}`;
  return (text: string | undefined) =>
    members.reduce(
      (t, m) => t?.split(`${folder}${basename(m.path)}`).join(m.path),
      text?.split(`s3://${bucket}/${key}`).join(file),
    );
}
