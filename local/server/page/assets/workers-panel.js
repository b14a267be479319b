import { el, setClass, setText } from './dom.js';
import { formatCount, formatDuration, shortId } from './format.js';

/** The worker pool (what each worker last said it was doing) and the queue depths. */
export function createWorkersPanel(table, queuesList) {
  const tbody = table.tBodies[0];
  const work = el('dd', { id: 'work-depth' });
  const dead = el('dd', { id: 'dlq-depth' });
  queuesList.append(el('dt', {}, 'Work queue'), work, el('dt', {}, 'Dead-letter queue'), dead);

  let fargate = false;
  return {
    /** The workers are a deployed stage's Fargate tasks: not listed here (the ECS console has them). */
    onFargate() {
      fargate = true;
    },
    renderWorkers(workers, now = Date.now()) {
      const rows = workers.map((w) => {
        const doing = w.doing ?? {};
        return el(
          'tr',
          { 'data-pid': w.pid },
          el('td', { className: 'num' }, w.slot),
          el('td', { className: 'num' }, w.pid),
          el('td', { className: 'num' }, w.restarts),
          el(
            'td',
            { className: 'doing', title: doing.tileId ? `sub-tile ${doing.tileId}` : undefined },
            doing.msg ?? '–',
          ),
          el('td', { title: doing.runId }, shortId(doing.runId) || '–'),
          el('td', { className: 'num' }, doing.at ? formatDuration(now - Date.parse(doing.at)) : '–'),
        );
      });
      if (rows.length === 0) {
        const why = fargate
          ? "the stage's workers are Fargate tasks: see the ECS console"
          : 'no worker running';
        rows.push(el('tr', {}, el('td', { colspan: 6, className: 'muted' }, why)));
      }
      tbody.replaceChildren(...rows);
    },
    renderQueues(queues) {
      setText(
        work,
        `${formatCount(queues.work.visible)} waiting · ${formatCount(queues.work.inFlight)} in flight`,
      );
      setText(
        dead,
        `${formatCount(queues.deadLetters.visible)} waiting · ${formatCount(queues.deadLetters.inFlight)} in flight`,
      );
      setClass(dead, queues.deadLetters.visible + queues.deadLetters.inFlight > 0 ? 'alert' : '');
    },
  };
}
