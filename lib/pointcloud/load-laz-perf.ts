/** Decodes a LAZ file held in WASM memory, point by point. */
export interface LazPerfFileReader {
  open(pointer: number, length: number): void;
  getPoint(pointer: number): void;
  getCount(): number;
  delete(): void;
}

/** Decodes one LAZ chunk (a COPC node) held in WASM memory, point by point. */
export interface LazPerfChunkDecoder {
  open(pointFormat: number, recordLength: number, pointer: number): void;
  getPoint(pointer: number): void;
  delete(): void;
}

/**
 * The part of laz-perf's Emscripten module geohub uses. Typed here because the package's own
 * typings need @types/emscripten, which is not a dependency.
 */
export interface LazPerfModule {
  /** Re-read after every allocation: the heap's buffer is replaced when WASM memory grows. */
  readonly HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  readonly LASZip: new () => LazPerfFileReader;
  readonly ChunkDecoder: new () => LazPerfChunkDecoder;
}

let instance: Promise<LazPerfModule> | undefined;

/**
 * The laz-perf WASM module, created once per process. Emscripten's Node glue installs
 * process-wide `uncaughtException` and `unhandledRejection` handlers that rethrow (crashing the
 * process with laz-perf's whole source on stderr); they are removed again as soon as the module
 * exists, so this process keeps its own error handling.
 */
export function loadLazPerf(): Promise<LazPerfModule> {
  instance ??= (async () => {
    const uncaught = new Set(process.listeners('uncaughtException'));
    const rejection = new Set(process.listeners('unhandledRejection'));
    try {
      // A static specifier, so that the worker bundle (scripts/bundle-worker.mjs) carries laz-perf.
      const { createLazPerf } = (await import('laz-perf')) as unknown as {
        createLazPerf: () => Promise<LazPerfModule>;
      };
      return await createLazPerf();
    } finally {
      for (const listener of process.listeners('uncaughtException')) {
        if (!uncaught.has(listener)) process.removeListener('uncaughtException', listener);
      }
      for (const listener of process.listeners('unhandledRejection')) {
        if (!rejection.has(listener)) process.removeListener('unhandledRejection', listener);
      }
    }
  })();
  instance.catch(() => {
    instance = undefined; // a failed start is not cached: the next call tries again
  });
  return instance;
}
