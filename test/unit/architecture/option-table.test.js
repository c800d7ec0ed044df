// One option table: every run option (its flags, default, parser, range, help text, the commands
// that take it) is one entry of one module, and what the command line, the plan and --help need
// of the options comes from it, so that adding an option is one entry plus its use. This file
// checks where things come from; test/unit/options checks the table's content against the README.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, sourceFiles, importsOf } from '../../helpers/import-graph.js'

const TABLE = 'lib/options/run-option-table.js'
// The modules that used to keep a list of run options by hand, each now reading the table.
const BUILT_FROM_TABLE = [
  ['lib/cli/run-options.js', "run's yargs options"],
  ['lib/plan/defaults.js', 'DEFAULTS']
]
// Where run options get their help texts: their "[default: ...]" comes from the table's defaults,
// never written by hand (capacity's own options show CAPACITY_DEFAULTS' values, computed too).
const HAND_WRITTEN_DEFAULTS = [
  ['lib/cli/run-options.js', /\[default: /],
  ['lib/cli/capacity.js', /\[default: \d/]
]

const read = (file) => readFileSync(join(ROOT, file), 'utf8')

test(`the option table is ${TABLE}`, () => {
  assert.ok(existsSync(join(ROOT, TABLE)), `${TABLE} exists`)
})

for (const [file, what] of BUILT_FROM_TABLE) {
  test(`${what} (${file}) are built from the option table`, () => {
    assert.ok(importsOf(file).includes(TABLE), `${file} imports ${TABLE}`)
  })
}

test("capacity's taken and refused run options come from the option table", () => {
  const readers = ['lib/cli/capacity.js', 'lib/capacity/options.js'].filter((f) => importsOf(f).includes(TABLE))
  assert.ok(readers.length > 0, `lib/cli/capacity.js or lib/capacity/options.js imports ${TABLE}`)
})

test('no "[default: ...]" of a run option written by hand in the help of run and capacity', () => {
  const found = HAND_WRITTEN_DEFAULTS.flatMap(([file, text]) => read(file).split('\n')
    .map((line, i) => text.test(line) ? `${file}:${i + 1}: ${line.trim()}` : null).filter(Boolean))
  assert.deepEqual(found, [])
})

test('--think-time is parsed in one module', () => {
  const parsers = sourceFiles('lib').filter((file) => /parseDistribution\([^)]*['"`]--think-time['"`]/.test(read(file)))
  assert.ok(parsers.length <= 1, `--think-time parsed in ${parsers.join(', ')}`)
})
