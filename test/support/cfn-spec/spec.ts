import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import type { PropertyType, Resource, TypeDefinition } from '@aws-cdk/service-spec-types';

/**
 * The CloudFormation resource specification as AWS's own CDK ships it
 * (`@aws-cdk/aws-service-spec`: every resource type, property, nested type and attribute,
 * built from the CloudFormation registry schemas), read offline. The checks in this folder
 * walk it; nothing here restates it.
 */
export interface CfnSpec {
  resource(type: string): Resource | undefined;
  typeDefinition(type: Extract<PropertyType, { type: 'ref' }>): TypeDefinition;
}

let loaded: CfnSpec | undefined;

/** Loaded once per process (about a second: 2.6 MB gzipped). */
export function cfnSpec(): CfnSpec {
  if (loaded) return loaded;
  const db = loadAwsServiceSpecSync();
  loaded = {
    resource: (type) => db.lookup('resource', 'cloudFormationType', 'equals', type).at(0),
    typeDefinition: (type) => db.get('typeDefinition', type.reference),
  };
  return loaded;
}
