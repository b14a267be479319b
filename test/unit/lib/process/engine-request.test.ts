import { describe, expect, it } from 'vitest';
import { engineRequest, scopeEnv } from '../../../../lib/process/engine-request.js';

describe('engineRequest: what a run needs goes with each request to an engine that serves every run', () => {
  const scope = { runId: 'r-1', config: { GDAL_HTTP_HEADER_FILE: '/scratch/pins/r-1.headers' } };

  it('wraps the spec with the run and its GDAL configuration, as one JSON line', () => {
    const spec = JSON.stringify({
      source: '/vsis3/b/k.tif',
      tiles: [{ col: 0, row: 0, output: '/o "q".tif' }],
    });
    const line = engineRequest(spec, scope);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({ run: 'r-1', config: scope.config, spec: JSON.parse(spec) });
  });

  it('a tool started for one request has the same in its environment, with the run named', () => {
    expect(scopeEnv(scope)).toEqual({
      GDAL_HTTP_HEADER_FILE: '/scratch/pins/r-1.headers',
      GEOHUB_RUN_ID: 'r-1',
    });
  });
});
