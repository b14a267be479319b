import type { ProcessInfo } from './process-table.js';

/**
 * The processes geohub's operations start, by the kernel's command name (at most 15
 * characters): GDAL's tools and the metatile engine (`gdal…`, `gdal-metatile`), OGR's, PDAL,
 * and the point-cloud extractor (`geohub-pointcloud-…` shows as `geohub-pointclo`). The one list
 * the worker's self-check, the page's debris check and the leftover check share.
 */
const TOOL_COMMAND = /^(gdal|ogr2ogr|ogrinfo|pdal|geohub-pointclo)/;

/** A live (not zombie) tool process. */
export function isToolProcess(p: Pick<ProcessInfo, 'command' | 'state'>): boolean {
  return p.state !== 'Z' && TOOL_COMMAND.test(p.command);
}
