// A reader that goes away early (pgload ... | head -1): no error, the command goes on.

import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BIN } from '../helpers/cli.js'

const tmp = mkdtempSync(join(tmpdir(), 'pgload-closed-stdout-'))
after(() => rmSync(tmp, { recursive: true, force: true }))

test('a reader that goes away early (| true) gets no internal error: the command finishes and exits 0', () => {
  const home = join(tmp, 'home') // no server there: status says so, in one write to stdout
  // `true` exits without reading: the line meets a closed pipe
  const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" server status | true`], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, PGLOAD_HOME: home } })
  assert.equal(r.stderr, '')
  assert.equal(r.status, 0)
})
