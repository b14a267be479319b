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

/** Every `prefix:name` property an extension schema defines, wherever in the schema. */
function fieldsDefined(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) fieldsDefined(s, into);
  else if (schema && typeof schema === 'object')
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && value && typeof value === 'object')
        for (const name of Object.keys(value)) if (name.includes(':')) into.add(name);
      fieldsDefined(value, into);
    }
  return into;
}

/** The prefixed fields of a document where extensions put them: top level, properties, assets. */
function prefixedFields(doc: Record<string, unknown>): string[] {
  const objects = [doc, doc.properties, ...Object.values((doc.assets ?? {}) as Record<string, unknown>)];
  return objects.flatMap((o) =>
    o && typeof o === 'object' ? Object.keys(o).filter((k) => k.includes(':')) : [],
  );
}

/**
 * Validates STAC documents as a STAC validator does: the core Item, Catalog or Collection
 * schema, then every schema the document lists in `stac_extensions` (all from the vendored
 * copies). Stricter than the schemas alone in one way: a prefixed field that no declared
 * extension defines is an error (the schemas let unknown fields pass, so an undeclared
 * extension's field would go unchecked). Returns the errors, empty when valid.
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
    Catalog: 'https://schemas.stacspec.org/v1.0.0/catalog-spec/json-schema/catalog.json',
  } as Record<string, string>;
  const show = (where: string, errors: ErrorObject[] | null | undefined) =>
    (errors ?? []).map((e) => `${where}: ${e.instancePath || '/'} ${e.message}`);
  return (doc) => {
    const id = core[doc.type];
    if (!id) return [`not a STAC item, catalog or collection: type ${doc.type}`];
    const errors: string[] = [];
    const defined = new Set<string>();
    for (const url of doc.stac_extensions ?? []) fieldsDefined(ajv.getSchema(url)?.schema, defined);
    for (const field of prefixedFields(doc as Record<string, unknown>))
      if (!defined.has(field)) errors.push(`${field}: defined by no extension the document declares`);
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
