/**
 * The hand-over between consecutive metatiles in one worker (docs/architecture.md#overlap): the
 * worker takes its next message as soon as the current metatile's tool has ended and the metatile
 * before it has uploaded its tiles and written its marker. So a worker has at most two metatiles in
 * flight — one in its tool, one uploading — and its uploads never run two metatiles at a time.
 */
export interface Handoff {
  /**
   * The metatile's tool is done and its tiles are promoted: waits for the previous metatile's
   * uploads and marker (abortably: a cancel or the stop cutoff throws the signal's reason), then
   * lets the worker take its next message while this one uploads.
   */
  toolDone(signal: AbortSignal): Promise<void>;
}

/** No overlap: the caller awaits the whole message (point clouds, unit tests). */
export const NO_HANDOFF: Handoff = { toolDone: async () => {} };

/** Resolves when `promise` settles, or rejects with the signal's reason once it aborts. */
export function settledOrAborted(promise: Promise<unknown>, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void promise
      .catch(() => {})
      .then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
  });
}

/**
 * A hand-over for the next message: `previous` settles when every earlier message is finished;
 * `handed` resolves once this message's tool is done and `previous` has settled.
 */
export function createHandoff(previous: Promise<unknown>): Handoff & { readonly handed: Promise<void> } {
  let hand!: () => void;
  const handed = new Promise<void>((resolve) => {
    hand = resolve;
  });
  return {
    handed,
    async toolDone(signal) {
      await settledOrAborted(previous, signal);
      hand();
    },
  };
}
