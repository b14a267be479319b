import type { PropertyType, ResourceProperties } from '@aws-cdk/service-spec-types';
import { intrinsicOf } from './intrinsics.js';
import type { CfnSpec } from './spec.js';

/** What an intrinsic evaluates to, as far as a type check can tell without deploying. */
function intrinsicShape(name: string, argument: unknown): 'string' | 'list' | 'unknown' {
  if (name === 'Ref') return argument === 'AWS::NotificationARNs' ? 'list' : 'string';
  if (['Fn::Join', 'Fn::Sub', 'Fn::Base64', 'Fn::ImportValue'].includes(name)) return 'string';
  if (['Fn::GetAZs', 'Fn::Split', 'Fn::Cidr'].includes(name)) return 'list';
  return 'unknown';
}

const isInteger = (v: unknown) =>
  (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^-?\d+$/.test(v));
const isNumber = (v: unknown) =>
  (typeof v === 'number' && Number.isFinite(v)) ||
  (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks one value against its type in the spec, as CloudFormation converts scalars: a number
 * or boolean passes for a string, a numeric string for a number, "true"/"false" for a boolean.
 * Appends one line per problem to `problems`.
 */
export function checkValue(
  spec: CfnSpec,
  value: unknown,
  type: PropertyType,
  path: string,
  problems: string[],
): void {
  if (type.type === 'union') {
    // A union passes if any one member passes.
    const attempts = type.types.map((member) => {
      const found: string[] = [];
      checkValue(spec, value, member, path, found);
      return found;
    });
    if (!attempts.some((a) => a.length === 0)) problems.push(...attempts[0]!);
    return;
  }
  const intrinsic = intrinsicOf(value);
  if (intrinsic) {
    if (intrinsic.name === 'Fn::If' && Array.isArray(intrinsic.argument)) {
      for (const branch of intrinsic.argument.slice(1)) checkValue(spec, branch, type, path, problems);
      return;
    }
    const shape = intrinsicShape(intrinsic.name, intrinsic.argument);
    const wantsList = type.type === 'array';
    const wantsScalar = ['string', 'integer', 'number', 'boolean', 'date-time'].includes(type.type);
    if (
      (shape === 'string' && (wantsList || type.type === 'map' || type.type === 'ref')) ||
      (shape === 'list' && wantsScalar)
    )
      problems.push(`${path}: ${intrinsic.name} gives a ${shape}, the spec wants ${type.type}`);
    return;
  }
  const wrong = (what: string) =>
    problems.push(`${path}: ${JSON.stringify(value)?.slice(0, 80)} is not ${what}`);
  switch (type.type) {
    case 'string':
    case 'date-time':
      if (!['string', 'number', 'boolean'].includes(typeof value)) wrong('a string');
      else if (type.type === 'string' && type.allowedValues && !type.allowedValues.includes(String(value)))
        wrong(`one of ${type.allowedValues.join(', ')}`);
      return;
    case 'integer':
      if (!isInteger(value)) wrong('an integer');
      return;
    case 'number':
      if (!isNumber(value)) wrong('a number');
      return;
    case 'boolean':
      if (typeof value !== 'boolean' && value !== 'true' && value !== 'false') wrong('a boolean');
      return;
    case 'json':
      if (!isObject(value) && !Array.isArray(value) && typeof value !== 'string') wrong('JSON');
      return;
    case 'null':
      return;
    case 'tag':
      if (!isObject(value)) {
        wrong('a tag');
        return;
      }
      checkProperties(
        spec,
        value,
        {
          Key: { type: { type: 'string' }, required: true },
          Value: { type: { type: 'string' }, required: true },
        },
        path,
        problems,
      );
      return;
    case 'array':
      if (!Array.isArray(value)) {
        wrong('a list');
        return;
      }
      for (const [i, v] of value.entries()) checkValue(spec, v, type.element, `${path}[${i}]`, problems);
      return;
    case 'map':
      if (!isObject(value)) {
        wrong('a map');
        return;
      }
      for (const [k, v] of Object.entries(value)) checkValue(spec, v, type.element, `${path}.${k}`, problems);
      return;
    case 'ref': {
      if (!isObject(value)) {
        wrong('an object');
        return;
      }
      checkProperties(spec, value, spec.typeDefinition(type).properties, path, problems);
      return;
    }
  }
}

/** Every property known, every required one present, each of the right type. */
export function checkProperties(
  spec: CfnSpec,
  given: Record<string, unknown>,
  known: ResourceProperties,
  path: string,
  problems: string[],
): void {
  for (const [name, property] of Object.entries(known)) {
    if (property.required && !(name in given)) problems.push(`${path}: required property ${name} is missing`);
  }
  for (const [name, value] of Object.entries(given)) {
    const property = known[name];
    if (!property) {
      problems.push(`${path}: unknown property ${name}`);
      continue;
    }
    checkValue(spec, value, property.type, `${path}.${name}`, problems);
  }
}
