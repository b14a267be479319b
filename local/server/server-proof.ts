import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The CLI's check that the server on a port is the `geohub up` that wrote the token file, before
 * it sends the token or a file (docs/security.md#the-cli-checks-the-server): it sends a fresh
 * nonce, unauthenticated; only the holder of the secret can answer HMAC(secret, nonce). The label
 * keeps the answer from being anything else the secret is used for (it is never a bearer token).
 */
export const PROOF_PATH = '/api/proof';

const LABEL = 'geohub-up server proof v1\n';

export const newNonce = () => randomBytes(32).toString('base64url');

export const proofOf = (secret: string, nonce: string) =>
  createHmac('sha256', secret).update(LABEL).update(nonce).digest('base64url');

/** A nonce is what newNonce makes: 43 base64url characters, nothing to reflect. */
export const NONCE = /^[A-Za-z0-9_-]{43}$/;

export function provesSecret(secret: string, nonce: string, answer: string | undefined): boolean {
  if (answer === undefined) return false;
  const a = Buffer.from(answer);
  const b = Buffer.from(proofOf(secret, nonce));
  return a.length === b.length && timingSafeEqual(a, b);
}
