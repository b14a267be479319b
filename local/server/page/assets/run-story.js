import { el } from './dom.js';
import { drawDoneChart } from './done-chart.js';
import { formatCount, isActive, runDuration, shortId } from './format.js';

const DOWNLOADS = [
  ['mosaic.vrt', 'Mosaic (VRT)'],
  ['collection.json', 'STAC collection'],
  ['items.json', 'STAC items'],
  ['summary.json', 'Summary'],
];

/** The executions a run went through, when the run view carries them (a chain hands a run on). */
function executionsOf(run) {
  const chain = run.executions ?? run.execution?.chain;
  return Array.isArray(chain) ? chain : [];
}

/** Figures the run view may carry about capacity and cost: shown as given, never computed here. */
function capacityOf(run) {
  const found = [];
  for (const name of ['capacity', 'cost', 'estimate']) {
    const value = run[name];
    if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value))
        if (typeof v === 'number' || typeof v === 'string') found.push([`${name} ${k}`, String(v)]);
  }
  return found;
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
    render(run, story) {
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
        ...capacityOf(run),
      ];
      if (story.partial) rows.push(['Note', `from the first ${formatCount(story.scanned)} records`]);
      figures.replaceChildren(...rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
      const executions = executionsOf(run);
      chainTitle.hidden = executions.length === 0;
      chain.replaceChildren(
        ...executions.map((e) => {
          const name = e.name ?? e.executionArn?.split(':').at(-1) ?? '';
          return el(
            'li',
            { title: e.executionArn ?? name },
            shortId(name),
            ' ',
            el('span', { className: 'muted' }, e.status ?? ''),
          );
        }),
      );
      const links = DOWNLOADS.filter(([name]) => story.outputs?.[name]).map(([name, label]) =>
        el('a', { href: story.outputs[name], download: `${run.runId}-${name}` }, label),
      );
      downloads.replaceChildren(
        ...(links.length > 0 ? [el('span', { className: 'muted' }, 'Download:'), ...links] : []),
      );
      downloads.hidden = links.length === 0;
    },
  };
}
