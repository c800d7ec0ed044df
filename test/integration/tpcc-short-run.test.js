// A 20 s spec-paced TPC-C run on one warehouse, through bin/pgload.js: no two figures the
// summary prints contradict each other (each has enough data behind it or says it has not).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'

let url
let dir
before(async () => {
  ({ url } = await getTestServer())
  dir = mkdtempSync(join(tmpdir(), 'pgload-tpcc-short-'))
})
after(() => rmSync(dir, { recursive: true, force: true }))

test('a 20 s TPC-C run: every figure has enough data behind it or says it has not', { timeout: 180_000 }, async () => {
  let r = await runCli(['init', 'tpcc', '--url', url, '--warehouses', '1', '--seed', '3'], { env: { NO_COLOR: '1' } })
  assert.equal(r.code, 0, r.stderr)
  r = await runCli(['run', 'tpcc', '--url', url, '--duration', '20s', '--out', join(dir, 'run.json')], { env: { NO_COLOR: '1' }, timeoutMs: 150_000 })
  assert.equal(r.code, 0, r.stderr)
  const lines = r.stdout.split('\n')
  const text = r.stdout

  // per-transaction CPU figures: either all of them or none, by one bound
  if (/too few for a per-transaction figure/.test(text)) assert.doesNotMatch(text, /us per transaction/)

  // a handful of New-Orders: tpmC, NOPM and efficiency say so (whatever efficiency came out)
  const table = Object.fromEntries(lines.filter((l) => /^(new-order|payment|order-status|delivery|stock-level) +\d+ +\d+ /.test(l))
    .map((l) => l.split(/\s+/)).map((c) => [c[0], Number(c[1])]))
  assert.ok(table['new-order'] < 100, text)
  const eff = lines.findIndex((l) => l.startsWith('efficiency = '))
  assert.match(lines[eff + 1], /^ {2}only \d+ New-Orders committed in the window: too few to settle tpmC, NOPM and efficiency/)

  // every 90th-percentile verdict on fewer than 100 transactions says so
  for (const [type, n] of Object.entries(table)) {
    if (n > 0 && n < 100) assert.ok(lines.includes(`  only ${n} ${type} transactions: too few to settle its 90th percentile`), `${type}\n${text}`)
  }

  // deferred Delivery counts from the start of the run, the type table only the window
  const deferred = lines.find((l) => l.startsWith('deferred Delivery'))
  assert.ok(deferred, text)
  assert.match(deferred, /^deferred Delivery, since the start of the run \(the 40 s ramp-up included\): /)
  const completed = Number(/: (\d+) of \d+ completed/.exec(deferred)?.[1] ?? 0)
  if (completed > 0 && completed < 100) assert.match(deferred, /too few to settle the verdict/)
})
