import { describe, expect, it } from 'vitest';
import { historyEventsOf, payloadBytes } from '../../../../local/statemachine/history-events.js';

const entered = (type: string) => ({ type: 'StateEntered', state: { type } });
const exited = (type: string) => ({ type: 'StateExited', state: { type } });

describe('history events counted as Step Functions counts them', () => {
  it('one progress-loop turn (Wait → Lambda task → Choice) is 9 events', () => {
    const turn = [
      entered('Wait'),
      exited('Wait'),
      entered('Task'),
      exited('Task'),
      entered('Choice'),
      exited('Choice'),
    ];
    expect(turn.reduce((n, e) => n + historyEventsOf(e), 0)).toBe(9);
  });

  it('a retried task adds its failure and the next attempt’s scheduling and start', () => {
    const retried = [
      entered('Task'),
      { type: 'StateFailed', state: { type: 'Task' } },
      { type: 'StateRetried', state: { type: 'Task' } },
      exited('Task'),
    ];
    expect(retried.reduce((n, e) => n + historyEventsOf(e), 0)).toBe(8);
  });

  it('measures payloads as UTF-8 JSON', () => {
    expect(payloadBytes({ a: 'é' })).toBe(Buffer.byteLength('{"a":"é"}'));
  });
});
