// `pgload merge` refuses what is not the shards of one run with one line and exit 1, and writes
// nothing; no server is needed.

import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCli } from '../helpers/cli.js'

const tmp = mkdtempSync(join(tmpdir(), 'pgload-merge-cli-'))
after(() => rmSync(tmp, { recursive: true, force: true }))
const F = (n) => fileURLToPath(new URL(`../fixtures/results/${n}.json`, import.meta.url))

test('merge of a results file that is not a shard\'s: one line, exit 1, nothing written', async () => {
  const out = join(tmp, 'merged.json')
  const r = await runCli(['merge', F('tpcb-a'), '-o', out])
  assert.equal(r.code, 1, r.stderr)
  assert.equal(r.stderr, `pgload: cannot merge: ${F('tpcb-a')} is not a shard's results: pgload merge takes the files of every shard of one run (pgload run --shard K/N)\n`)
  assert.equal(r.stdout, '')
  assert.equal(existsSync(out), false)
})
