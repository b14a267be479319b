import type { Command } from 'commander';
import { type CliIo, intOption } from '../io.js';
import type { ConsoleOptions } from '../serve-console.js';

/** Where `geohub console` listens unless told: beside `geohub up`'s 4747. */
const CONSOLE_PORT = 4748;

export function registerConsole(program: Command, io: CliIo): void {
  program
    .command('console')
    .description('the run-control page for a deployed stage, on 127.0.0.1, with your AWS credentials')
    .requiredOption('--stage <name>', 'the deployed stage (its CloudFormation stack geohub-<name>)')
    .option('--region <region>', "the stage's region (default: AWS_REGION, or the profile's)")
    .option('--profile <name>', 'the AWS profile (default: AWS_PROFILE, then the SDK chain)')
    .option(
      '--port <p>',
      'port of the page on 127.0.0.1 (0: any free one)',
      intOption(0, 65_535),
      CONSOLE_PORT,
    )
    .option('--json', 'print one JSON object on stdout once ready')
    // The page's server and the SDK clients load only for this command.
    .action(async (opts: ConsoleOptions) => (await import('../serve-console.js')).serveConsole(opts, io));
}
