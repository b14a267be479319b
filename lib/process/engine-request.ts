/** The run a tool works for: its id and the GDAL configuration its reads need (the source's pin). */
export interface RunScope {
  readonly runId: string;
  readonly config: Readonly<Record<string, string>>;
}

/**
 * One request line for a serving engine (worker/tools/warp-metatile.py --serve): the tool's spec
 * (JSON text) with the run it belongs to. An engine outlives runs, so what one run needs goes with
 * each request, never in the engine's environment: the config holds for that request only, and a
 * request of another run starts with GDAL's network cache cleared.
 */
export function engineRequest(spec: string, scope: RunScope): string {
  return `{"run":${JSON.stringify(scope.runId)},"config":${JSON.stringify(scope.config)},"spec":${spec}}`;
}

/** The same for a process started for one request: the run in its environment. */
export function scopeEnv(scope: RunScope): Record<string, string> {
  return { ...scope.config, GEOHUB_RUN_ID: scope.runId };
}
