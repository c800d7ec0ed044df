// One rule for which server a command uses: the given one, else the embedded one. Only
// lib/server/target/given-or-embedded.js decides it; the embedded server's own commands (`pgload
// server start`, the cold-start restart) and its own room use it by name, since for them there is
// no choice to make.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, sourceFiles } from '../../helpers/import-graph.js'

const RULE = 'lib/server/target/given-or-embedded.js'
// Modules that start the embedded server without a choice: its own room, `pgload server`, and the
// public API's export of it.
const NAMED_USE = [/^lib\/server\/embedded\//, /^lib\/server\/cold\//, /^lib\/cli\/server\.js$/, /^lib\/index\.js$/]

test(`only ${RULE} chooses between the given server and the embedded one`, () => {
  const found = []
  for (const file of sourceFiles('lib')) {
    if (file === RULE || NAMED_USE.some((re) => re.test(file))) continue
    const text = readFileSync(join(ROOT, file), 'utf8')
    text.split('\n').forEach((line, i) => {
      if (/\bensureEmbeddedServer\b/.test(line) && !/^\s*(\/\/|\*)/.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`)
    })
  }
  assert.deepEqual(found, [])
})

test(`${RULE} is where the rule is`, () => {
  const text = readFileSync(join(ROOT, RULE), 'utf8')
  assert.match(text, /export async function givenOrEmbedded/)
  assert.match(text, /ensureEmbeddedServer\(/)
})
