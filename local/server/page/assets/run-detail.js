import { postJson, runPath } from './api.js';
import { stepFunctionsConsoleUrl } from './console-link.js';
import { el, setClass, setText } from './dom.js';
import { isActive, sourceLabel } from './format.js';

/**
 * The selected run's header: its identity, where its execution is, and the operator's controls
 * (cancel, re-drive, the Step Functions console for a deployed run).
 */
export function createRunDetail(container, { onChanged }) {
  const title = el('h2', {}, 'No run selected');
  const status = el('span', { className: 'status' });
  const source = el('p', { className: 'source' });
  const execution = el('p', { className: 'execution muted' });
  const reason = el('p', { className: 'reason' });
  const cancel = el('button', { type: 'button', id: 'cancel-run', className: 'danger' }, 'Cancel run');
  const redrive = el('button', { type: 'button', id: 'redrive-run' }, 'Re-drive');
  const link = el(
    'a',
    { id: 'console-link', target: '_blank', rel: 'noopener noreferrer' },
    'Step Functions console ↗',
  );
  const localNote = el('span', { className: 'muted' }, 'local execution (no AWS console)');
  const message = el('p', { id: 'action-message', className: 'action-message', role: 'status' });
  container.append(
    el('div', { className: 'detail-head' }, title, status),
    source,
    execution,
    reason,
    el('div', { className: 'actions' }, cancel, redrive, link, localNote),
    message,
  );

  let run;
  let deadLetters = 0;

  const act = async (button, what, path, body) => {
    button.disabled = true;
    setText(message, `${what}…`);
    try {
      const result = await postJson(path, body);
      setText(message, describe(what, result));
    } catch (error) {
      setText(message, `${what} failed: ${error.message}`);
    } finally {
      onChanged();
    }
  };

  cancel.addEventListener('click', () => {
    if (!run || !window.confirm(`Cancel run ${run.runId}? In-flight sub-tiles stop; queued ones are parked.`))
      return;
    void act(cancel, 'Cancel', `${runPath(run.runId)}/cancel`);
  });
  redrive.addEventListener('click', () => {
    if (!run) return;
    void act(redrive, 'Re-drive', '/api/redrive', { runId: run.runId });
  });

  return {
    render(selected, queues) {
      run = selected;
      deadLetters = queues?.deadLetters?.visible ?? deadLetters;
      container.hidden = false;
      if (!run) {
        setText(title, 'No run selected');
        for (const n of [status, source, execution, reason]) setText(n, '');
        cancel.disabled = true;
        redrive.disabled = true;
        link.hidden = true;
        localNote.hidden = true;
        return;
      }
      setText(title, run.runId);
      setText(status, run.status);
      setClass(status, `status status-${run.status.toLowerCase()}`);
      // A pyramid: its levels, from the lowest to the base.
      const zoom =
        run.params.minZoom === undefined
          ? `zoom ${run.params.zoom ?? '–'}`
          : `zooms ${run.params.minZoom}-${run.params.zoom}`;
      setText(source, `${sourceLabel(run)} · ${run.operation} · ${zoom}`);
      source.title = `s3://${run.source.bucket}/${run.source.key}`;
      const state = run.execution?.state;
      setText(
        execution,
        run.execution
          ? `execution ${run.execution.status}${state ? ` · in ${state}` : ''}`
          : 'execution: not on this stack',
      );
      setText(reason, run.reason ?? run.execution?.cause ?? '');
      cancel.disabled = !isActive(run);
      // Work to re-drive: stopped sub-tiles of this run, or anything in the dead-letter queue.
      const stopped = run.counters.failed + run.counters.parked + run.counters.cancelled;
      redrive.disabled = run.status === 'SPLITTING' || (stopped === 0 && deadLetters === 0);
      redrive.title = `${stopped} stopped sub-tiles of this run, ${deadLetters} messages in the dead-letter queue`;
      const url = stepFunctionsConsoleUrl(run.executionArn);
      link.hidden = !url;
      if (url) link.href = url;
      localNote.hidden = Boolean(url) || !run.executionArn;
    },
  };
}

function describe(what, result) {
  if (what === 'Re-drive') {
    const r = result.runs?.[0];
    return r
      ? `Re-drive: ${r.unparked} sub-tiles unparked, ${r.fromDeadLetters} messages from the dead-letter queue`
      : 'Re-drive: nothing to re-drive';
  }
  return `${what}: run is ${result.status}`;
}
