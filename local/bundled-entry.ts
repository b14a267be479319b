import { statSync } from 'node:fs';

/**
 * What to start for a process or thread that a local run starts many times over (a worker, a
 * Lambda container) or on its critical path (the CLI, its emulators): the bundle `npm run build`
 * makes of it (scripts/bundle-local.mjs) rather than the module, whose start loads some 900
 * files: 0.6 s of CPU for a worker, 0.3–0.5 s for a container, all spent while DynamoDB Local's
 * Java starts on the same cores. Only when running from the build (the TypeScript sources under
 * tests are their own entry), and only a bundle at least as new as the build's module (`tsc`
 * alone rewrites every module, the bundle stays old).
 */
export function bundledEntry(module: URL, bundle: URL): URL {
  if (!module.pathname.endsWith('.js')) return module;
  try {
    return statSync(bundle).mtimeMs >= statSync(module).mtimeMs ? bundle : module;
  } catch {
    return module; // no bundle: built by `tsc` alone
  }
}
