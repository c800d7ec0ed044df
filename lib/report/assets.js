// The browser bundles of vega, vega-lite and vega-embed, prepared for inlining in one HTML file:
// source-map comments stripped, `</script` and `<!--` defused, literal URLs written as `:\/\/`.

import { createRequire } from 'node:module'
import { readFileSync, existsSync } from 'node:fs'
import { dirname, join, parse } from 'node:path'
import { PgloadError } from '../errors.js'

/** Inlined in this order: vega-lite and vega-embed expect the globals set by the previous ones. */
const BUNDLES = [
  ['vega', 'build/vega.min.js'],
  ['vega-lite', 'build/vega-lite.min.js'],
  ['vega-embed', 'build/vega-embed.min.js']
]

const require = createRequire(import.meta.url)

/**
 * A package's folder. The packages' `exports` maps hide package.json and build/, so resolve the
 * main entry and walk up to the package.json that names the package.
 * @param {string} name
 * @returns {string}
 */
export function packageRoot (name) {
  let dir
  try {
    dir = dirname(require.resolve(name))
  } catch (err) {
    throw new PgloadError(`HTML reports need the ${name} package, which is not installed`, { code: 'MISSING_DEPENDENCY', cause: err })
  }
  const top = parse(dir).root
  for (; dir !== top; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json')
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === name) return dir
  }
  throw new PgloadError(`cannot find the package folder of ${name}`, { code: 'MISSING_DEPENDENCY' })
}

/**
 * Make script text safe inside an inline <script> element of an HTML file with no network use.
 * URLs in the bundles are string literals (SVG namespaces, documentation links); `:\/\/` is the
 * same string to JavaScript but no longer reads as a URL in the file.
 * @param {string} js
 * @returns {string}
 */
export function inlineScriptText (js) {
  return js
    .replace(/^\s*\/\/[#@] sourceMappingURL=.*$/gm, '')
    .replace(/<\/(script)/gi, '<\\/$1')
    .replace(/<!--/g, '<\\!--')
    .replace(/(https?):\/\//gi, '$1:\\/\\/')
}

let cached = null

/**
 * The three bundles, prepared for inlining, with their versions.
 * @returns {{ name: string, version: string, code: string }[]}
 */
export function browserBundles () {
  cached ??= BUNDLES.map(([name, file]) => {
    const root = packageRoot(name)
    const path = join(root, file)
    if (!existsSync(path)) throw new PgloadError(`browser bundle missing: ${path}`, { code: 'MISSING_DEPENDENCY' })
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version
    return { name, version, code: inlineScriptText(readFileSync(path, 'utf8')) }
  })
  return cached
}
