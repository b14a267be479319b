import { pino } from 'pino';

export type Logger = pino.Logger;

/** Structured JSON logs on stderr (stdout stays free for command output). */
export function createLogger(
  bindings: Record<string, unknown> = {},
  level = process.env.GEOHUB_LOG_LEVEL ?? 'info',
): Logger {
  return pino({ level, base: bindings, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination(2));
}
