import { GeohubError } from '../../lib/errors/geohub-error.js';

/** A call the action table does not know: enforcement refuses it rather than guess its actions. */
export class UnknownOperationError extends GeohubError {
  override readonly name = 'UnknownOperationError';
}

/** The template's roles could not be read or resolved to the local stack's resources. */
export class PolicySourceError extends GeohubError {
  override readonly name = 'PolicySourceError';
}

/** What the local stack's IAM refused, as AWS would (AccessDenied for the state machine's tasks). */
export class LocalAccessDeniedError extends GeohubError {
  override readonly name = 'AccessDeniedException';
}
