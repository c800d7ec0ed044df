// The --format list every report takes, checked.

import { PgloadError } from '../errors.js'
import { shownValue } from '../options/shown.js'

/** The formats a report can be written in. */
export const FORMATS = ['html', 'svg', 'png']

/**
 * --format as a list: comma-separated and/or repeated, lower case, each once.
 * @param {string[]|string} formats
 * @returns {string[]}
 */
export function checkFormats (formats) {
  const list = [formats].flat().flatMap((f) => String(f).split(',')).map((f) => f.trim().toLowerCase()).filter(Boolean)
  if (list.length === 0) throw new PgloadError('--format needs at least one of html, svg, png', { code: 'USAGE' })
  const bad = list.find((f) => !FORMATS.includes(f))
  if (bad !== undefined) throw new PgloadError(`--format must be html, svg or png (comma-separated), got ${shownValue(bad)}`, { code: 'USAGE' })
  return [...new Set(list)]
}
