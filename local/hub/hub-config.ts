import type { Config } from '../../lib/config/config.js';
import type { LocalHubOptions } from './local-hub-options.js';

/** The hub's configuration: the stack's, with this hub's breaker, metatile size and history budget. */
export function hubConfig(base: Config, options: LocalHubOptions): Config {
  return {
    ...base,
    breaker: options.breaker ?? base.breaker,
    tilesPerMessage: options.tilesPerMessage ?? base.tilesPerMessage,
    loopEventBudget: options.historyLimit
      ? Math.min(base.loopEventBudget, Math.floor(options.historyLimit * 0.6))
      : base.loopEventBudget,
  };
}
