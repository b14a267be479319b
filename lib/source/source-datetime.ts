/**
 * A source's own date, where its format records one (docs/architecture.md, "Finalize and
 * outputs"): the STAC items of its tiles carry it as `datetime`. Anything that is not a
 * plausible date is no date: the run's date stands in, said as such.
 */

/** Placeholder dates (LAS files written with year 0 or 1, TIFFs with 0000:00:00) are not dates. */
const EARLIEST_YEAR = 1900;

/**
 * TIFF's DateTime tag (306, GDAL's TIFFTAG_DATETIME): "YYYY:MM:DD HH:MM:SS", local time of
 * unknown zone by the TIFF 6.0 definition; read as UTC, the only zone a STAC datetime can state.
 */
export function tiffDatetime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC rolls 2021:02:30 into March: a date that does not round-trip is not a date.
  if (
    year < EARLIEST_YEAR ||
    at.getUTCMonth() !== month - 1 ||
    at.getUTCDate() !== day ||
    at.getUTCHours() !== hour ||
    at.getUTCMinutes() !== minute ||
    at.getUTCSeconds() !== second
  )
    return undefined;
  return at.toISOString().replace('.000Z', 'Z');
}

/**
 * The LAS public header's File Creation Day of Year (1-based) and Year: the day the file was
 * made (LAS 1.0–1.4, COPC alike), at midnight UTC.
 */
export function lasCreationDate(dayOfYear: number, year: number): string | undefined {
  if (!Number.isInteger(year) || !Number.isInteger(dayOfYear) || year < EARLIEST_YEAR || dayOfYear < 1)
    return undefined;
  const at = new Date(Date.UTC(year, 0, dayOfYear));
  if (at.getUTCFullYear() !== year) return undefined;
  return at.toISOString().replace('.000Z', 'Z');
}
