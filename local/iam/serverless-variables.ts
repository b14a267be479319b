import { PolicySourceError } from './errors.js';

/** What `osls package --stage <stage> --region <region>` fills serverless variables with. */
export interface PackageVariables {
  readonly stage: string;
  readonly region: string;
}

interface ServerlessDoc {
  readonly service?: string;
  readonly custom?: Record<string, unknown>;
  readonly params?: { default?: Record<string, unknown> };
}

/**
 * Resolves the Serverless Framework variables of a part of serverless.yml as packaging does
 * (`${self:…}`, `${sls:stage}`, `${param:…}`, `${opt:…, default}`, `${aws:region}`), leaving
 * CloudFormation's own `${AWS::…}` and `${Logical.Attr}` to CloudFormation (./intrinsics.ts).
 * A variable it does not know is an error, never left half resolved.
 */
export function resolveServerlessVariables<T>(value: T, doc: unknown, vars: PackageVariables): T {
  const d = doc as ServerlessDoc;
  const lookup = (name: string, depth: number): unknown => {
    const [source, ...rest] = name.split(':');
    const path = rest.join(':').trim();
    switch (source?.trim()) {
      case 'sls':
        if (path === 'stage') return vars.stage;
        break;
      case 'opt': {
        const [option, fallback] = path.split(',').map((s) => s.trim());
        if (option === 'stage') return vars.stage;
        if (option === 'region') return vars.region;
        if (fallback) return fallback.replace(/^['"]|['"]$/g, '');
        break;
      }
      case 'aws':
        if (path === 'region') return vars.region;
        break;
      case 'param':
        if (d.params?.default?.[path] !== undefined) return d.params.default[path];
        break;
      case 'self': {
        const found = path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], d);
        if (found !== undefined) return walk(found, depth + 1);
        break;
      }
    }
    throw new PolicySourceError(`unsupported serverless variable \${${name}}`);
  };
  const resolveString = (text: string, depth: number): unknown => {
    if (depth > 10) throw new PolicySourceError(`serverless variables nest too deep in ${text}`);
    // A whole-string variable keeps its value's type (a number, an object).
    const whole = /^\$\{([a-z]+:[^}]+)\}$/.exec(text);
    if (whole) return lookup(whole[1]!, depth);
    return text.replace(/\$\{([a-z]+:[^}]+)\}/g, (_, name: string) => String(lookup(name, depth)));
  };
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return resolveString(v, depth);
    if (Array.isArray(v)) return v.map((x) => walk(x, depth));
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth)]));
    return v;
  };
  return walk(value, 0) as T;
}
