import { el } from './dom.js';
import { drawDoneChart } from './done-chart.js';
import { formatCount, isActive, runDuration, shortId } from './format.js';

/** The executions a run went through, when the run view carries them (a chain hands a run on). */
function executionsOf(run) {
  const chain = run.executions ?? run.execution?.chain;
  return Array.isArray(chain) ? chain : [];
}

const percent = (v) => `${(v * 100).toFixed(1)} %`;
const dollars = (v) => `$${v.toFixed(4)}`;

/**
 * What the run view may say of the workers' capacity (spot and on-demand) and its cost: shown
 * as the API gives it, never computed here; nothing when the API does not report it.
 */
function capacityOf(run) {
  const c = run.capacity;
  if (!c || typeof c !== 'object') return [];
  const rows = [];
  if (c.workers && Number.isFinite(c.workers.spot) && Number.isFinite(c.workers.onDemand))
    rows.push([
      'Capacity',
      `${c.workers.spot} spot + ${c.workers.onDemand} on-demand workers${c.mode ? `, new ones on ${c.mode}` : ''}`,
    ]);
  if (Number.isFinite(c.rate) && Number.isFinite(c.breakEven))
    rows.push(['Interruption rate', `${percent(c.rate)} (break-even ${percent(c.breakEven)})`]);
  const cost = c.cost;
  if (cost && Number.isFinite(cost.total)) {
    const share = Number.isFinite(cost.onDemandShare) ? `, ${percent(cost.onDemandShare)} on-demand` : '';
    rows.push(['Cost so far', `${dollars(cost.total)}${share}`]);
  }
  return rows;
}

/**
 * A run's story under its detail: sub-tiles done over time, interruptions and redone work, the
 * chain of executions, what it cost where the API says, and the downloads once written.
 */
export function createRunStory(container) {
  const chart = el('div', { className: 'chart', id: 'done-chart' });
  const figures = el('dl', { className: 'story-figures', id: 'story-figures' });
  const chain = el('ol', { className: 'executions', id: 'executions' });
  const chainTitle = el('h3', {}, 'Executions');
  const downloads = el('div', { className: 'downloads', id: 'downloads' });
  container.append(el('h3', {}, 'Sub-tiles done over time'), chart, figures, chainTitle, chain, downloads);

  return {
    /** `detail` is the run's own view (GET /api/runs/:id), which may carry its chain of executions. */
    render(run, story, detail) {
      container.hidden = !run || !story || story.runId !== run.runId;
      if (container.hidden) return;
      const end = isActive(run) ? Date.now() : Date.parse(run.updatedAt);
      drawDoneChart(chart, {
        progress: story.progress,
        total: run.counters.total,
        elapsedMs: Math.max(0, runDuration(run, end)),
      });
      const rows = [
        ['Interruptions', formatCount(Math.max(run.counters.interrupted, story.interruptions))],
        [
          'Redone',
          `${formatCount(story.redone.tiles)} sub-tiles (${formatCount(story.redone.attempts)} extra attempts)`,
        ],
        ['Retried after failure', formatCount(run.counters.retried)],
        ...capacityOf(detail?.runId === run.runId ? detail : run),
      ];
      if (story.partial) rows.push(['Note', `from the first ${formatCount(story.scanned)} records`]);
      figures.replaceChildren(...rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
      const executions = executionsOf(detail?.runId === run.runId ? detail : run);
      chainTitle.hidden = executions.length === 0;
      chain.replaceChildren(
        ...executions.map((e) => {
          const name = e.name ?? e.executionArn?.split(':').at(-1) ?? '';
          // Why it started (upload, hand-over, re-drive) and how it ended, as the chain records them.
          const how = [e.reason, e.status].filter(Boolean).join(' · ');
          return el(
            'li',
            { title: e.executionArn ?? name },
            shortId(name),
            ' ',
            el('span', { className: 'muted' }, how),
          );
        }),
      );
      // The outputs as the API lists them (lib/coordination/run-outputs.ts, the one list).
      const outputs = Array.isArray(story.outputs) ? story.outputs : [];
      const links = outputs.map((o) => el('a', { href: o.url, download: `${run.runId}-${o.name}` }, o.label));
      downloads.replaceChildren(
        ...(links.length > 0 ? [el('span', { className: 'muted' }, 'Download:'), ...links] : []),
      );
      downloads.hidden = links.length === 0;
    },
  };
}
