/** CloudFormation's intrinsic functions and the pseudo parameters a Ref may name. */
export const PSEUDO_PARAMETERS = new Set([
  'AWS::AccountId',
  'AWS::NotificationARNs',
  'AWS::NoValue',
  'AWS::Partition',
  'AWS::Region',
  'AWS::StackId',
  'AWS::StackName',
  'AWS::URLSuffix',
]);

/** `{ "Ref": … }` or `{ "Fn::…": … }`: a value CloudFormation computes at deploy time. */
export function intrinsicOf(value: unknown): { name: string; argument: unknown } | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const name = keys[0]!;
  if (name !== 'Ref' && name !== 'Condition' && !name.startsWith('Fn::')) return undefined;
  return { name, argument: (value as Record<string, unknown>)[name] };
}

/** The `${Name}` and `${Name.Attribute}` an Fn::Sub string refers to (`${!Literal}` is text). */
export function subReferences(text: string): string[] {
  return [...text.matchAll(/\$\{([^}]+)\}/g)].map((m) => m[1]!.trim()).filter((n) => !n.startsWith('!'));
}
