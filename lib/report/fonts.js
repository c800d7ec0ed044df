// The fonts PNG rendering uses, vendored through npm (dejavu-fonts-ttf), so charts look the same on
// every machine: resvg with no fonts drops text silently, and system fallbacks vary.

import { createRequire } from 'node:module'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { PgloadError } from '../errors.js'

/** Family name resvg substitutes for Vega's generic `sans-serif`. */
export const FONT_FAMILY = 'DejaVu Sans'
/** Regular and Bold: resvg does not synthesise bold, and Vega's titles are bold. */
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf']

let cached = null

/**
 * Paths of the bundled TTF files.
 * @returns {string[]}
 */
export function fontFiles () {
  if (cached) return cached
  const require = createRequire(import.meta.url)
  let root
  try {
    root = dirname(require.resolve('dejavu-fonts-ttf/package.json'))
  } catch (err) {
    throw new PgloadError('PNG output needs the dejavu-fonts-ttf package, which is not installed', { code: 'MISSING_DEPENDENCY', cause: err })
  }
  const files = FONT_FILES.map((f) => join(root, 'ttf', f))
  const missing = files.find((f) => !existsSync(f))
  if (missing) throw new PgloadError(`font file missing: ${missing}`, { code: 'MISSING_DEPENDENCY' })
  cached = files
  return files
}
