import { PolicySourceError } from './errors.js';

/** A resource's Ref value, or one attribute (`Arn`, `Name`…), on the stack the template is resolved for. */
export type ResourceValue = (logicalId: string, attribute?: string) => string;

const PSEUDO = (pseudo: Readonly<Record<string, string>>, name: string) => {
  const value = pseudo[name];
  if (value === undefined) throw new PolicySourceError(`unknown pseudo parameter ${name}`);
  return value;
};

/**
 * Resolves CloudFormation's intrinsic functions in a policy (Ref, Fn::GetAtt, Fn::Sub, Fn::Join)
 * as CloudFormation would on a stack whose resources `value` names and whose pseudo parameters
 * (`AWS::AccountId`, `AWS::Region`, `AWS::Partition`…) are `pseudo`.
 */
export function resolveIntrinsics(
  input: unknown,
  resourceValue: ResourceValue,
  pseudo: Readonly<Record<string, string>>,
): unknown {
  const ref = (name: string) => (name.startsWith('AWS::') ? PSEUDO(pseudo, name) : resourceValue(name));
  const sub = (template: string, locals: Record<string, unknown>) =>
    template.replace(/\$\{([^}!][^}]*)\}/g, (_, name: string) => {
      if (locals[name] !== undefined) return String(walk(locals[name]));
      if (name.startsWith('AWS::')) return PSEUDO(pseudo, name);
      const [id, attribute] = name.split('.');
      return attribute ? resourceValue(id!, attribute) : resourceValue(id!);
    });
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1) {
      const [key] = keys as [string];
      const arg = o[key];
      switch (key) {
        case 'Ref':
          return ref(String(arg));
        case 'Fn::GetAtt': {
          const [id, attribute] = Array.isArray(arg) ? arg : String(arg).split('.');
          return resourceValue(String(id), String(attribute));
        }
        case 'Fn::Sub':
          return Array.isArray(arg)
            ? sub(String(arg[0]), (arg[1] ?? {}) as Record<string, unknown>)
            : sub(String(arg), {});
        case 'Fn::Join': {
          const [separator, parts] = arg as [string, unknown[]];
          return (walk(parts) as unknown[]).map(String).join(separator);
        }
      }
      if (key.startsWith('Fn::')) throw new PolicySourceError(`${key} is not resolved in policies`);
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, walk(x)]));
  };
  return walk(input);
}
