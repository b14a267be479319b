import { randomBytes } from 'node:crypto';
import { StackStartError } from './errors.js';

export interface LocalCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** Fresh credentials for one start of the local stack: only its own processes learn them. */
export function newLocalCredentials(): LocalCredentials {
  return {
    accessKeyId: `GH${randomBytes(12).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(24).toString('base64url'),
  };
}

/** How the stack passes them to its children: in the environment, never on a command line. */
export const CREDENTIAL_ENV = {
  accessKeyId: 'GEOHUB_LOCAL_ACCESS_KEY_ID',
  secretAccessKey: 'GEOHUB_LOCAL_SECRET_ACCESS_KEY',
} as const;

export function credentialsFromEnv(env: NodeJS.ProcessEnv): LocalCredentials {
  const accessKeyId = env[CREDENTIAL_ENV.accessKeyId];
  const secretAccessKey = env[CREDENTIAL_ENV.secretAccessKey];
  if (!accessKeyId || !secretAccessKey)
    throw new StackStartError('the stand-in was started without its credentials');
  return { accessKeyId, secretAccessKey };
}
