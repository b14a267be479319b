import { localCredentials } from '../lib/aws/clients.js';
import type { Config } from '../lib/config/config.js';

/**
 * The environment GDAL runs with. Against a local S3 endpoint, GDAL's /vsis3/ needs the
 * endpoint, plain HTTP, path-style URLs and the emulator's credentials; on AWS it uses the
 * task role like the SDK does. Directory listing on open is disabled: one GET per block,
 * not a LIST per file.
 */
export function gdalEnv(
  config: Config,
  base: NodeJS.ProcessEnv = process.env,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...base,
    GDAL_DISABLE_READDIR_ON_OPEN: 'EMPTY_DIR',
    CPL_VSIL_CURL_USE_HEAD: 'NO',
    VSI_CACHE: 'TRUE',
    // S3 answers 503 SlowDown (and the odd 500) as a matter of course; GDAL does not retry
    // them unless told to (it then retries 429, 500, 502, 503 and 504 with back-off).
    GDAL_HTTP_MAX_RETRY: String(config.maxAttempts),
    GDAL_HTTP_RETRY_DELAY: '0.5',
    AWS_REGION: config.region,
  };
  const endpoint = config.endpoints.s3;
  if (endpoint) {
    const url = new URL(endpoint);
    Object.assign(env, {
      AWS_S3_ENDPOINT: url.host,
      AWS_HTTPS: url.protocol === 'https:' ? 'YES' : 'NO',
      AWS_VIRTUAL_HOSTING: 'FALSE',
      AWS_ACCESS_KEY_ID: localCredentials(config).accessKeyId,
      AWS_SECRET_ACCESS_KEY: localCredentials(config).secretAccessKey,
      AWS_SESSION_TOKEN: undefined,
    });
  }
  return env;
}
