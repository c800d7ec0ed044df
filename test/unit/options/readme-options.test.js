// The README's option tables against the option table and the ranges table: checked, not
// generated. Every run option a user can give is explained in `pgload run`'s section, every
// option its table names exists, the defaults it states for the table's own defaults are the
// table's, and the Ranges table lists exactly ranges.js's options with the same bounds.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { RUN_OPTION_TABLE } from '../../../lib/options/run-option-table.js'
import { RANGES } from '../../../lib/options/ranges.js'

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')

/** The text of a README section, from its heading to the next heading of the same level. */
function section (heading) {
  const start = README.indexOf(`\n${heading}\n`)
  assert.ok(start >= 0, `README has ${heading}`)
  const level = heading.split(' ')[0]
  const next = README.indexOf(`\n${level} `, start + heading.length + 2)
  return README.slice(start, next < 0 ? undefined : next)
}

const runSection = section('## `pgload run`')
/** The rows of the options table of `pgload run` (the first table of the section). */
const tableRows = runSection.slice(runSection.indexOf('| option | meaning |')).split('\n\n')[0].split('\n').slice(2)
const rows = tableRows.map((l) => l.split(' | ')[0])
const flagsIn = (text) => [...text.matchAll(/--(?:no-)?([a-z][a-z-]*)/g)].map((m) => m[1])
/** Short flags as `-c` in the text. */
const shortsIn = (text) => [...text.matchAll(/(?<![\w-])-([a-zA-Z])\b/g)].map((m) => m[1])

test('every run option of the table is explained in the README\'s pgload run section', () => {
  const mentioned = new Set(flagsIn(runSection))
  const shorts = new Set(shortsIn(runSection))
  const named = (name, e) => mentioned.has(name) || [e.alias ?? []].flat().some((a) => a.length === 1 ? shorts.has(a) : mentioned.has(a)) || (name.length === 1 && shorts.has(name))
  const missing = Object.entries(RUN_OPTION_TABLE).filter(([name, e]) => !e.hidden && !named(name, e)).map(([name]) => `--${name}`)
  assert.deepEqual(missing, [])
})

test('every option the README\'s run table names is in the option table', () => {
  const known = new Set(Object.keys(RUN_OPTION_TABLE).flatMap((name) => [name, ...[RUN_OPTION_TABLE[name].alias ?? []].flat()]))
  const unknown = rows.flatMap(flagsIn).filter((name) => !known.has(name))
  assert.deepEqual(unknown, [])
})

test('where the README states a default the table holds, it is the table\'s', () => {
  const stated = []
  for (const [name, e] of Object.entries(RUN_OPTION_TABLE)) {
    if (e.shown !== true) continue
    const row = tableRows.find((l) => flagsIn(l.split(' | ')[0]).includes(name))
    const m = row?.match(/default:? `?([^`;,)|]+?)`?(?:[);,.|]| \(|$)/)
    if (m) stated.push([name, m[1].trim(), `${e.default}${e.plan?.endsWith('S') ? 's' : ''}`])
  }
  assert.ok(stated.length > 0, 'some defaults are stated')
  for (const [name, readme, table] of stated) {
    assert.ok(readme === table || readme === String(table).replace(/s$/, '') || readme === `${table.replace(/s$/, '')} s`, `--${name}: README says ${readme}, the table ${table}`)
  }
})

test('the Ranges table lists exactly the ranges of lib/options/ranges.js', () => {
  const start = README.indexOf('| option | range | why |')
  assert.ok(start > 0)
  const table = README.slice(start).split('\n\n')[0].split('\n').slice(2)
  // the README names an option as the user gives it where ranges.js tells two apart
  const AS_GIVEN = { '--init-jobs': 'init tpcc -j' }
  const listed = table.map((l) => l.split(' | ')[0].replace(/^\| /, '').replace(/`/g, ''))
  assert.deepEqual([...listed].sort(), Object.keys(RANGES).map((k) => AS_GIVEN[k] ?? k).sort())
  // and with the same bounds
  for (const line of table) {
    const [flag, range] = line.replace(/^\| /, '').replace(/`/g, '').split(' | ')
    const key = Object.keys(AS_GIVEN).find((k) => AS_GIVEN[k] === flag) ?? flag
    const r = RANGES[key]
    if (Number.isFinite(r.max)) assert.ok(range.includes(String(r.max)) || range.includes(r.max.toLocaleString('en-US')) || !/\d/.test(range), `${flag}: ${range} against max ${r.max}`)
  }
})
