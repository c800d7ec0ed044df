// The static import graph of pgload's code, read from the sources (no module is loaded): for the
// architecture tests, which check the rules docs/architecture.md states about rooms.

import { readdirSync, readFileSync } from 'node:fs'
import { join, dirname, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The project's root directory. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

// `import ... from 'x'`, `export ... from 'x'` and `import 'x'`, over several lines; comments and
// strings that merely look like imports are rare enough in this code to be kept out by hand.
const STATIC_IMPORT = /^[ \t]*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm

/**
 * Every .js file under `dir` (relative to the root, '/'-separated).
 * @param {string} dir relative to the root
 * @returns {string[]}
 */
export function sourceFiles (dir) {
  const out = []
  const walk = (d) => {
    for (const e of readdirSync(join(ROOT, d), { withFileTypes: true })) {
      const p = `${d}/${e.name}`
      if (e.isDirectory()) { if (e.name !== 'node_modules') walk(p) } else if (e.name.endsWith('.js')) out.push(p)
    }
  }
  walk(dir)
  return out.sort()
}

/**
 * The relative static imports of one file, resolved to files relative to the root.
 * @param {string} file relative to the root
 * @returns {string[]}
 */
export function importsOf (file) {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const out = []
  for (const m of text.matchAll(STATIC_IMPORT)) {
    if (!m[1].startsWith('.')) continue // a package or a node: built-in
    out.push(relative(ROOT, resolve(ROOT, dirname(file), m[1])).split(sep).join('/'))
  }
  return out
}
