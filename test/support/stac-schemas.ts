import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';

const DIR = new URL('../fixtures/stac-schemas/', import.meta.url).pathname;

function schemasUnder(dir: string): object[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? schemasUnder(join(dir, e.name))
      : e.name.endsWith('.json')
        ? [JSON.parse(readFileSync(join(dir, e.name), 'utf8')) as object]
        : [],
  );
}

/**
 * Validates STAC documents as a STAC validator does: the core Item or Collection schema, then
 * every schema the document lists in `stac_extensions` (all from the vendored copies). Returns
 * the errors, empty when valid.
 */
export function stacValidator(): (doc: { type: string; stac_extensions?: readonly string[] }) => string[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // ajv-formats has no IRIs: an absolute URL is one, a relative or absolute one a reference.
  ajv.addFormat('iri', (iri: string) => URL.canParse(iri));
  ajv.addFormat('iri-reference', (href: string) => URL.canParse(href, 'https://stac.invalid/base/'));
  for (const schema of schemasUnder(DIR)) ajv.addSchema(schema);
  const core = {
    Feature: 'https://schemas.stacspec.org/v1.0.0/item-spec/json-schema/item.json',
    Collection: 'https://schemas.stacspec.org/v1.0.0/collection-spec/json-schema/collection.json',
  } as Record<string, string>;
  const show = (where: string, errors: ErrorObject[] | null | undefined) =>
    (errors ?? []).map((e) => `${where}: ${e.instancePath || '/'} ${e.message}`);
  return (doc) => {
    const id = core[doc.type];
    if (!id) return [`not a STAC item or collection: type ${doc.type}`];
    const errors: string[] = [];
    for (const schema of [id, ...(doc.stac_extensions ?? [])]) {
      const validate = ajv.getSchema(schema) ?? ajv.getSchema(`${schema}#`);
      if (!validate) {
        errors.push(`${schema}: no such schema vendored`);
        continue;
      }
      if (!validate(doc)) errors.push(...show(schema, validate.errors));
    }
    return errors;
  };
}
