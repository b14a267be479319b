/** Index just past the bracket that closes the node opening at `open` ('['), ignoring quoted text. */
function closingIndex(wkt: string, open: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < wkt.length; i += 1) {
    const c = wkt[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '[' || c === '(')) depth += 1;
    else if (!quoted && (c === ']' || c === ')')) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

const COMPOUND = /^\s*(COMPD_CS|COMPOUNDCRS)\s*[[(]/i;
const HORIZONTAL = /\b(PROJCS|GEOGCS|PROJCRS|PROJECTEDCRS|GEOGCRS|GEOGRAPHICCRS)\s*[[(]/gi;

/**
 * The horizontal part of a WKT definition. LAS files often carry a compound CRS (horizontal +
 * vertical), which proj4 cannot parse; only the horizontal component matters for a footprint.
 */
export function horizontalWkt(wkt: string): string {
  const text = wkt.replace(/\0+$/, '').trim();
  if (!COMPOUND.test(text)) return text;
  HORIZONTAL.lastIndex = text.indexOf('[') + 1;
  const match = HORIZONTAL.exec(text);
  if (!match) return text;
  const open = match.index + match[0].length - 1;
  const end = closingIndex(text, open);
  return end > 0 ? text.slice(match.index, end) : text;
}
