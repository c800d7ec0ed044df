// readResults checks stages[] as deeply as the intervals: each stage's histograms held to its
// counts, its totals to its types, the stages in order and back to back; a damaged stage is
// refused in one line naming the file and the field.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readResults } from '../../../lib/results/read.js'
import { PgloadError } from '../../../lib/errors.js'
import { stagedResults } from '../../helpers/staged-results.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-read-stages-'))
process.on('exit', () => rmSync(dir, { recursive: true, force: true }))
const type = 'tpcb-like'
let n = 0

function write (doc) {
  const file = join(dir, `s${n++}.json`)
  writeFileSync(file, JSON.stringify(doc))
  return file
}

async function refused (change, message) {
  const doc = stagedResults()
  change(doc)
  const file = write(doc)
  await assert.rejects(readResults(file), (err) => {
    assert.ok(err instanceof PgloadError)
    assert.equal(err.code, 'RESULTS_INVALID')
    assert.equal(err.message, `${file}: ${message}`)
    assert.doesNotMatch(err.message, /\n/)
    return true
  })
}

test('a staged run as written is read', async () => {
  const doc = await readResults(write(stagedResults()))
  assert.equal(doc.stages.length, 3)
})

test('a stage whose histogram contradicts its count, or its totals its types, is refused in one line', async () => {
  const count = stagedResults().stages[1].transactions[type].count
  await refused((d) => { d.stages[1].transactions[type].count += 1 },
    `stages[1].transactions.${type}.histogram: holds ${count} values, but stages[1].transactions.${type}.count is ${count + 1}`)
  // another stage's histogram in its place
  const other = stagedResults().stages[0].transactions[type].count
  await refused((d) => { d.stages[1].transactions[type].histogram = d.stages[0].transactions[type].histogram },
    `stages[1].transactions.${type}.histogram: holds ${other} values, but stages[1].transactions.${type}.count is ${count}`)
  await refused((d) => { d.stages[2].transactions[type].histogram = 'HISTFAAAAx' },
    `stages[2].transactions.${type}.histogram: not a readable histogram: not base64 (length 10 is not a multiple of 4)`)
  await refused((d) => { d.stages[0].summary.transactions += 5 },
    `stages[0]: summary.transactions is ${stagedResults().stages[0].summary.transactions + 5}, but its transaction types add up to ${stagedResults().stages[0].summary.transactions}`)
  await refused((d) => { d.stages[0].dropped = 3 }, 'stages[0]: dropped is 3, but summary.dropped is 0')
})

test('stages out of order, not back to back, of two kinds, or missing a field: refused in one line', async () => {
  await refused((d) => { d.stages[1].index = 2 }, 'stages: stage 1 has index 2')
  await refused((d) => { d.stages[2].startS = 7 }, 'stages: stage 2 starts at 7 s, not where stage 1 ends (6 s)')
  await refused((d) => { d.stages[1].kind = 'clients' }, 'stages: stage 1 is a clients stage, stage 0 a rate stage')
  await refused((d) => { d.stages[1].kind = 'users' }, 'stages[1].kind: expected \'rate\' or \'clients\', got "users"')
  await refused((d) => { delete d.stages[0].summary }, 'stages[0].summary: missing')
  await refused((d) => { d.stages = {} }, 'stages: expected an array or null, got an object')
})
