// Every line pgload says on stderr starts with `pgload:` (`pgload sweep:` for a sweep), except
// pgbench's own progress lines; no empty line where no line was left open.

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

// every line ends with \n: an empty one is a line of its own
const unprefixed = (stderr) => stderr.replace(/\n$/, '').split('\n').filter((l) => !/^(pgload: |pgload sweep: |progress: )/.test(l))

test('run --report and report --verbose: no line of pgload\'s own without its prefix', async () => {
  const script = join(dir, 'one.sql')
  writeFileSync(script, 'SELECT 1;\n')
  const out = join(dir, 'r.json')
  const run = await runCli(['run', script, '-c', '1', '-T', '2', '-P', '1', '--url', server.url, '--out', out, '--report'])
  assert.equal(run.code, 0, run.stderr)
  assert.match(run.stderr, /^pgload: server: [\d.]+ commits\/s, /m)
  assert.match(run.stderr, /^pgload: results written to .*r\.json$/m)
  assert.match(run.stderr, /^pgload: report written to .*r\.html$/m)
  assert.deepEqual(unprefixed(run.stderr), [])
  const report = await runCli(['report', out, '-o', join(dir, 'rep'), '--verbose'])
  assert.equal(report.code, 0, report.stderr)
  assert.deepEqual(unprefixed(report.stderr), [])
})

test('sweep: each cell\'s lines are the sweep\'s', async () => {
  const script = join(dir, 'one.sql')
  writeFileSync(script, 'SELECT 1;\n')
  const r = await runCli(['sweep', script, '--clients', '1,2', '--repeat', '1', '-T', '1s', '--warmup', '0', '--no-server-stats', '--url', server.url, '--dir', join(dir, 'sweep')], { timeoutMs: 60_000 })
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stderr, /^pgload sweep: cell 1\/2 \(clients [12], repeat 1\): running 1 s; /m)
  assert.deepEqual(unprefixed(r.stderr), [])
})

test('Ctrl-C: the stopping line comes without an empty line before it when no line is open', async () => {
  const script = join(dir, 'one.sql')
  writeFileSync(script, 'SELECT 1;\n')
  const r = await runCli(['run', script, '-c', '1', '-T', '60', '--url', server.url, '--out', join(dir, 'stopped.json')], {
    timeoutMs: 60_000,
    onSpawn (child) {
      child.stderr.on('data', (d) => { if (String(d).includes('pgload: running')) setTimeout(() => child.kill('SIGINT'), 500) })
    }
  })
  assert.equal(r.code, 130, r.stderr)
  // before the start or after it, as the machine's load has it: the same rule
  assert.match(r.stderr, /^pgload: stopping/m)
  assert.deepEqual(unprefixed(r.stderr), [])
})
