import type { OperationName } from '../model/run.js';
import type { TileTask } from '../model/tile.js';
import type { RunProcessResult } from '../process/run-process.js';
import type { TileCoord } from '../tiling/tile-coord.js';

export interface ToolRunOptions {
  /** The sub-tiles this invocation makes, when fewer than the whole unit's (tool work is counted by sub-tile). */
  readonly tiles?: readonly TileTask[];
  /** The tool's input, on its stdin: a tool that takes it there may be started ahead of need. */
  readonly input?: string;
}

/** Runs one tool invocation with the attempt's budget, cancellation and environment already bound. */
export interface ToolRunner {
  run(file: string, args: readonly string[], options?: ToolRunOptions): Promise<RunProcessResult>;
}

/**
 * What a tool reads: a local path or a /vsis3/ path, or a collection's members under the work
 * (local copies, in the collection's order: a later member wins where they overlap).
 */
export type ToolSource = string | readonly string[];

export interface OperationContext {
  readonly source: ToolSource;
  readonly tile: TileTask;
  readonly params: Readonly<Record<string, unknown>>;
  /** Where the tile must be written (a .part path; promoted by the caller). */
  readonly output: string;
  /** A private scratch directory for intermediate files, removed by the caller. */
  readonly scratch: string;
}

/** A block of tiles made by one tool process (a metatile). */
export interface BlockContext {
  readonly source: ToolSource;
  /**
   * A lower level's children: the tile each source path is (display tiles carry no
   * georeferencing of their own: the engine is told where each lies).
   */
  readonly sourceTiles?: readonly TileCoord[];
  /** Each tile and the .part path it must be written to (promoted by the caller). */
  readonly tiles: readonly { readonly tile: TileTask; readonly output: string }[];
  readonly params: Readonly<Record<string, unknown>>;
  readonly scratch: string;
  /** The metatile engine: interpreter and script; it reads the block's spec on stdin. */
  readonly engine: { readonly file: string; readonly args: readonly string[] };
}

/** One kind of sub-tile work: produces the tile at ctx.output with real tools. */
export interface Operation {
  readonly name: OperationName;
  execute(ctx: OperationContext, tools: ToolRunner): Promise<void>;
  /** Makes every tile of a block in as few processes as it can; absent: one `execute` per tile. */
  executeBlock?(ctx: BlockContext, tools: ToolRunner): Promise<void>;
}
