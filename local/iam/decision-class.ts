import type { Need } from './api-call.js';

/**
 * An object's ARN whose key the evaluator reads only through the policy's patterns: a bucket
 * name as S3 allows it, a non-empty key without the characters the evaluator gives a meaning
 * (`*` and `?` make a request a pattern, a dollar sign a variable, `:` another ARN segment).
 */
const OBJECT_ARN = /^arn:([a-z-]+):s3:::([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/([^:*?$]+)$/;

/** A policy resource whose match with an object ARN depends only on the key, as a wildcard. */
function isSimplePattern(pattern: unknown): pattern is string {
  if (pattern === '*') return true;
  if (typeof pattern !== 'string' || pattern.includes('${')) return false;
  const segments = pattern.split(':');
  // A short ARN is padded or refused by the evaluator; a wildcard in its partition or service
  // may name S3 in ways a key-only match would not see.
  if (segments.length < 6 || segments[0] !== 'arn' || /[*?]/.test(`${segments[1]}${segments[2]}`))
    return false;
  if (segments[2] !== 's3') return true; // another service: never an object of a bucket
  return /^arn:[^:*?]+:s3:::[^/*?:]+(\/.*)?$/.test(pattern);
}

/** IAM's wildcards as a regular expression: `*` any run of characters, `?` any one. */
function wildcard(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(['^', escaped, '$'].join(''), 's');
}

/**
 * The key under which a need's decision is kept: needs of one class are decided alike. A run
 * writes each tile under its own key, so deciding each object's ARN anew is a simulation per
 * tile (most of the local S3 front door's CPU) and a cache that grows with every tile a
 * long-lived `geohub up` writes. Two object ARNs of one bucket and action that every Resource
 * and NotResource pattern of the policy matches alike are decided alike by the evaluator: the
 * request context holds no key of the object, and the object's resource type is the same for
 * every key. The partition is finer than the evaluator's (case-sensitive matching, the bucket
 * kept whole), never coarser; a policy with a pattern outside that reasoning (a variable, a
 * wildcard in a bucket name or a service) keeps one class per ARN.
 */
export function decisionClasses(
  statements: readonly Readonly<Record<string, unknown>>[],
): (need: Need) => string {
  const patterns = [...new Set(statements.flatMap((s) => [s.Resource ?? [], s.NotResource ?? []].flat()))];
  const simple = patterns.every(isSimplePattern);
  const matchers = simple ? (patterns as string[]).map(wildcard) : [];
  return (need) => {
    const object = simple ? OBJECT_ARN.exec(need.resource) : null;
    if (!object) return `${need.action}|${need.resource}`;
    const signature = matchers.map((m) => (m.test(need.resource) ? '1' : '0')).join('');
    return `${need.action}|arn:${object[1]}:s3:::${object[2]}/…|${signature}`;
  };
}
