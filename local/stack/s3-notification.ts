import { decodeEventKey } from '../../lib/trigger/s3-event.js';
import { ResourceDefinitionError } from './errors.js';

/**
 * One notification of the bucket, as serverless.yml's NotificationConfiguration declares it:
 * the event types it sends (`s3:ObjectCreated:*`) and the keys it covers (prefix, suffix).
 */
export interface NotificationRule {
  readonly event: string;
  readonly prefix?: string;
  readonly suffix?: string;
}

interface LambdaConfiguration {
  Event?: unknown;
  Filter?: { S3Key?: { Rules?: { Name?: unknown; Value?: unknown }[] } };
}

/**
 * The bucket's Lambda notifications. Only those are modelled: a queue, topic or EventBridge
 * notification is refused rather than silently never sent.
 */
export function readNotifications(configuration: unknown): NotificationRule[] {
  if (configuration === undefined) return [];
  const { LambdaConfigurations = [], ...others } = configuration as {
    LambdaConfigurations?: LambdaConfiguration[];
  };
  const unmodelled = Object.keys(others);
  if (unmodelled.length > 0) {
    throw new ResourceDefinitionError(
      `the local stack models Lambda notifications only, not ${unmodelled.join(', ')}`,
    );
  }
  return LambdaConfigurations.map((c) => {
    if (typeof c.Event !== 'string' || !c.Event.startsWith('s3:')) {
      throw new ResourceDefinitionError(
        `a bucket notification's Event must be an s3: event type, not ${String(c.Event)}`,
      );
    }
    const rule: { event: string; prefix?: string; suffix?: string } = { event: c.Event };
    for (const { Name, Value } of c.Filter?.S3Key?.Rules ?? []) {
      const name = String(Name).toLowerCase();
      if ((name !== 'prefix' && name !== 'suffix') || typeof Value !== 'string' || name in rule) {
        throw new ResourceDefinitionError(
          `a bucket notification's key filter takes one prefix and one suffix, not ${String(Name)}`,
        );
      }
      // S3 takes a filter value's special characters URL-encoded; the key they match is not.
      rule[name] = decodeEventKey(Value);
    }
    return rule;
  });
}

/**
 * Whether the bucket sends an event of this type (`ObjectCreated:Put`, as a record names it) for
 * this key (as stored, not URL-encoded): S3's rule, an event type or its `*` family, the key
 * starting with the prefix and ending with the suffix, case-sensitive.
 */
export function notifies(rules: readonly NotificationRule[], eventName: string, key: string): boolean {
  const event = `s3:${eventName}`;
  return rules.some(
    (r) =>
      (r.event.endsWith(':*') ? event.startsWith(r.event.slice(0, -1)) : event === r.event) &&
      key.startsWith(r.prefix ?? '') &&
      key.endsWith(r.suffix ?? ''),
  );
}
