/**
 * The cycles of a dependency graph (logical id → the ids it depends on), each as the path
 * that closes it: CloudFormation refuses a template with any (`Circular dependency between
 * resources`).
 */
export function dependencyCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return cycles;
}
