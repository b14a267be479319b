import { asList } from './as-list.js';
import { checkProperties } from './check-properties.js';
import { type CfnTemplate, checkReferences } from './check-references.js';
import { dependencyCycles } from './dependency-cycles.js';
import { cfnSpec } from './spec.js';

const RESOURCE_KEYS = new Set([
  'Type',
  'Properties',
  'DependsOn',
  'Condition',
  'Metadata',
  'DeletionPolicy',
  'UpdateReplacePolicy',
  'UpdatePolicy',
  'CreationPolicy',
]);

/**
 * What CloudFormation would refuse in a template before creating anything, checked against
 * the resource specification: unknown resource types and properties, missing required
 * properties, values of the wrong type, Refs and GetAtts that resolve to nothing, DependsOn
 * naming no resource, and dependency cycles. One line per problem; none means it passes.
 */
export function checkTemplate(template: CfnTemplate): string[] {
  const spec = cfnSpec();
  const problems: string[] = [];
  const edges = new Map<string, Set<string>>();
  for (const [id, resource] of Object.entries(template.Resources)) {
    const where = `Resources.${id}`;
    const dependsOn = new Set<string>();
    edges.set(id, dependsOn);
    for (const key of Object.keys(resource))
      if (!RESOURCE_KEYS.has(key)) problems.push(`${where}: unknown resource attribute ${key}`);
    for (const target of asList(resource.DependsOn)) {
      if (template.Resources[target]) dependsOn.add(target);
      else problems.push(`${where}.DependsOn: no resource ${target}`);
    }
    if (resource.Condition !== undefined && template.Conditions?.[resource.Condition] === undefined)
      problems.push(`${where}.Condition: no condition ${resource.Condition}`);
    checkReferences(spec, template, resource.Properties ?? {}, `${where}.Properties`, problems, (t) =>
      dependsOn.add(t),
    );
    const properties = (resource.Properties ?? {}) as Record<string, unknown>;
    if (resource.Type.startsWith('Custom::') || resource.Type === 'AWS::CloudFormation::CustomResource') {
      if (!('ServiceToken' in properties)) problems.push(`${where}: a custom resource needs ServiceToken`);
      continue;
    }
    const type = spec.resource(resource.Type);
    if (!type) {
      problems.push(`${where}: unknown resource type ${resource.Type}`);
      continue;
    }
    checkProperties(spec, properties, type.properties, `${where}.Properties`, problems);
  }
  checkReferences(spec, template, template.Outputs ?? {}, 'Outputs', problems);
  for (const cycle of dependencyCycles(edges)) problems.push(`circular dependency: ${cycle.join(' → ')}`);
  return problems;
}
