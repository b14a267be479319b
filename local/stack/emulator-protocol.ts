/** Messages an emulator child process sends its parent over the IPC channel. */
export type EmulatorMessage =
  | { readonly type: 'ready'; readonly port: number }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 's3-event'; readonly record: unknown };

export const EMULATOR_KINDS = ['dynamodb', 's3rver', 'sqs'] as const;
export type EmulatorKind = (typeof EMULATOR_KINDS)[number];

/** One running emulator, inside its child process. */
export interface StartedEmulator {
  readonly port: number;
  stop(): Promise<void>;
}
