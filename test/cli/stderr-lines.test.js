// Every line pgload says on stderr starts with `pgload:`, except those that mirror pgbench's own
// (progress lines and the server's second line of each period).

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../helpers/cli.js'
import { getTestServer } from '../helpers/server.js'

const dir = mkdtempSync(join(tmpdir(), 'pgload-stderr-'))
let server
before(async () => { server = await getTestServer() })
after(() => rmSync(dir, { recursive: true, force: true }))

const unprefixed = (stderr) => stderr.split('\n').filter((l) => l !== '' && !/^(pgload: |progress: |server: )/.test(l))

test('run --report and report --verbose: no line of pgload\'s own without its prefix', async () => {
  const script = join(dir, 'one.sql')
  writeFileSync(script, 'SELECT 1;\n')
  const out = join(dir, 'r.json')
  const run = await runCli(['run', script, '-c', '1', '-T', '1', '-P', '1', '--url', server.url, '--out', out, '--report'])
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stderr, /^pgload: results written to .*r\.json$/m)
  assert.match(run.stderr, /^pgload: report written to .*r\.html$/m)
  assert.deepEqual(unprefixed(run.stderr), [])
  const report = await runCli(['report', out, '-o', join(dir, 'rep'), '--verbose'])
  assert.equal(report.code, 0, report.stderr)
  assert.deepEqual(unprefixed(report.stderr), [])
})
