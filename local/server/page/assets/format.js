/** 12.3 s, 4 min 05 s, 2 h 03 min: what an operator reads at a glance. */
export function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

export const ACTIVE_STATUSES = ['SPLITTING', 'RUNNING', 'DRAINING'];

export const isActive = (run) => ACTIVE_STATUSES.includes(run.status);

/** How long a run has taken: until now while it runs, until its last update once it has ended. */
export function runDuration(run, now = Date.now()) {
  const end = isActive(run) ? now : Date.parse(run.updatedAt);
  return end - Date.parse(run.createdAt);
}

/** `r-1a2b3c4d…`: run ids are long hashes; the full one is in the title and the detail panel. */
export const shortId = (id) => (id && id.length > 12 ? `${id.slice(0, 10)}…` : (id ?? ''));

/** The uploaded file's name: the last part of its key (each upload has a folder of its own). */
export function sourceName(key) {
  return key.split('/').at(-1) ?? key;
}

/** A run's source as the page names it: the file, or a collection and its files. */
export function sourceLabel(run) {
  const c = run.collection;
  if (!c) return sourceName(run.source.key);
  const more = c.members > c.names.length ? `, … ${c.members - c.names.length} more` : '';
  const skipped = c.skipped > 0 ? `; ${c.skipped} skipped` : '';
  return `a collection of ${c.members} files (${c.names.join(', ')}${more})${skipped}`;
}

export const formatTime = (iso) => new Date(iso).toLocaleTimeString('en-GB', { hour12: false });

export const formatCount = (n) => (Number.isFinite(n) ? n.toLocaleString('en') : '–');
