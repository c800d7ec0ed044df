import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { compareRuns } from '../../../lib/compare/verdict.js'
import { bootstrapRuns } from '../../../lib/compare/statistics/bootstrap.js'
import { formatCompareText, formatCompareMarkdown } from '../../../lib/compare/format.js'

const cache = new Map()
const fixture = (n) => {
  if (!cache.has(n)) {
    const doc = JSON.parse(readFileSync(new URL(`../../fixtures/compare/${n}.json`, import.meta.url), 'utf8'))
    Object.defineProperty(doc, 'file', { value: `${n}.json`, enumerable: false })
    cache.set(n, doc)
  }
  return cache.get(n)
}
const runs = (prefix, ids) => ids.map(i => fixture(`${prefix}-${i}`))
const row = (v, id) => v.rows.find(r => r.id === id)

test('five runs per side: the +10 % p99 shift is detected, the median is not called', () => {
  const v = compareRuns(runs('base', [1, 2, 3, 4, 5]), runs('shift', [1, 2, 3, 4, 5]))
  assert.equal(v.mode, 'runs')
  const p99 = row(v, 'tpcb-like:p99')
  assert.equal(p99.verdict, 'worse')
  assert.ok(p99.p < 0.05)
  assert.ok(p99.change.lo > 0.02 && p99.change.estimate > 0.07 && p99.change.estimate < 0.13, JSON.stringify(p99.change))
  assert.equal(row(v, 'tpcb-like:p50').verdict, '~')
  assert.ok(v.regressions >= 1)
  assert.deepEqual(v.differences.settings, [{ name: 'work_mem', a: ['4096 kB'], b: ['65536 kB'] }])
})

test('identical configurations: no regression called, with several runs or one run per side', () => {
  const v = compareRuns(runs('base', [1, 2, 3, 4, 5]), runs('same', [1, 2, 3, 4, 5]))
  assert.equal(v.regressions, 0)
  assert.equal(v.improvements, 0)
  assert.equal(v.differences.settings.length, 0)
  for (let i = 1; i <= 5; i++) {
    const s = compareRuns([fixture(`base-${i}`)], [fixture(`same-${i}`)])
    assert.equal(s.mode, 'single-run')
    assert.equal(s.regressions, 0, `base-${i} vs same-${i}: ${s.rows.filter(r => r.verdict !== '~').map(r => r.id)}`)
  }
})

test('one run per side: the single-run bootstrap detects the shift and says what it is', () => {
  const v = compareRuns([fixture('base-1')], [fixture('shift-1')])
  assert.equal(v.mode, 'single-run')
  assert.match(v.method, /single-run estimate/)
  assert.ok(v.warnings.some(w => w.startsWith('single-run estimate')))
  assert.equal(row(v, 'tpcb-like:p99').verdict, 'worse')
  assert.equal(row(v, 'tpcb-like:p50').verdict, '~')
  assert.equal(row(v, 'tpcb-like:max').change, null) // a bootstrap cannot bound a maximum
})

test('the bootstrap is deterministic for a seed', () => {
  const a = fixture('base-1')
  const b = fixture('shift-1')
  const v1 = compareRuns([a], [b], { seed: 7, iterations: 300 })
  const v2 = compareRuns([a], [b], { seed: 7, iterations: 300 })
  const v3 = compareRuns([a], [b], { seed: 8, iterations: 300 })
  assert.deepEqual(v1.rows, v2.rows)
  assert.notDeepEqual(v1.rows.map(r => r.change?.lo), v3.rows.map(r => r.change?.lo))
  const s1 = bootstrapRuns(a, b, [{ id: 'p', kind: 'latency', txn: null, stat: 'p99' }], { seed: 3, iterations: 50 })
  const s2 = bootstrapRuns(a, b, [{ id: 'p', kind: 'latency', txn: null, stat: 'p99' }], { seed: 3, iterations: 50 })
  assert.deepEqual([...s1.samples.get('p').b], [...s2.samples.get('p').b])
  assert.equal(s1.blockLength[0], 5) // sqrt(30) intervals
})

test('too few runs to ever reach significance: warned, nothing called', () => {
  const v = compareRuns(runs('base', [1, 2, 3]), runs('shift', [1, 2, 3]))
  assert.ok(v.warnings.some(w => w.startsWith('too few runs to ever reach significance')))
  assert.equal(v.regressions, 0)
})

test('runs that are not comparable are refused unless forced', () => {
  assert.throws(() => compareRuns([fixture('base-1')], [fixture('clients16')]), (err) => {
    assert.equal(err.code, 'NOT_COMPARABLE')
    assert.match(err.message, /clients 4 vs 16/)
    assert.match(err.hint, /--force/)
    return true
  })
  const v = compareRuns([fixture('base-1')], [fixture('clients16')], { force: true })
  assert.equal(v.forced, true)
  assert.deepEqual(v.differences.blocking.map(d => d.name), ['clients'])
  assert.match(formatCompareText(v), /runs differ \(compared with --force\): clients: 4 -> 16/)
  assert.throws(() => compareRuns([fixture('base-1')], [fixture('tpcc-1')]), /workload tpcb vs tpcc/)
})

test('TPC-C: tpmC row and per-type rows with an all-types row', () => {
  const v = compareRuns([fixture('tpcc-1')], [fixture('tpcc-2')], { iterations: 200 })
  assert.ok(row(v, 'tpmC'))
  assert.ok(row(v, 'tpmC').change, 'tpmC gets an interval from the New-Order counts')
  assert.ok(row(v, 'all:p99'))
  assert.ok(row(v, 'new-order:p99'))
  assert.equal(v.regressions, 0)
})

test('table and markdown show every row and the verdict', () => {
  const v = compareRuns(runs('base', [1, 2, 3, 4, 5]), runs('shift', [1, 2, 3, 4, 5]))
  const text = formatCompareText(v)
  assert.match(text, /p99 ms\s+tpcb-like.*WORSE/)
  assert.match(text, /work_mem: 4096 kB -> 65536 kB/)
  const md = formatCompareMarkdown(v)
  assert.equal(md.split('\n').filter(l => /^\| (tps|steady-state s|p\d+ ms|max ms) /.test(l)).length, v.rows.length)
  assert.match(md, /:red_circle: \*\*worse\*\*/)
})

test('run length: the requested duration or transaction count when recorded, else the measured one', () => {
  const withOpts = (name, options, durationS) => {
    const d = structuredClone(fixture(name))
    Object.defineProperty(d, 'file', { value: `${name}.json`, enumerable: false })
    d.run.options = { ...d.run.options, ...options }
    d.run.durationS = durationS
    return d
  }
  // -t runs take different times: not a difference
  assert.doesNotThrow(() => compareRuns([withOpts('base-1', { transactionsPerClient: 10 }, 0.5)], [withOpts('same-1', { transactionsPerClient: 10 }, 0.9)]))
  assert.throws(() => compareRuns([withOpts('base-1', { transactionsPerClient: 10 }, 0.5)], [withOpts('same-1', { transactionsPerClient: 20 }, 0.9)]), /requested length 10 per client vs 20 per client/)
  assert.throws(() => compareRuns([withOpts('base-1', { durationS: 30 }, 30)], [withOpts('same-1', { durationS: 60 }, 60)]), /requested length 30 vs 60/)
  // without a recorded request, measured durations must agree within 5 % + 1 s
  assert.throws(() => compareRuns([withOpts('base-1', {}, 30)], [withOpts('same-1', {}, 40)]), /duration s 30 vs 40/)
  assert.doesNotThrow(() => compareRuns([withOpts('base-1', {}, 30)], [withOpts('same-1', {}, 30.9)]))
})

test('a run that followed a load of its tables is named among the differences', () => {
  const loaded = structuredClone(fixture('shift-1'))
  loaded.run.afterLoad = { loadS: 2.1, vacuumed: true, checkpointed: true, settleS: 0.4 }
  const v = compareRuns([fixture('base-1')], [loaded])
  assert.deepEqual(v.differences.informative.find(d => d.name === 'followed a load of its tables'), { name: 'followed a load of its tables', a: ['false'], b: ['true'] })
  assert.match(formatCompareText(v), /followed a load of its tables: false -> true/)
})
