import { Command, CommanderError } from 'commander';

/** Thrown by a command to end the CLI with one clear line and a chosen exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CliError';
  }
}

export function buildProgram(): Command {
  const program = new Command('geohub')
    .description(
      'Orchestration hub for geospatial tile jobs: GDAL and PDAL on SQS, Step Functions and Fargate Spot',
    )
    .option('--verbose', 'print stack traces with errors')
    .exitOverride();

  program
    .command('run')
    .description('run the main job on the embedded local stack: split <file> into tiles and process them')
    .argument('<file>', 'a raster (GeoTIFF) or point cloud (LAS/LAZ) to process')
    .requiredOption('--out <dir>', 'where to copy the tiles, the mosaic VRT and the STAC collection')
    .option('--zoom <z>', 'XYZ zoom level (default: closest to the source resolution)')
    .option('--workers <n>', 'number of worker processes', '2')
    .option('--json', 'print one JSON summary on stdout')
    .action(() => {
      throw new CliError('geohub run: not implemented yet', 2);
    });
  return program;
}

/** Runs the CLI; returns the exit code instead of exiting, so tests can call it. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const verbose = argv.includes('--verbose');
    if (error instanceof CliError) {
      process.stderr.write(`${verbose && error.stack ? error.stack : error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(
      `${verbose && error instanceof Error ? error.stack : `geohub: ${(error as Error).message}`}\n`,
    );
    return 1;
  }
}
