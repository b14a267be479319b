import { getJson, runPath } from './api.js';
import { setClass, setText } from './dom.js';
import { isActive } from './format.js';
import { createRunDetail } from './run-detail.js';
import { createRunMap } from './run-map.js';
import { createRunStory } from './run-story.js';
import { createRunsTable } from './runs-table.js';
import { createWorkersPanel } from './workers-panel.js';

/** The page polls the API this often (and never two polls at once). */
const POLL_MS = 1_000;
/** Polls of a finished run's tile states after its last change: cleanup lands just after the status. */
const SETTLE_POLLS = 5;
/** The story (a Query over the run's records) is fetched every this many polls, not every second. */
const STORY_EVERY = 3;

const L = globalThis.L;
const $ = (id) => document.getElementById(id);

const state = {
  runs: [],
  queues: undefined,
  /** The run shown on the map and in the detail panel; kept in the URL hash across reloads. */
  selectedId: new URLSearchParams(location.hash.slice(1)).get('run') ?? undefined,
  /** The run version the map's states were last fetched for, and polls since then. */
  mapVersion: '',
  emptyNote: undefined,
  settlePolls: 0,
  wakeUp: undefined,
  /** The selected run's story, the run version it was fetched for, and fetches since that changed. */
  story: undefined,
  /** The selected run's own view (GET /api/runs/:id): it may carry the chain of executions. */
  detail: undefined,
  storyVersion: '',
  storyFetches: 0,
  polls: 0,
};

const select = (runId) => {
  state.selectedId = runId;
  history.replaceState(null, '', `#run=${encodeURIComponent(runId)}`);
  render();
  poke();
};

// A link or the browser's back button may change the hash: follow it.
addEventListener('hashchange', () => {
  const runId = new URLSearchParams(location.hash.slice(1)).get('run');
  if (runId && runId !== state.selectedId) select(runId);
});

const table = createRunsTable($('runs'), $('runs-empty'), select);
const detail = createRunDetail($('run-detail'), { onChanged: () => poke() });
const runMap = createRunMap(L, $('map'));
const story = createRunStory($('run-story'));
const workersPanel = createWorkersPanel($('workers'), $('queues'));
setText($('stack'), `local stack · ${location.host}`);
// A deployed stage (`geohub console`): its name in the header; its workers are Fargate tasks.
getJson('/api/target')
  .then((target) => {
    if (target.kind !== 'stage') return;
    setText($('stack'), `stage ${target.stage} · ${target.region} · ${location.host}`);
    workersPanel.onFargate();
  })
  .catch(() => {});

const selectedRun = () => state.runs.find((r) => r.runId === state.selectedId);

function render() {
  table.render(state.runs, state.selectedId);
  detail.render(selectedRun(), state.queues);
  story.render(selectedRun(), state.story, state.detail);
}

/**
 * The story when the run changes, every few polls while it runs, and a few times after its last
 * change (the outputs and the final look of its tiles land just after the status).
 */
async function refreshStory(run) {
  if (!run) return;
  const version = `${run.runId} ${run.status} ${run.updatedAt}`;
  const changedRun = state.story?.runId !== run.runId;
  if (version !== state.storyVersion) {
    state.storyVersion = version;
    state.storyFetches = 0;
  }
  const due =
    changedRun || (state.polls % STORY_EVERY === 0 && (isActive(run) || state.storyFetches < SETTLE_POLLS));
  if (!due) return;
  state.storyFetches += 1;
  const [fetched, detail] = await Promise.all([
    getJson(`${runPath(run.runId)}/story`),
    getJson(runPath(run.runId)),
  ]);
  if (state.selectedId !== run.runId) return;
  state.story = fetched;
  state.detail = detail;
  story.render(run, fetched, detail);
  runMap.setLook(fetched.look, !isActive(run));
}

/** Loads the geometry when the run or its sub-tile count changed; otherwise polls states only. */
async function refreshMap(run) {
  if (!run) {
    const note = state.runs.length > 0 ? 'select a run' : 'no runs yet';
    if (state.emptyNote !== note) runMap.empty(note);
    state.emptyNote = note;
    return;
  }
  state.emptyNote = undefined;
  const loaded = runMap.loaded;
  if (!loaded || loaded.runId !== run.runId || loaded.total !== run.counters.total) {
    const collection = await getJson(`${runPath(run.runId)}/tiles.geojson`);
    if (state.selectedId !== run.runId) return;
    if (collection.features.length === 0) runMap.empty(collection.note);
    else runMap.show(run.runId, collection);
    state.mapVersion = `${run.runId} ${run.status} ${run.updatedAt}`;
    state.settlePolls = 0;
    return;
  }
  const version = `${run.runId} ${run.status} ${run.updatedAt}`;
  if (version !== state.mapVersion) {
    state.mapVersion = version;
    state.settlePolls = 0;
  }
  if (!isActive(run) && state.settlePolls >= SETTLE_POLLS) return;
  state.settlePolls += 1;
  const polled = await getJson(`${runPath(run.runId)}/tile-states`);
  if (state.selectedId === run.runId && !runMap.update(polled))
    runMap.show(run.runId, await getJson(`${runPath(run.runId)}/tiles.geojson`));
}

async function poll() {
  const [runs, workers, queues] = await Promise.all([
    getJson('/api/runs'),
    getJson('/api/workers'),
    getJson('/api/queues'),
  ]);
  state.runs = runs;
  state.queues = queues;
  // Nothing chosen yet (or the chosen run is not on this stack): show the newest run.
  if (!selectedRun() && runs.length > 0) state.selectedId = runs[0].runId;
  render();
  workersPanel.renderWorkers(workers);
  workersPanel.renderQueues(queues);
  await refreshMap(selectedRun());
  await refreshStory(selectedRun());
  state.polls += 1;
}

/** Starts the next poll now instead of at the end of the pause (after a click). */
function poke() {
  state.wakeUp?.();
}

async function loop() {
  const connection = $('connection');
  for (;;) {
    try {
      await poll();
      setText(connection, `live · updated ${new Date().toLocaleTimeString('en-GB', { hour12: false })}`);
      setClass(connection, 'connection ok');
    } catch (error) {
      setText(connection, `disconnected: ${error.message}`);
      setClass(connection, 'connection down');
    }
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      state.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

void loop();
