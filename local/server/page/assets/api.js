/** Longer than any API call takes on a healthy stack; a stuck request must not stall the polling. */
const TIMEOUT_MS = 15_000;

async function request(path, init = {}) {
  const response = await fetch(path, {
    ...init,
    headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body;
}

export const getJson = (path) => request(path);

export const postJson = (path, body = {}) => request(path, { method: 'POST', body: JSON.stringify(body) });

export const runPath = (runId) => `/api/runs/${encodeURIComponent(runId)}`;
