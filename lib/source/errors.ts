import { GeohubError } from '../errors/geohub-error.js';

/** Any failure to read a source's header: every one names the object and what was wrong. */
export abstract class SourceError extends GeohubError {}

/** The source object does not exist (or is not visible to us). */
export class SourceNotFoundError extends SourceError {
  override readonly name = 'SourceNotFoundError';
}

/** The source object has no bytes at all. */
export class EmptySourceError extends SourceError {
  override readonly name = 'EmptySourceError';
}

/** The bytes are neither a (Big)TIFF nor a LAS/LAZ file, whatever the name says. */
export class UnrecognisedFormatError extends SourceError {
  override readonly name = 'UnrecognisedFormatError';
}

/** The file ends before its own header says it does (an interrupted upload or copy). */
export class TruncatedSourceError extends SourceError {
  override readonly name = 'TruncatedSourceError';
}

/** The header is present but does not parse: the file is damaged or is not what its magic says. */
export class CorruptHeaderError extends SourceError {
  override readonly name = 'CorruptHeaderError';
}

/** The header parses but claims something no real file has (10^9 × 10^9 pixels, NaN bounds, …). */
export class ImplausibleHeaderError extends SourceError {
  override readonly name = 'ImplausibleHeaderError';
}

/** A valid file of a kind geohub does not process (GCP georeferencing, …). */
export class UnsupportedSourceError extends SourceError {
  override readonly name = 'UnsupportedSourceError';
}

/** The object store failed while we read the header (network, throttling): worth a retry. */
export class SourceReadError extends SourceError {
  override readonly name = 'SourceReadError';
}
