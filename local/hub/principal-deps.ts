import { type Adapters, createAdapters } from '../../lib/adapters/create-adapters.js';
import type { ClientOptions } from '../../lib/aws/clients.js';
import { type Config, loadConfig } from '../../lib/config/config.js';
import type { LocalStack } from '../stack/stack.js';

/** What an in-process function (or the operator) calls AWS with: its own identity's clients. */
export interface PrincipalDeps extends Omit<Adapters, 'starter' | 'destroy'> {
  readonly config: Config;
}

/**
 * Adapters per principal, made when first asked for: the hub's in-process functions (on-upload,
 * hand-over, redrive…) each act under their own role, as their Lambdas do on AWS, and the
 * CLI and page as the operator (docs/deploy.md, "Operator permissions").
 */
export function principalDeps(
  stack: LocalStack,
  configOf: (base: Config) => Config,
  options: ClientOptions,
): { of(principal: string): PrincipalDeps; destroy(): void } {
  const made = new Map<string, Adapters & { config: Config }>();
  return {
    of(principal) {
      let deps = made.get(principal);
      if (!deps) {
        const config = configOf(loadConfig(stack.envFor(principal)));
        deps = { ...createAdapters(config, options), config };
        made.set(principal, deps);
      }
      return deps;
    },
    destroy() {
      for (const deps of made.values()) deps.destroy();
    },
  };
}
