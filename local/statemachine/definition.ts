import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../project-root.js';

/** The one ASL file, deployed by serverless.yml and run locally as is. */
export const DEFINITION_FILE = join(projectRoot(), 'statemachine', 'geohub.asl.json');

/**
 * The definition with its `${XxxFunctionArn}` placeholders filled in, as CloudFormation's
 * DefinitionSubstitutions does on AWS. Locally the ARNs are never called (each Task is
 * overridden by its local function), but the runner validates their shape.
 */
export function readDefinition(file = DEFINITION_FILE, account = '000000000000'): Record<string, unknown> {
  const text = readFileSync(file, 'utf8').replace(/\$\{(\w+)FunctionArn\}/g, (_, name: string) => {
    const fn = name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
    return `arn:aws:lambda:us-east-1:${account}:function:geohub-local-${fn}`;
  });
  return JSON.parse(text) as Record<string, unknown>;
}
