// TPC-C figures a DBA can believe, end to end through bin/pgload.js on a 1-warehouse load:
// tpmC and NOPM over the measured window only, the default ramp-up of a paced run with its
// progress lines, labelled rollbacks and the mix check in the summary.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestServer } from '../helpers/server.js'
import { runCli } from '../helpers/cli.js'

let url
let dir

before(async () => {
  ({ url } = await getTestServer())
  dir = mkdtempSync(join(tmpdir(), 'pgload-tpcc-window-'))
  const r = await runCli(['init', 'tpcc', '--url', url, '--warehouses', '1', '--seed', '8', '--force', '--no-check'])
  assert.equal(r.code, 0, r.stderr)
})
after(() => { if (dir) rmSync(dir, { recursive: true, force: true }) })

const run = async (name, ...args) => {
  const out = join(dir, `${name}.json`)
  const r = await runCli(['run', 'tpcc', '--url', url, '--no-server-stats', '--out', out, ...args])
  assert.equal(r.code, 0, r.stderr)
  return { ...r, doc: JSON.parse(readFileSync(out, 'utf8')), lines: r.stdout.split('\n') }
}

test('unpaced with a warm-up: tpmC and NOPM are both over the measured window and agree within 2 %', async () => {
  const { doc, lines } = await run('unpaced', '--no-wait', '--warmup', '3s', '--duration', '5s')
  const c = doc.tpcc
  assert.ok(Math.abs(c.measuredS - 5) < 0.5, `measured ${c.measuredS} s`)
  assert.equal(c.warmupS, 3)
  assert.equal(c.rampUp, false)
  const no = doc.transactions['new-order']
  assert.ok(Math.abs(c.tpmC - (no.count - no.rollbacks) / (doc.run.durationS / 60)) < 0.01 * c.tpmC)
  assert.ok(Math.abs(c.nopm - c.tpmC) <= 0.02 * c.tpmC, `NOPM ${c.nopm} vs tpmC ${c.tpmC}`)
  // the window ends with the last transaction, so a loaded machine may print 5.1 s
  assert.ok(lines.some((l) => /^TPC-C, 1 warehouse, 10 terminals, unpaced; measured 5(\.\d)? s after a 3 s warm-up$/.test(l)), lines.join('\n'))
  assert.ok(lines.some((l) => l.startsWith(`tpmC = ${c.tpmC.toFixed(1)}   New-Orders the driver saw commit, per minute of the measured window`)))
  assert.ok(lines.some((l) => l.startsWith(`NOPM = ${c.nopm.toFixed(1)}   growth of the districts' order counters (sum of d_next_o_id) over the same window`)))
  // rollbacks: both shares, each labelled, from the counts of the run
  const all = Object.values(doc.transactions).reduce((s, t) => s + t.count + t.failed, 0)
  const rb = Object.values(doc.transactions).reduce((s, t) => s + t.rollbacks, 0)
  assert.ok(no.rollbacks > 0, 'about 1 % of New-Orders roll back')
  assert.ok(lines.includes(`rollbacks: ${Math.round(10000 * no.rollbacks / no.count) / 100}% of New-Orders (spec: about 1%), ${Math.round(10000 * rb / all) / 100}% of all transactions`), lines.filter((l) => l.includes('rollback')).join('\n'))
  assert.ok(!lines.some((l) => l.startsWith('number of expected rollbacks')), 'no unlabelled rollback share')
})

test('spec-paced (waits x0.05): a default ramp-up, printed, with progress lines; NOPM agrees with tpmC; the mix is checked', async () => {
  const { doc, lines, stderr } = await run('paced', '--wait-scale', '0.05', '--duration', '6s', '-P', '1', '--seed', '12')
  // 20.70 s x 0.05 + 18 s x 0.05 + 1 s = 2.9 s
  assert.match(stderr, /^pgload: ramp-up 3 s \(every terminal finishes its first transaction\), then measuring 6 s$/m)
  assert.equal(doc.run.warmupS, 3)
  assert.equal(doc.tpcc.rampUp, true)
  const states = '\\d+ keying, \\d+ thinking, \\d+ in a transaction, \\d+ waiting for a connection'
  const ramp = stderr.split('\n').filter((l) => l.startsWith('ramp-up: '))
  assert.ok(ramp.length >= 2, stderr)
  // no tpmC before a whole second of the run has passed: never a rate over a fraction of one
  for (const l of ramp) assert.match(l, new RegExp(`^ramp-up: \\d\\.0 of 3 s, (tpmC \\d+\\.\\d \\(last \\d+ s\\), )?terminals: ${states}$`))
  assert.ok(ramp.some((l) => /tpmC \d+\.\d \(last [1-9]\d* s\)/.test(l)), stderr)
  const progress = stderr.split('\n').filter((l) => l.startsWith('progress: '))
  assert.ok(progress.length >= 4, stderr)
  for (const l of progress) {
    assert.match(l, new RegExp(`tps, tpmC \\d+\\.\\d \\(last \\d+ s\\), lat .*, terminals: ${states}`))
    assert.doesNotMatch(l, /active conns/)
  }
  // as above, the window ends with the last transaction: a loaded machine may print 6.1 s
  assert.ok(lines.some((l) => /^TPC-C, 1 warehouse, 10 terminals, spec-paced \(waits x0\.05\); measured 6(\.\d)? s after a 3 s ramp-up$/.test(l)), lines.join('\n'))
  const c = doc.tpcc
  // a few dozen New-Orders: the two counts may differ by the one in flight at each edge
  assert.ok(Math.abs(c.nopm - c.tpmC) <= 2 * 60 / c.measuredS + 1e-9, `NOPM ${c.nopm} vs tpmC ${c.tpmC}`)
  // the mix check agrees with the measured mix and is printed with its reason
  const short = Object.entries({ payment: 43, 'order-status': 4, delivery: 4, 'stock-level': 4 }).filter(([t, min]) => c.mix[t] < min).map(([t]) => t)
  assert.deepEqual(c.mixCheck.below.map((b) => b.type), short)
  const warning = lines.find((l) => l.startsWith('warning: the measured mix is below the minimums of clause 5.2.3'))
  if (short.length === 0) {
    assert.equal(warning, undefined)
  } else {
    for (const t of short) assert.ok(warning.includes(`${t} ${c.mix[t]}% (minimum`), warning)
    assert.ok(lines.some((l) => /^ {2}only \d+ decks? of 23 transactions completed \([\d.]+ per terminal\): short runs complete few decks/.test(l)), lines.join('\n'))
  }
})

test('--warmup 0 opts a paced run out of the ramp-up, and the summary says what that costs', async () => {
  const { doc, stderr, lines } = await run('paced-no-ramp', '--wait-scale', '0.05', '--duration', '2s', '--warmup', '0')
  assert.equal(doc.run.warmupS, 0)
  assert.equal(doc.tpcc.rampUp, false)
  assert.doesNotMatch(stderr, /ramp-up/)
  assert.ok(lines.includes('warning: measuring began 0 s after the start, before the 3 s ramp-up in which every terminal finishes its first transaction: the figures include the terminals\' staggered start'), lines.join('\n'))
})
