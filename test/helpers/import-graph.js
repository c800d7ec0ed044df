// The import graph of pgload's code, read from the sources (no module is loaded): static imports
// and dynamic `import('...')` with a literal specifier, for the architecture tests, which check the
// rules docs/architecture.md states about rooms.

import { readdirSync, readFileSync } from 'node:fs'
import { join, dirname, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The project's root directory. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

// `import ... from 'x'`, `export ... from 'x'` and `import 'x'`, over several lines; comments and
// strings that merely look like imports are rare enough in this code to be kept out by hand.
const STATIC_IMPORT = /^[ \t]*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm
// `import('x')` anywhere in code (a module loaded when it is needed is still a dependency); the
// same text in a comment is a JSDoc type (`@param {import('x').T}`), not an import.
const DYNAMIC_IMPORT = /(?<![\w$.])import\(\s*(['"`])([^'"`$]+)\1\s*\)/g

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
 * The relative imports of one file, static and dynamic with a literal specifier, resolved to files
 * relative to the root.
 * @param {string} file relative to the root
 * @returns {string[]}
 */
export function importsOf (file) {
  return specifiersIn(readFileSync(join(ROOT, file), 'utf8'))
    .filter((s) => s.startsWith('.')) // not a package nor a node: built-in
    .map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)).split(sep).join('/'))
}

/**
 * Every import specifier in a module's text: static imports and re-exports first, then the
 * literal specifiers of dynamic imports outside comments.
 * @param {string} text
 * @returns {string[]}
 */
export function specifiersIn (text) {
  const out = []
  for (const m of text.matchAll(STATIC_IMPORT)) out.push(m[1])
  for (const m of text.matchAll(DYNAMIC_IMPORT)) if (!inComment(text, m.index)) out.push(m[2])
  return out
}

// Whether `at` is inside a block comment, or after `//` on its line.
function inComment (text, at) {
  if (text.lastIndexOf('/*', at) > text.lastIndexOf('*/', at)) return true
  const lineStart = text.lastIndexOf('\n', at) + 1
  return /(^|[^:'"`])\/\//.test(text.slice(lineStart, at))
}
