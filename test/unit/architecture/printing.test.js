// Printing happens in the rooms that present (lib/cli, lib/output, lib/session): any other module
// of lib/ says what it has to say through a writer or a logger handed in, so that a library caller
// decides where it goes and nothing below the command line writes to the terminal on its own.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, sourceFiles } from '../../helpers/import-graph.js'

const PRINTING_ROOMS = ['lib/cli/', 'lib/output/', 'lib/session/']
// The pino logger writes to stderr by design (CONVENTIONS: "pino to stderr"): logging, not printing.
// A script's debug() writes to stderr as pgbench's does: the script's own output, in every worker
// thread, where no writer can be handed across.
const ALLOWED = ['lib/log.js', 'lib/script/workload.js']

/**
 * `process.stdout`, `process.stderr` or `console.` in `text`, outside line comments and JSDoc
 * lines: each as `line: code`.
 * @param {string} text
 * @returns {string[]}
 */
export function printingIn (text) {
  const out = []
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/(^|[^:'"`])\/\/.*$/, '$1')
    if (/^\s*(\*|\/\*)/.test(code)) return
    if (/(?<![\w$.])(?:process\.(?:stdout|stderr)\b|console\.)/.test(code)) out.push(`${i + 1}: ${line.trim()}`)
  })
  return out
}

test('only lib/cli, lib/output and lib/session print: no process.stdout, process.stderr or console in any other module of lib/', () => {
  const found = []
  for (const file of sourceFiles('lib')) {
    if (ALLOWED.includes(file) || PRINTING_ROOMS.some((room) => file.startsWith(room))) continue
    for (const hit of printingIn(readFileSync(join(ROOT, file), 'utf8'))) found.push(`${file}:${hit}`)
  }
  assert.deepEqual(found, [])
})

test('the check sees writes, defaults and console calls, and not comments or look-alike names', () => {
  for (const code of ['process.stderr.write(line)', 'function f ({ err = process.stderr } = {}) {}', 'const out = process.stdout',
    'console.log(x)', 'if (process.stderr.isTTY) x()', 'console.warn(x)']) {
    assert.equal(printingIn(code).length, 1, code)
  }
  for (const code of ['// process.stderr.write(line)', ' * @param err defaults to process.stderr', 'err.write(line)',
    'myprocess.stderr', 'this.console.log', 'const url = \'http://x\' // process.stdout']) {
    assert.deepEqual(printingIn(code), [], code)
  }
})
