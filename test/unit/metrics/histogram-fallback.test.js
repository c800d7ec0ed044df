// recordUs and addInto read hdr-histogram-js's internals; a release laid out otherwise must not
// break a run: the layout check names what differs, and the public path records the same values.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createRequire } from 'node:module'
import hdr from 'hdr-histogram-js'
import { createHistogram, layoutMismatch, directCounts, recordUs, addInto, percentileMs } from '../../../lib/metrics/histogram.js'

test('the installed hdr-histogram-js has the layout the direct path assumes', () => {
  assert.equal(layoutMismatch(createHistogram()), null)
  assert.equal(directCounts, true)
})

test('a histogram laid out otherwise is named for what differs', () => {
  const noMethod = createHistogram()
  noMethod.incrementCountAtIndex = undefined
  assert.equal(layoutMismatch(noMethod), 'no incrementCountAtIndex()')
  const floatCounts = createHistogram()
  floatCounts._counts = new Float64Array(floatCounts.countsArrayLength)
  assert.match(layoutMismatch(floatCounts), /not a Uint32Array/)
  const twoDigits = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 2, bitBucketSize: 32, autoResize: false, useWebAssembly: false })
  assert.match(layoutMismatch(twoDigits), /layout differs/)
  const otherIndex = createHistogram()
  otherIndex.countsArrayIndex = (v) => v
  assert.match(layoutMismatch(otherIndex), /counts index of \d+ differs/)
})

const histogramUrl = new URL('../../../lib/metrics/histogram.js', import.meta.url).href
const hdrUrl = pathToFileURL(createRequire(import.meta.url).resolve('hdr-histogram-js')).href
// Before pgload loads: every 32-bit histogram hdr builds keeps its counts in a Float64Array
// (hdr's own methods still work on them), as a release with another counts type would.
const PATCH = `import hdr from ${JSON.stringify(hdrUrl)}
const proto = Object.getPrototypeOf(hdr.build({ bitBucketSize: 32, useWebAssembly: false }))
Object.defineProperty(proto, '_counts', { configurable: true, get () { return this.countsF64 }, set (v) { this.countsF64 = new Float64Array(v) } })`
const CHILD = `import { recordUs, addInto, createHistogram, directCounts, percentileMs } from ${JSON.stringify(histogramUrl)}
const a = createHistogram(); const b = createHistogram()
for (let v = 1; v <= 1000; v++) recordUs(a, v * 10)
recordUs(b, 5_000_000)
addInto(a, b)
console.log(JSON.stringify({ directCounts, count: a.totalCount, p50: percentileMs(a, 50), max: a.maxValue }))`

test('with another layout: one warning, and the public path records and adds the same values', () => {
  const cwd = fileURLToPath(new URL('../../../', import.meta.url))
  const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(PATCH)}`, '--input-type=module', '-e', CHILD], { cwd, encoding: 'utf8', timeout: 30_000 })
  assert.equal(r.status, 0, r.stderr)
  const fallback = JSON.parse(r.stdout)
  const warnings = r.stderr.split('\n').filter((l) => l.includes('PGLOAD_HISTOGRAM_FALLBACK'))
  assert.equal(warnings.length, 1, r.stderr)
  assert.match(warnings[0], /not a Uint32Array of countsArrayLength\): latencies are recorded through its public API/)

  // the same figures on the direct path
  const a = createHistogram()
  const b = createHistogram()
  for (let v = 1; v <= 1000; v++) recordUs(a, v * 10)
  recordUs(b, 5_000_000)
  addInto(a, b)
  assert.deepEqual(fallback, { directCounts: false, count: 1001, p50: percentileMs(a, 50), max: 5_000_000 })
  assert.equal(a.totalCount, 1001)
  assert.equal(percentileMs(a, 50), 5.011) // 5000 us, the top of its bucket
})
