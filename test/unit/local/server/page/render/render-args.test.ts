import { describe, expect, it } from 'vitest';
import { renderCommand } from '../../../../../../local/server/page/render/render-args.js';

describe('renderCommand', () => {
  it('translates RGB bands as they are, with the nodata mask as the alpha band', () => {
    expect(renderCommand({ kind: 'rgb', bands: [1, 2, 3], alpha: 'mask' }, 'in.tif', 'out.png')).toEqual({
      file: 'gdal_translate',
      args: ['-q', '-of', 'PNG', '-b', '1', '-b', '2', '-b', '3', '-b', 'mask', 'in.tif', 'out.png'],
    });
  });

  it('keeps an alpha band of the tile instead of the mask', () => {
    const { args } = renderCommand({ kind: 'rgb', bands: [1, 2, 3, 4], alpha: 'band' }, 'in.tif', 'out.png');
    expect(args).not.toContain('mask');
    expect(args.filter((a) => a === '-b')).toHaveLength(4);
  });

  it('shades a terrain model with gdaldem, edges included', () => {
    const { file, args } = renderCommand({ kind: 'hillshade' }, 'in.tif', 'out.png');
    expect(file).toBe('gdaldem');
    expect(args[0]).toBe('hillshade');
    expect(args).toContain('-compute_edges');
    expect(args.slice(-2)).toEqual(['in.tif', 'out.png']);
  });

  it('colours one band with the run colour file, nodata transparent, and needs that file', () => {
    const { file, args } = renderCommand({ kind: 'ramp' }, 'in.tif', 'out.png', 'ramp.txt');
    expect(file).toBe('gdaldem');
    expect(args[0]).toBe('color-relief');
    expect(args).toContain('-alpha');
    expect(args.slice(-3)).toEqual(['in.tif', 'ramp.txt', 'out.png']);
    expect(() => renderCommand({ kind: 'ramp' }, 'in.tif', 'out.png')).toThrow(/colour file/);
  });
});
