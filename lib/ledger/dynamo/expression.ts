/**
 * DynamoDB expressions assembled from named parts, each carrying the attribute names and values
 * it uses (in the manner of Powertools' persistence layer): an operation reads as the list of
 * its conditions, and no call site writes placeholders by hand.
 */
export interface Part {
  readonly text: string;
  readonly names?: Readonly<Record<string, string>>;
  readonly values?: Readonly<Record<string, unknown>>;
}

export interface ExpressionParams {
  readonly UpdateExpression?: string;
  readonly ConditionExpression?: string;
  readonly ExpressionAttributeNames?: Record<string, string>;
  readonly ExpressionAttributeValues?: Record<string, unknown>;
}

const join = (parts: readonly Part[], glue: string, wrap: boolean): Part => ({
  text: parts.map((p) => (wrap && parts.length > 1 ? `(${p.text})` : p.text)).join(glue),
  names: Object.assign({}, ...parts.map((p) => p.names ?? {})),
  values: merge(parts.map((p) => p.values ?? {})),
});

export const and = (...parts: Part[]): Part => join(parts, ' AND ', true);
export const or = (...parts: Part[]): Part => join(parts, ' OR ', true);

/** `#field = :field` for each entry; undefined entries are skipped. */
export function assign(fields: Readonly<Record<string, unknown>>): Part {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  return {
    text: entries.map(([f]) => `#${f} = :${f}`).join(', '),
    names: Object.fromEntries(entries.map(([f]) => [`#${f}`, f])),
    values: Object.fromEntries(entries.map(([f, v]) => [`:${f}`, v])),
  };
}

/** `#field :add_field` for each entry (DynamoDB's atomic ADD). */
export function increment(fields: Readonly<Record<string, number>>): Part {
  const entries = Object.entries(fields);
  return {
    text: entries.map(([f]) => `#${f} :add_${f}`).join(', '),
    names: Object.fromEntries(entries.map(([f]) => [`#${f}`, f])),
    values: Object.fromEntries(entries.map(([f, v]) => [`:add_${f}`, v])),
  };
}

/** `#a, #b` for a REMOVE clause. */
export function removal(fields: readonly string[]): Part {
  return {
    text: fields.map((f) => `#${f}`).join(', '),
    names: Object.fromEntries(fields.map((f) => [`#${f}`, f])),
  };
}

function merge(all: readonly Readonly<Record<string, unknown>>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const values of all) {
    for (const [k, v] of Object.entries(values)) {
      // Two parts may share a placeholder only when they mean the same value.
      if (k in out && JSON.stringify(out[k]) !== JSON.stringify(v))
        throw new RangeError(`expression placeholder ${k} bound to two values`);
      out[k] = v;
    }
  }
  return out;
}

export interface UpdateSpec {
  readonly set?: readonly Part[];
  readonly add?: readonly Part[];
  readonly remove?: readonly Part[];
  readonly condition?: Part;
}

/** The expression fields of an Update (or of a Put/Delete with only a condition). */
export function expression(spec: UpdateSpec): ExpressionParams {
  const clauses: [string, readonly Part[] | undefined][] = [
    ['SET', spec.set],
    ['ADD', spec.add],
    ['REMOVE', spec.remove],
  ];
  const used: Part[] = [];
  const update: string[] = [];
  for (const [verb, parts] of clauses) {
    const live = (parts ?? []).filter((p) => p.text.length > 0);
    if (live.length === 0) continue;
    update.push(`${verb} ${live.map((p) => p.text).join(', ')}`);
    used.push(...live);
  }
  if (spec.condition) used.push(spec.condition);
  const names = Object.assign({}, ...used.map((p) => p.names ?? {}));
  const values = merge(used.map((p) => p.values ?? {}));
  return {
    ...(update.length > 0 ? { UpdateExpression: update.join(' ') } : {}),
    ...(spec.condition ? { ConditionExpression: spec.condition.text } : {}),
    // DynamoDB rejects empty maps and names or values an expression does not use.
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  };
}

/** The fields of an Update: like `expression`, with the update clause it must have. */
export function updateExpression(spec: UpdateSpec): ExpressionParams & { readonly UpdateExpression: string } {
  const params = expression(spec);
  if (!params.UpdateExpression) throw new RangeError('an update needs at least one SET, ADD or REMOVE part');
  return { ...params, UpdateExpression: params.UpdateExpression };
}
