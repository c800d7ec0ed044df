// The headless Chromium the browser tests drive (Debian's package, through playwright-core), and
// the one-line reason they skip where it is missing.

import { existsSync } from 'node:fs'

export const CHROMIUM = process.env.PGLOAD_CHROMIUM ?? '/usr/bin/chromium'

/** false where Chromium is installed, else why the browser tests skip. */
export const chromiumSkip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium)`

/** A headless Chromium; close it when done. */
export async function launchChromium () {
  const { chromium } = await import('playwright-core')
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
}
