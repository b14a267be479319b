import { el, setClass, setText } from './dom.js';
import { formatCount, formatDuration, formatTime, runDuration, shortId, sourceLabel } from './format.js';

const CELLS = [
  { key: 'run', text: (r) => shortId(r.runId), title: (r) => r.runId },
  { key: 'source', text: (r) => sourceLabel(r), title: (r) => r.source.key },
  { key: 'status', text: (r) => r.status, className: (r) => `status status-${r.status.toLowerCase()}` },
  { key: 'done', text: (r) => formatCount(r.counters.done), num: true },
  { key: 'failed', text: (r) => formatCount(r.counters.failed), num: true },
  { key: 'parked', text: (r) => formatCount(r.counters.parked), num: true },
  { key: 'cancelled', text: (r) => formatCount(r.counters.cancelled), num: true },
  { key: 'total', text: (r) => formatCount(r.counters.total), num: true },
  {
    key: 'breaker',
    text: (r) => r.breaker ?? 'CLOSED',
    className: (r) => `breaker-${(r.breaker ?? 'CLOSED').toLowerCase()}`,
  },
  { key: 'duration', text: (r) => formatDuration(runDuration(r)), num: true },
  { key: 'started', text: (r) => formatTime(r.createdAt), title: (r) => r.createdAt },
];

/**
 * The runs table, updated in place: one row per run id, kept across polls, so that a click
 * landing between two polls still hits the row it was aimed at.
 */
export function createRunsTable(table, empty, onSelect) {
  const tbody = table.tBodies[0];
  const rows = new Map();

  const rowFor = (run) => {
    let row = rows.get(run.runId);
    if (!row) {
      const cells = CELLS.map((c) => el('td', { className: c.num ? 'num' : undefined }));
      const inner = CELLS.map((c, i) => (c.className ? cells[i].appendChild(el('span')) : cells[i]));
      const tr = el('tr', { 'data-run-id': run.runId, tabindex: 0 }, ...cells);
      tr.addEventListener('click', () => onSelect(run.runId));
      tr.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') onSelect(run.runId);
      });
      row = { tr, inner };
      rows.set(run.runId, row);
    }
    return row;
  };

  return {
    render(runs, selectedId) {
      const seen = new Set();
      runs.forEach((run, index) => {
        seen.add(run.runId);
        const { tr, inner } = rowFor(run);
        CELLS.forEach((c, i) => {
          setText(inner[i], c.text(run));
          if (c.title) inner[i].title = c.title(run);
          if (c.className) setClass(inner[i], c.className(run));
        });
        setClass(tr, run.runId === selectedId ? 'selected' : '');
        tr.setAttribute('aria-selected', String(run.runId === selectedId));
        // Newest first, as the API lists them; move a row only when its place changed.
        if (tbody.children[index] !== tr) tbody.insertBefore(tr, tbody.children[index] ?? null);
      });
      for (const [id, row] of rows) {
        if (!seen.has(id)) {
          row.tr.remove();
          rows.delete(id);
        }
      }
      empty.hidden = runs.length > 0;
    },
  };
}
