import { TileNotRenderableError } from './errors.js';
import type { RenderStyle } from './render-style.js';

/** The GDAL command (argv, no shell) that draws one tile as a PNG. */
export interface RenderCommand {
  readonly file: string;
  readonly args: readonly string[];
}

/**
 * RGB: the bands as they are, with the nodata mask (or the alpha band) as PNG alpha. Hillshade:
 * light from several directions (legible whatever the slope faces), edges computed so a tile has
 * no dark frame, a vertical exaggeration of 2 for gentle terrain. Ramp: `colourFile` made by
 * colourReliefFile for the run's range.
 */
export function renderCommand(
  style: RenderStyle,
  input: string,
  output: string,
  colourFile?: string,
): RenderCommand {
  switch (style.kind) {
    case 'rgb':
      return {
        file: 'gdal_translate',
        args: [
          '-q',
          '-of',
          'PNG',
          ...style.bands.flatMap((b) => ['-b', String(b)]),
          ...(style.alpha === 'mask' ? ['-b', 'mask'] : []),
          input,
          output,
        ],
      };
    case 'hillshade':
      return {
        file: 'gdaldem',
        args: [
          'hillshade',
          '-q',
          '-of',
          'PNG',
          '-compute_edges',
          '-multidirectional',
          '-z',
          '2',
          input,
          output,
        ],
      };
    case 'ramp':
      if (!colourFile) throw new TileNotRenderableError('a colour ramp needs its colour file');
      return {
        file: 'gdaldem',
        args: ['color-relief', '-q', '-of', 'PNG', '-alpha', '-b', '1', input, colourFile, output],
      };
  }
}
