// The headless Chromium the browser tests drive (Debian's package, through playwright-core), and
// the one-line reason they skip where it is missing.

import { test } from 'node:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const CHROMIUM = process.env.PGLOAD_CHROMIUM ?? '/usr/bin/chromium'

/** false where Chromium is installed, else why the browser tests skip. */
export const chromiumSkip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium)`

/** A headless Chromium; close it when done. */
export async function launchChromium () {
  const { chromium } = await import('playwright-core')
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
}

/**
 * One Chromium for a test file, launched before its tests (not where they skip) and closed after
 * them, and a temporary directory for its pages and screenshots, removed after them unless
 * PGLOAD_KEEP_SHOTS is set (then it stays for a look).
 * @param {string} prefix the directory's name before mkdtemp's suffix
 * @returns {{ shots: string, newPage: (options?: object) => Promise<any> }}
 */
export function chromiumForFile (prefix) {
  const shots = mkdtempSync(join(tmpdir(), prefix))
  let browser = null
  test.before(async () => {
    if (!chromiumSkip) browser = await launchChromium()
  })
  test.after(async () => {
    await browser?.close()
    if (!process.env.PGLOAD_KEEP_SHOTS) rmSync(shots, { recursive: true, force: true })
  })
  return { shots, newPage: (options) => browser.newPage(options) }
}
