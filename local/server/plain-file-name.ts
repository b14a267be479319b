import { z } from 'zod';

/** C0 controls and DEL: CR/LF split a log line or a header, the others hide in a terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * An upload's name as `geohub submit` sends it: the base name of the user's file, which becomes
 * part of the run's key and of names shown in the page and the CLI. Not a path (no `/` or `\`),
 * not `.` or `..`, no control character, at most a file system's 255 bytes.
 */
export const plainFileName = z
  .string()
  .min(1, 'a file name, not empty')
  .refine((name) => Buffer.byteLength(name) <= 255, 'a file name of at most 255 bytes')
  .refine((name) => !/[/\\]/.test(name), 'a file name, not a path')
  .refine((name) => name !== '.' && name !== '..', 'a file name, not . or ..')
  .refine((name) => !CONTROL.test(name), 'a file name without control characters');
