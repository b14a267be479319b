import { intrinsicOf, PSEUDO_PARAMETERS, subReferences } from './intrinsics.js';
import type { CfnSpec } from './spec.js';

export interface CfnTemplate {
  readonly Parameters?: Record<string, unknown>;
  readonly Conditions?: Record<string, unknown>;
  readonly Resources: Record<
    string,
    { Type: string; Properties?: unknown; DependsOn?: string | string[]; Condition?: string }
  >;
  readonly Outputs?: Record<string, unknown>;
}

/**
 * Resolves every Ref, Fn::GetAtt and Fn::Sub reference under `value` as CloudFormation does
 * at create time: a Ref names a resource, a parameter or a pseudo parameter; a GetAtt names
 * an attribute the spec lists for that resource's type. Calls `onResource` with each resource
 * referred to (the edges of the dependency graph).
 */
export function checkReferences(
  spec: CfnSpec,
  template: CfnTemplate,
  value: unknown,
  path: string,
  problems: string[],
  onResource: (logicalId: string) => void = () => {},
  locals: ReadonlySet<string> = new Set(),
): void {
  const ref = (name: string, where: string) => {
    if (locals.has(name) || PSEUDO_PARAMETERS.has(name) || template.Parameters?.[name] !== undefined) return;
    if (template.Resources[name]) {
      onResource(name);
      return;
    }
    problems.push(`${where}: Ref ${name} names no resource, parameter or pseudo parameter`);
  };
  const getAtt = (id: string, attribute: string, where: string) => {
    const target = template.Resources[id];
    if (!target) {
      problems.push(`${where}: GetAtt ${id}.${attribute}: no resource ${id}`);
      return;
    }
    onResource(id);
    if (target.Type.startsWith('Custom::') || target.Type === 'AWS::CloudFormation::CustomResource') return;
    const attributes = spec.resource(target.Type)?.attributes ?? {};
    if (!(attribute in attributes))
      problems.push(`${where}: GetAtt ${id}.${attribute}: ${target.Type} has no attribute ${attribute}`);
  };

  if (Array.isArray(value)) {
    for (const [i, v] of value.entries())
      checkReferences(spec, template, v, `${path}[${i}]`, problems, onResource, locals);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const intrinsic = intrinsicOf(value);
  if (intrinsic?.name === 'Ref') {
    ref(String(intrinsic.argument), path);
    return;
  }
  if (intrinsic?.name === 'Fn::GetAtt') {
    const [id, ...rest] = Array.isArray(intrinsic.argument)
      ? (intrinsic.argument as string[])
      : String(intrinsic.argument).split('.');
    getAtt(String(id), rest.join('.'), path);
    return;
  }
  if (intrinsic?.name === 'Fn::Sub') {
    const [text, variables] = Array.isArray(intrinsic.argument)
      ? (intrinsic.argument as [string, Record<string, unknown>?])
      : [String(intrinsic.argument), undefined];
    const names = new Set([...locals, ...Object.keys(variables ?? {})]);
    if (variables)
      checkReferences(spec, template, variables, `${path}.Fn::Sub[1]`, problems, onResource, locals);
    for (const name of subReferences(String(text))) {
      const dot = name.indexOf('.');
      if (names.has(name)) continue;
      if (dot > 0 && !PSEUDO_PARAMETERS.has(name))
        getAtt(name.slice(0, dot), name.slice(dot + 1), `${path}.Fn::Sub`);
      else ref(name, `${path}.Fn::Sub`);
    }
    return;
  }
  for (const [k, v] of Object.entries(value))
    checkReferences(spec, template, v, `${path}.${k}`, problems, onResource, locals);
}
