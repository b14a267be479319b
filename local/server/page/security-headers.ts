/**
 * Everything the page loads comes from this server: no CDN, no basemap, no inline script.
 * Leaflet positions its panes with inline styles and embeds small data: images, hence the two
 * exceptions; nothing else is allowed, and the page may not be framed or post forms elsewhere.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every page asset. */
export function pageHeaders(contentType: string, bytes: number): Record<string, string | number> {
  return {
    'content-type': contentType,
    'content-length': bytes,
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    // A local tool that is rebuilt often: never serve yesterday's script.
    'cache-control': 'no-cache',
  };
}
