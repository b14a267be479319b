import { randomInt } from 'node:crypto';

/**
 * A key no other upload shares (two submits in one millisecond included), with the file's
 * name kept readable but short enough for any store: long names keep their start and extension.
 */
export function incomingKey(name: string): string {
  const safe = Buffer.byteLength(name) <= 100 ? name : shorten(name);
  // A folder of its own per upload: the object's name is the user's file name, which the
  // catalogue and the page show as it is.
  const unique = `${Date.now()}${String(randomInt(0, 1e12)).padStart(12, '0')}`;
  return `incoming/${unique}/${safe}`;
}

function shorten(name: string): string {
  const ext = /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? '';
  let head = name.slice(0, name.length - ext.length);
  while (Buffer.byteLength(head) > 90) head = head.slice(0, -1);
  return `${head}${ext}`;
}
