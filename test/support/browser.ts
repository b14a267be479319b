import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (apt): playwright's own browser download does not work here (no network). */
export const CHROMIUM = '/usr/bin/chromium';

/** Flags that run it headless on these machines: no sandbox (root, containers), no GPU, no network chatter. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** A headless Chromium; fails with the fix when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run \`npm run setup\` (it installs Debian's chromium)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
}
