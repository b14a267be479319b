/** An axis-aligned box [minX, minY, maxX, maxY]; a tuple so it travels compactly as JSON. */
export type Bbox = readonly [minX: number, minY: number, maxX: number, maxY: number];

export type Point = readonly [x: number, y: number];

/** The smallest box holding every finite point; undefined when there is none. */
export function bboxOfPoints(points: Iterable<Point>): Bbox | undefined {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const [x, y] of points) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return minX <= maxX ? [minX, minY, maxX, maxY] : undefined;
}

/** The four corners of a box as a closed-ring order (counter-clockwise from the lower left). */
export function bboxCorners(bbox: Bbox): Point[] {
  const [minX, minY, maxX, maxY] = bbox;
  return [
    [minX, minY],
    [maxX, minY],
    [maxX, maxY],
    [minX, maxY],
  ];
}

/** A box as a GeoJSON polygon: one closed ring, counter-clockwise (RFC 7946's exterior ring). */
export function bboxPolygon(bbox: Bbox) {
  const corners = bboxCorners(bbox);
  return { type: 'Polygon' as const, coordinates: [[...corners, corners[0]!]] };
}

/** True when the box has a positive area (a line or a point covers no tile). */
export function hasArea(bbox: Bbox): boolean {
  return bbox[2] > bbox[0] && bbox[3] > bbox[1];
}

/** The box holding every one of these boxes (none: an empty box at the origin). */
export function unionBbox(boxes: readonly Bbox[]): Bbox {
  if (boxes.length === 0) return [0, 0, 0, 0];
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}
