import type { NotificationRule } from './s3-notification.js';

/** Messages an emulator child process sends its parent over the IPC channel. */
export type EmulatorMessage =
  | { readonly type: 'ready'; readonly port: number }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 's3-event'; readonly record: unknown }
  | { readonly type: 'notifications-set' };

/**
 * The parent's message to the S3 stand-in: the bucket's notification configuration, as S3's
 * PutBucketNotificationConfiguration sets it (s3rver has no such call). Answered `notifications-set`.
 */
export interface NotificationsMessage {
  readonly type: 'notifications';
  readonly rules: readonly NotificationRule[];
}

export const EMULATOR_KINDS = ['dynamodb', 's3rver', 'sqs'] as const;
export type EmulatorKind = (typeof EMULATOR_KINDS)[number];

/** One running emulator, inside its child process. */
export interface StartedEmulator {
  readonly port: number;
  stop(): Promise<void>;
}
