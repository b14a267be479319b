import { describe, expect, it } from 'vitest';
import { chooseGroundSelection } from '../../../../lib/pointcloud/choose-ground-selection.js';

const histogram = (counts: Record<number, number>) => {
  const h = new Array<number>(256).fill(0);
  for (const [c, n] of Object.entries(counts)) h[Number(c)] = n;
  return h;
};

describe('chooseGroundSelection', () => {
  it('keeps the ground class whenever the neighbourhood has any', () => {
    expect(chooseGroundSelection(histogram({ 1: 500, 2: 1, 6: 40 }))).toBe('ground');
  });

  it('calls points of classes 0 and 1 only unclassified: no classifier ran there', () => {
    expect(chooseGroundSelection(histogram({ 0: 10 }))).toBe('unclassified');
    expect(chooseGroundSelection(histogram({ 0: 3, 1: 7 }))).toBe('unclassified');
  });

  it('gives nothing for classified points without ground: a roof must not become terrain', () => {
    expect(chooseGroundSelection(histogram({ 1: 50, 6: 200 }))).toBe('none');
    expect(chooseGroundSelection(histogram({ 5: 1 }))).toBe('none');
  });

  it('gives nothing when there are no points at all', () => {
    expect(chooseGroundSelection(histogram({}))).toBe('none');
    expect(chooseGroundSelection([])).toBe('none');
  });
});
