/**
 * The SDK's per-request options for a call that may be cancelled: its signal, if any. Handed to
 * every `send` of an adapter, so that a cancel closes the socket of the request in flight and
 * ends its retries (docs/architecture.md, cancellation).
 */
export const abortOf = (options?: { readonly signal?: AbortSignal }) =>
  options?.signal ? { abortSignal: options.signal } : undefined;
