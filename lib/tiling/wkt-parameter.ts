/** The value of a WKT1 PARAMETER["name", value], or undefined when the WKT has none. */
export function wktParameter(wkt: string, name: string): number | undefined {
  const match = new RegExp(`PARAMETER\\s*\\[\\s*"${name}"\\s*,\\s*([-+0-9.eE]+)\\s*\\]`, 'i').exec(wkt);
  return match ? Number(match[1]) : undefined;
}
