// chromium.mjs launches Debian's Chromium (/usr/bin/chromium, or $CHROMIUM)
// headless through playwright-core, with a throw-away profile; never a
// downloaded browser.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** launchChromium starts Chromium; close() also removes its profile. */
export async function launchChromium() {
  const profile = mkdtempSync(join(tmpdir(), 'a2astream-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: chromiumArgs,
  });
  return { context, close: async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); } };
}
