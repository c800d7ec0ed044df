import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readResults, validateResults, SCHEMA_VERSION } from '../../../lib/results/read.js'
import { histogramProblem } from '../../../lib/results/histogram-check.js'
import { createHistogram, recordUs, encodeHistogram } from '../../../lib/metrics/histogram.js'
import { PgloadError } from '../../../lib/errors.js'

const FIXTURES = new URL('../../fixtures/', import.meta.url)
const fixtureFiles = ['results', 'compare'].flatMap((d) => readdirSync(new URL(d, FIXTURES)).filter((f) => f.endsWith('.json')).map((f) => new URL(`${d}/${f}`, FIXTURES)))
const base = () => JSON.parse(readFileSync(new URL('compare/base-1.json', FIXTURES), 'utf8'))
const dir = mkdtempSync(join(tmpdir(), 'pgload-results-read-'))
process.on('exit', () => rmSync(dir, { recursive: true, force: true }))

let n = 0
function write (content) {
  const file = join(dir, `r${n++}.json`)
  writeFileSync(file, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content))
  return file
}

async function refused (content, message) {
  const file = write(content)
  await assert.rejects(readResults(file), (err) => {
    assert.ok(err instanceof PgloadError)
    assert.equal(err.code, 'RESULTS_INVALID')
    assert.equal(err.exitCode, 1)
    assert.equal(err.message, `${file}: ${message}`)
    return true
  })
}

function damaged (change) {
  const doc = base()
  change(doc)
  return doc
}

test('every fixture and the schema version the writer uses are accepted', async () => {
  assert.equal(SCHEMA_VERSION, 1)
  assert.ok(fixtureFiles.length >= 20)
  for (const url of fixtureFiles) {
    const doc = await readResults(url.pathname)
    assert.equal(doc.schemaVersion, 1, url.pathname)
  }
})

test('the damaged files of the bug report: one line naming the file and the field', async () => {
  const type = 'tpcb-like'
  await refused(damaged((d) => { d.transactions[type].histogram = 'HISTFAAAAx' }),
    `transactions.${type}.histogram: not a readable histogram: not base64 (length 10 is not a multiple of 4)`)
  await refused(damaged((d) => { d.intervals = [null] }), 'intervals[0]: expected an object, got null')
  await refused(damaged((d) => { d.summary.tps = 'fast' }), 'summary.tps: expected a number >= 0 or null, got "fast"')
  await refused(damaged((d) => { d.summary.latencyMs = null }), 'summary.latencyMs: expected an object, got null')
  // compressed histogram data cut short (its length fixed up, so only the inflate can tell)
  await refused(damaged((d) => {
    const buf = Buffer.from(d.intervals[3].histograms[type], 'base64')
    const cut = buf.subarray(0, buf.length - 10)
    cut.writeInt32BE(cut.length - 8, 4)
    d.intervals[3].histograms[type] = cut.toString('base64')
  }), `intervals[3].histograms.${type}: not a readable histogram: damaged compressed data (unexpected end of file)`)
})

test('files that are not results documents', async () => {
  const cut = '{"schemaVersion": 1, "run": {'
  await refused(cut, `not a JSON document (${jsonError(cut)})`) // V8's words differ between Node versions
  await refused('[1, 2]', '(document): expected a JSON object, got an array')
  await refused({ run: {} }, 'schemaVersion: missing (not a pgload results file)')
  await refused({ ...base(), schemaVersion: 2 }, 'schemaVersion: this pgload reads version 1, got 2')
  await refused(damaged((d) => { delete d.summary }), 'summary: missing')
  await refused(damaged((d) => { delete d.run.workload }), 'run.workload: missing')
  await assert.rejects(readResults(join(dir, 'none.json')), (e) => e.code === 'RESULTS_INVALID' && e.message === `${join(dir, 'none.json')}: cannot read results file: no such file`)
  await assert.rejects(readResults(dir), (e) => e.code === 'RESULTS_INVALID' && e.message === `${dir}: cannot read results file: a directory, not a results file`)
})

test('numbers: finite, non-negative counts and figures, integers where counted', async () => {
  await refused(JSON.stringify(base()).replace('"durationS":30', '"durationS":1e999'), 'run.durationS: expected a number >= 0 or null, got a number too large for a double')
  await refused(damaged((d) => { d.summary.failed = -1 }), 'summary.failed: expected an integer >= 0, got -1')
  await refused(damaged((d) => { d.transactions['tpcb-like'].count = 1.5 }), 'transactions.tpcb-like.count: expected an integer >= 0, got 1.5')
  await refused(damaged((d) => { d.summary.errors['40001'] = 'x' }), 'summary.errors["40001"]: expected an integer >= 0, got "x"')
  await refused(damaged((d) => { d.intervals[2].latencyMs.p99 = 'NaN' }), 'intervals[2].latencyMs.p99: expected a number >= 0 or null, got "NaN"')
  await refused(damaged((d) => { d.run.aborted = 'no' }), 'run.aborted: expected true or false, got "no"')
})

test('intervals: objects with a time, in order', async () => {
  await refused(damaged((d) => { delete d.intervals[1].t }), 'intervals[1].t: missing')
  await refused(damaged((d) => { d.intervals.reverse() }), 'intervals: interval 1 ends at t = 29, before interval 0 (t = 30)')
  await refused(damaged((d) => { d.intervals[4].lengthS = 3 }), 'intervals: interval 4 lasts 3 s but ends 1 s after interval 3')
  await refused(damaged((d) => { d.intervals[0].lengthS = 2 }), 'intervals: interval 0 lasts 2 s but ends 1 s after the start')
  // the last interval may be shorter, and lengths are rounded to milliseconds
  const short = damaged((d) => {
    d.intervals[29].t = 29.4
    d.intervals[29].lengthS = 0.405
    d.intervals[29].tps = Math.round(Object.values(d.intervals[29].count).reduce((a, n) => a + n, 0) / 0.405 * 1000) / 1000
    // the run's window ends with its last interval, and its rates are over that window
    d.run.durationS = 29.4
    for (const t of [d.summary, ...Object.values(d.transactions)]) t.tps = Math.round((t.transactions ?? t.count) / 29.4 * 1000) / 1000
  })
  assert.equal(validateResults(short, 'a.json').intervals[29].lengthS, 0.405)
  await refused(damaged((d) => { d.intervals[0].histograms = [] }), 'intervals[0].histograms: expected an object, got an array')
})

test('lenient where writers differ: unknown fields, optional parts, nulls for absent measurements', async () => {
  const doc = damaged((d) => {
    d.summary.unfinished = 3 // counts other versions add
    d.transactions['tpcb-like'].outcomeUnknown = 0
    d.newSection = { anything: [null] }
    delete d.serverStats
    delete d.client
    d.summary.tps = null
    d.summary.latencyMs = { mean: null, p99: null }
  })
  const read = await readResults(write(doc))
  assert.equal(read.summary.unfinished, 3)
  assert.deepEqual(read.newSection, { anything: [null] })
})

test('gzipped results files are read; damaged gzip is one line', async () => {
  const text = JSON.stringify(base())
  const gz = gzipSync(text)
  const doc = await readResults(write(gz))
  assert.equal(doc.summary.transactions, base().summary.transactions)
  await refused(gz.subarray(0, gz.length - 20), 'damaged gzip data (unexpected end of file)')
  await refused(gzipSync(text.slice(0, 100)), `not a JSON document (${jsonError(text.slice(0, 100))})`)
})

const jsonError = (t) => { try { JSON.parse(t) } catch (e) { return e.message } }

test('validateResults names the source it is given', () => {
  assert.equal(validateResults(base(), 'a.json').schemaVersion, 1)
  // in memory (run --report checks the document it built), undefined is an absent field
  assert.equal(validateResults(damaged((d) => { d.run.abortReason = undefined; d.client = undefined }), 'a.json').run.abortReason, undefined)
  assert.throws(() => validateResults(damaged((d) => { d.summary.tps = NaN }), 'a.json'), { message: 'a.json: summary.tps: expected a number >= 0 or null, got NaN' })
  assert.throws(() => validateResults(damaged((d) => { d.run = null }), 'a.json'), { message: 'a.json: run: expected an object, got null' })
})

test('histogramProblem: pgload histograms pass, others and damaged ones say why', () => {
  const h = createHistogram()
  for (let v = 1; v < 5e9; v *= 1.7) recordUs(h, v) // every bucket range, up to the clamp at 1 h
  const encoded = encodeHistogram(h)
  assert.equal(histogramProblem(encoded), null)
  assert.match(histogramProblem(encoded.slice(0, -1)), /not a multiple of 4/)
  assert.match(histogramProblem(Buffer.from('hello world!').toString('base64')), /no V2 cookie/)
  const other = Buffer.from(encoded, 'base64')
  const raw = Buffer.from(other) // a lie in the compressed length
  raw.writeInt32BE(other.length, 4)
  assert.match(histogramProblem(raw.toString('base64')), /compressed length \d+ does not match/)
})

test('the outcome counts, label, load note and steady state are checked like every other field', async () => {
  const doc = JSON.parse(readFileSync(new URL('compare/base-1.json', FIXTURES), 'utf8'))
  const bad = [
    [(d) => { d.summary.unfinished = 'x' }, /summary\.unfinished: /],
    [(d) => { d.transactions['tpcb-like'].outcomeUnknown = -1 }, /transactions\.tpcb-like\.outcomeUnknown: /],
    [(d) => { d.run.label = 7 }, /run\.label: /],
    [(d) => { d.run.afterLoad = { vacuumed: 3 } }, /run\.afterLoad\.vacuumed: /],
    [(d) => { d.summary.steadyState = { timeS: 'soon' } }, /summary\.steadyState\.timeS: /],
    [(d) => { d.run.cancelled = { grace: 1.5 } }, /run\.cancelled\.grace: /]
  ]
  for (const [damage, message] of bad) {
    const d = structuredClone(doc)
    damage(d)
    assert.throws(() => validateResults(d, 'f.json'), message)
  }
})

test('a document readResults returned is not checked again; any other document is', async () => {
  const { ensureValidResults } = await import('../../../lib/results/read.js')
  const dir = mkdtempSync(join(tmpdir(), 'pgload-read-once-'))
  try {
    const file = join(dir, 'r.json')
    writeFileSync(file, readFileSync(new URL('compare/base-1.json', FIXTURES)))
    const read = await readResults(file)
    read.summary.tps = 'fast' // a damage after the read is not looked for again
    assert.equal(ensureValidResults(read, file), read)
    const copy = structuredClone(read)
    assert.throws(() => ensureValidResults(copy, 'copy.json'), { message: /^copy\.json: summary\.tps: / })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

/** A valid histogram of `n` values of `us` microseconds each. */
function histogramOf (n, us = 5) {
  const h = createHistogram()
  for (let i = 0; i < n; i++) recordUs(h, us)
  return encodeHistogram(h)
}

test('a histogram that contradicts the count it stands for is refused, naming the field', async () => {
  const type = Object.keys(base().transactions)[0]
  const count = base().transactions[type].count
  await refused(damaged((d) => { d.transactions[type].histogram = histogramOf(1) }),
    `transactions.${type}.histogram: holds 1 value, but transactions.${type}.count is ${count}`)
  const iv = base().intervals[3]
  await refused(damaged((d) => { d.intervals[3].histograms[type] = histogramOf(2) }),
    `intervals[3].histograms.${type}: holds 2 values, but intervals[3].count.${type} is ${iv.count[type]}`)
  await refused(damaged((d) => { d.intervals[3].histograms.ghost = histogramOf(1) }),
    'intervals[3].histograms.ghost: holds 1 value, but intervals[3].count.ghost is missing')
  const total = base().summary.transactions
  await refused(damaged((d) => { d.summary.lagHistogram = histogramOf(1) }),
    `summary.lagHistogram: holds 1 value, but summary.transactions is ${total}`)
  await refused(damaged((d) => { d.summary.queueHistogram = histogramOf(total + 1) }),
    `summary.queueHistogram: holds ${total + 1} values, but summary.transactions is ${total}`)
  const ivTotal = Object.values(iv.count).reduce((a, b) => a + b, 0)
  await refused(damaged((d) => { d.intervals[3].lagHistogram = histogramOf(ivTotal - 1) }),
    `intervals[3].lagHistogram: holds ${ivTotal - 1} values, but intervals[3].count adds up to ${ivTotal}`)
  // the same histograms with their counts: accepted
  await readResults(write(damaged((d) => {
    d.summary.lagHistogram = histogramOf(total)
    d.summary.lagMs = { mean: 0.005, stddev: 0, min: 0.005, p50: 0.005, p90: 0.005, p95: 0.005, p99: 0.005, p999: 0.005, max: 0.005 }
    d.intervals[3].queueHistogram = histogramOf(ivTotal, 40)
  })))
})

test('a gzip bomb is refused by its decompressed size, naming the file and the limit; so is a plain file too large', async () => {
  // 64 MiB of zeros gzip to 64 KiB; read with a limit of 1 MiB
  const bomb = write(gzipSync(Buffer.alloc(64 * 1048576)))
  await assert.rejects(readResults(bomb, { maxBytes: 1048576 }), (err) => {
    assert.equal(err.code, 'RESULTS_INVALID')
    assert.equal(err.message, `${bomb}: its decompressed content is larger than the 1 MiB a results document may have`)
    return true
  })
  const plain = write(JSON.stringify(base()))
  await assert.rejects(readResults(plain, { maxBytes: 1000 }), { message: `${plain}: the file is larger than the 1000 bytes a results document may have` })
  // within the limit: read as always, gzipped or not
  const gz = write(gzipSync(JSON.stringify(base())))
  assert.equal((await readResults(gz, { maxBytes: 1048576 })).schemaVersion, SCHEMA_VERSION)
})

test('the server host\'s figures: shares of the CPU time within 0-100 %, disk rates not negative, availability said', async () => {
  const figures = { cpu: { busy: 60, user: 40, system: 15, iowait: 5, steal: 0, idle: 40 }, disk: { readsPerS: 1, writesPerS: 200, readBytesPerS: 4096, writeBytesPerS: 819200, queue: 1.5 } }
  const withHost = (change) => damaged((d) => {
    d.serverStats.series = [{ t: 1, host: structuredClone(figures) }, { t: 2, host: null }]
    d.serverStats.host = { available: true, disk: { name: 'vda', devices: ['vda'], scope: 'data directory' }, samples: 1, window: structuredClone(figures), max: structuredClone(figures) }
    change?.(d)
  })
  const read = await readResults(write(withHost()))
  assert.equal(read.serverStats.host.window.cpu.busy, 60)
  await readResults(write(withHost((d) => { d.serverStats.host = { available: false, reason: 'they come from Linux\'s /proc, and this machine runs darwin' } })))
  await refused(withHost((d) => { d.serverStats.series[0].host.cpu.user = 140 }), 'serverStats.series[0].host.cpu.user: a share of the CPU time above 100 %: 140')
  await refused(withHost((d) => { d.serverStats.host.window.disk.queue = -1 }), 'serverStats.host.window.disk.queue: expected a number >= 0, got -1')
  await refused(withHost((d) => { delete d.serverStats.host.available }), 'serverStats.host.available: missing')
  await refused(withHost((d) => { d.serverStats.host.max.cpu.busy = 'high' }), 'serverStats.host.max.cpu.busy: expected a number >= 0, got "high"')
})

test('pooler: the section of a run through PgBouncer, its series in order and its figures held to it', async () => {
  const recorded = () => JSON.parse(readFileSync(new URL('results/recorded-tpcb-pgbouncer.json', FIXTURES), 'utf8'))
  const doc = await readResults(write(recorded()))
  assert.equal(doc.pooler.version, '1.18.0')
  assert.ok(doc.pooler.series.length >= 3)
  const broken = (change) => { const d = recorded(); change(d.pooler); return d }
  await refused(broken((p) => { p.series.reverse() }), `pooler: series[1] ends at t = ${doc.pooler.series.at(-2).t}, before series[0] (t = ${doc.pooler.series.at(-1).t})`)
  await refused(broken((p) => { p.series[0].clientsWaiting = -1 }), 'pooler.series[0].clientsWaiting: expected an integer >= 0 or null, got -1')
  await refused(broken((p) => { p.maxClientsWaiting = 99 }), `pooler: maxClientsWaiting is 99, but the series' most is ${doc.pooler.maxClientsWaiting}`)
  await refused(broken((p) => { p.waitingIntervals = 99 }), `pooler: waitingIntervals is 99, but the series has ${doc.pooler.series.length} entries`)
  await refused(broken((p) => { delete p.series }), 'pooler.series: missing')
})
