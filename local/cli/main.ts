import { Command, CommanderError } from 'commander';
import { markPhase, markProcessStart } from '../../lib/log/phase-marks.js';
import { CliError } from './cli-error.js';
import { registerConsole } from './commands/console.js';
import { registerControl } from './commands/control.js';
import { registerCost } from './commands/cost.js';
import { registerPlan } from './commands/plan.js';
import { registerRun } from './commands/run.js';
import { registerSubmit } from './commands/submit.js';
import { registerUp } from './commands/up.js';
import type { CliIo } from './io.js';

export function buildProgram(io: CliIo): Command {
  const program = new Command('geohub')
    .description(
      'Orchestration hub for geospatial tile jobs: GDAL and PDAL on SQS, Step Functions and Fargate Spot',
    )
    .option('--verbose', 'stack traces with errors; worker logs on stderr')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    });
  registerRun(program, io);
  registerUp(program, io);
  registerSubmit(program, io);
  registerControl(program, io);
  registerConsole(program, io);
  registerPlan(program, io);
  registerCost(program, io);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Runs the CLI; returns the exit code instead of exiting, so tests can call it. */
export async function main(
  argv: readonly string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env, exitCode: 0 },
): Promise<number> {
  markProcessStart('cli');
  markPhase('cli: code loaded');
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    markPhase('cli: done');
    return io.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const verbose = argv.includes('--verbose');
    const message = error instanceof Error ? error.message : String(error);
    const text = verbose && error instanceof Error && error.stack ? error.stack : `geohub: ${message}`;
    io.stderr.write(`${text}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}

export { installCrashGuards } from './crash-guards.js';
