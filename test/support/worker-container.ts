import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { spawnWorker, type WorkerHandle } from './worker-harness.js';

/** The image `npm run image` builds (scripts/image.sh). */
export const WORKER_IMAGE = process.env.GEOHUB_IMAGE ?? 'localhost/geohub-worker:latest';

export interface WorkerContainer extends WorkerHandle {
  readonly name: string;
}

/**
 * The worker image run as Fargate runs it: its own entrypoint (tini → node), as nobody, with a
 * read-only root filesystem and a tmpfs scratch, on the host's network so that the local stack's
 * endpoints are the container's too. Attached: its log lines come back through podman, and a
 * signal sent to the podman process is sent on to the container (--sig-proxy, podman's default).
 */
export function startWorkerContainer(env: Readonly<Record<string, string>>): WorkerContainer {
  const name = `geohub-worker-test-${randomUUID().slice(0, 8)}`;
  // Only the stack's and the test's settings cross into the container, by name (-e KEY takes
  // the value from podman's own environment): never the host's PATH, HOME or scratch.
  const keys = Object.keys(env).filter((k) => k !== 'GEOHUB_SCRATCH_DIR');
  // The test's values win over the harness's quick defaults in podman's environment too; the
  // scratch is the container's tmpfs (named so that the harness makes none on the host). Stop
  // it with removeContainer, never killWorker (which would remove that path on the host).
  const handle = spawnWorker(
    env,
    { ...env, GEOHUB_SCRATCH_DIR: '/scratch' },
    {
      file: 'podman',
      args: [
        'run',
        '--name',
        name,
        '--network',
        'host',
        // Read-only as on Fargate (readonlyRootFilesystem): no tmpfs on /tmp either, which
        // podman would add by default.
        '--read-only',
        '--read-only-tmpfs=false',
        '--tmpfs',
        '/scratch:rw,size=2g',
        // As ECS does: stopTimeout before SIGKILL (docs/deploy.md).
        '--stop-timeout',
        '120',
        ...keys.flatMap((k) => ['-e', k]),
        WORKER_IMAGE,
      ],
      baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      ownPidNamespace: true,
    },
  );
  return { ...handle, name };
}

/** Removes a test's container whatever state it is in (a SIGKILLed podman client leaves it). */
export function removeContainer(name: string): void {
  try {
    execFileSync('podman', ['rm', '--force', '--time', '0', name], { stdio: 'ignore' });
  } catch {
    // already gone
  }
}

/** What podman says of a container: its state and exit code (undefined once removed). */
export function containerState(name: string): { status: string; exitCode: number } | undefined {
  try {
    const out = execFileSync(
      'podman',
      ['inspect', '--format', '{{.State.Status}} {{.State.ExitCode}}', name],
      {
        encoding: 'utf8',
      },
    );
    const [status = '', code = ''] = out.trim().split(' ');
    return { status, exitCode: Number(code) };
  } catch {
    return undefined;
  }
}
