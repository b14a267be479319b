/**
 * Ctrl-C and SIGTERM for a long-running command (`geohub up`, `geohub console`), listened to from
 * its start: the first signal is kept, and `until()` resolves on it (at once if one came already).
 */
export function stopSignals() {
  let signalled: NodeJS.Signals | undefined;
  let wake = () => {};
  const onSignal = (signal: NodeJS.Signals) => {
    signalled ??= signal;
    wake();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signalled: () => signalled,
    until: () => (signalled ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve))),
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
