// One interrupt policy: what Ctrl-C and SIGTERM do is decided in lib/session/interrupts.js, the
// only module that listens to them, so that every command stops, writes and exits alike.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, sourceFiles } from '../../helpers/import-graph.js'

const POLICY = 'lib/session/interrupts.js'

/**
 * Listeners for SIGINT or SIGTERM in `text` (`process.on('SIGINT', ...)`, `.once`, `.addListener`,
 * `.prependListener`, chained `.on('SIGTERM', ...)`), outside line comments and JSDoc lines: each
 * as `line: code`.
 * @param {string} text
 * @returns {string[]}
 */
export function signalListenersIn (text) {
  const out = []
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/(^|[^:'"`])\/\/.*$/, '$1')
    if (/^\s*(\*|\/\*)/.test(code)) return
    if (/\.(?:on|once|addListener|prependListener|prependOnceListener)\(\s*(['"`])SIG(?:INT|TERM)\1/.test(code)) out.push(`${i + 1}: ${line.trim()}`)
  })
  return out
}

test(`only ${POLICY} listens to SIGINT and SIGTERM (lib/ and bin/)`, () => {
  const found = []
  for (const file of [...sourceFiles('lib'), ...sourceFiles('bin')]) {
    if (file === POLICY) continue
    for (const hit of signalListenersIn(readFileSync(join(ROOT, file), 'utf8'))) found.push(`${file}:${hit}`)
  }
  assert.deepEqual(found, [])
})

test(`${POLICY} is where the policy is: it listens to both signals`, () => {
  assert.ok(existsSync(join(ROOT, POLICY)), `${POLICY} exists`)
  const text = readFileSync(join(ROOT, POLICY), 'utf8')
  assert.match(text, /['"`]SIGINT['"`]/)
  assert.match(text, /['"`]SIGTERM['"`]/)
  assert.ok(signalListenersIn(text).length > 0, `${POLICY} registers its listeners`)
})

test('the check sees every way to listen to a signal, and not removals, kills or comments', () => {
  for (const code of ["process.on('SIGINT', f)", 'process.once("SIGTERM", f)', "process.on('SIGHUP', f).on('SIGTERM', f)",
    "process.addListener('SIGINT', f)", "process.prependListener('SIGTERM', f)", "for (const s of x) proc.once('SIGINT', f)"]) {
    assert.equal(signalListenersIn(code).length, 1, code)
  }
  for (const code of ["process.off('SIGINT', f)", "process.removeListener('SIGTERM', f)", "child.kill('SIGINT')",
    "// process.on('SIGINT', f)", " * process.once('SIGTERM')", "process.on('SIGHUP', f)"]) {
    assert.deepEqual(signalListenersIn(code), [], code)
  }
})
