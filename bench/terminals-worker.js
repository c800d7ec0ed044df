// One `terminals` measurement inside a pgload process (run with --expose-gc): the pgload library
// runs select-only with many think-time terminals while this samples RSS and heap; prints JSON.
// Usage: node --expose-gc bench/terminals-worker.js '<json options>'

import { PerformanceObserver, constants } from 'node:perf_hooks'
import { measureBenchmark } from '../lib/benchmark.js'
import { resolvePlan } from '../lib/plan/resolve.js'
import { applyDriverV8Flags } from '../lib/engine/v8-flags.js'

applyDriverV8Flags() // the runtime settings of pgload's command line

const o = JSON.parse(process.argv[2])
const gc = globalThis.gc ?? (() => {})

const options = await resolvePlan({
  workload: 'tpcb',
  scripts: [{ kind: 'builtin', name: 'select-only' }],
  clients: o.terminals,
  connections: o.connections,
  durationS: o.durationS,
  warmupS: o.warmupS,
  thinkTime: o.thinkTime,
  url: o.url,
  serverStats: false,
  driver: o.driver,
  writeFile: false
})

gc()
const heapBaseline = process.memoryUsage().heapUsed
const samples = [] // { t, rss, heapUsed }
let heapWithTerminals = null
let t0 = null
// Heap per terminal: one forced full GC late in the warm-up, when every terminal exists; never
// in the measured window, where its pause (about 200 ms with 100,000 terminals) would be lag.
const heapAtS = o.warmupS * 0.8

function measureHeap () {
  gc()
  heapWithTerminals = process.memoryUsage().heapUsed
}

function sample () {
  const t = (performance.now() - t0) / 1000
  const m = process.memoryUsage()
  samples.push({ t, rss: m.rss, heapUsed: m.heapUsed })
}

// GC pauses in the measured window: schedule lag's usual suspect.
const gcStats = { minor: { count: 0, totalMs: 0, maxMs: 0 }, major: { count: 0, totalMs: 0, maxMs: 0 } }
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const g = e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR ? gcStats.minor : gcStats.major
    g.count++
    g.totalMs += e.duration
    if (e.duration > g.maxMs) g.maxMs = e.duration
  }
})

let timer = null
let theRun = null // kept reachable, so that its terminals are still live for the last heap figure
const { results } = await measureBenchmark(options, {
  onRun (run) {
    theRun = run
    const heapTimer = setTimeout(measureHeap, heapAtS * 1000)
    run.once('done', () => clearTimeout(heapTimer))
    // Sample from the start of the measured window (after the warm-up) on.
    run.once('measuring', () => {
      t0 = performance.now()
      if (heapWithTerminals === null) measureHeap() // no warm-up: at the start of the window
      gcObserver.observe({ entryTypes: ['gc'] })
      sample()
      timer = setInterval(sample, o.sampleS * 1000)
      timer.unref()
    })
    run.once('done', () => clearInterval(timer))
  }
})
clearInterval(timer)
gcObserver.disconnect()
// Live heap after a full GC at the end, with every terminal still reachable: against the one
// taken in the warm-up, what the run kept (it includes the per-second results it accumulates).
gc()
const liveHeapEnd = theRun === null ? null : process.memoryUsage().heapUsed
const round2 = (v) => Math.round(v * 100) / 100
for (const g of [gcStats.minor, gcStats.major]) { g.totalMs = round2(g.totalMs); g.maxMs = round2(g.maxMs) }
const lagged = results.intervals.filter(iv => (iv.lagMs?.p99 ?? 0) > 2).length

const steady = samples.filter(s => s.t >= o.durationS * 0.2)
process.stdout.write(JSON.stringify({
  terminals: o.terminals,
  connections: results.run?.connections ?? null,
  durationS: results.run?.durationS ?? o.durationS,
  tps: results.summary.tps,
  transactions: results.summary.transactions,
  failed: results.summary.failed,
  lagMs: results.summary.lagMs,
  latencyMs: results.summary.latencyMs,
  heapPerTerminalBytes: heapWithTerminals === null ? null : (heapWithTerminals - heapBaseline) / o.terminals,
  liveHeapWarmupMB: heapWithTerminals === null ? null : heapWithTerminals / 2 ** 20,
  liveHeapEndMB: liveHeapEnd === null ? null : liveHeapEnd / 2 ** 20,
  resultIntervals: results.intervals.length,
  rssStartMB: samples[0] ? samples[0].rss / 2 ** 20 : null,
  rssEndMB: samples.length ? samples[samples.length - 1].rss / 2 ** 20 : null,
  rssSlopeMBPerMin: slope(steady, 'rss') * 60 / 2 ** 20,
  heapSlopeMBPerMin: slope(steady, 'heapUsed') * 60 / 2 ** 20,
  samples: samples.length,
  gc: gcStats,
  intervalsWithLagP99Over2ms: `${lagged} of ${results.intervals.length}`,
  client: results.client ?? null
}) + '\n')

// Least-squares slope of y over t (bytes per second); NaN with fewer than 3 samples.
function slope (points, key) {
  const n = points.length
  if (n < 3) return NaN
  const mt = points.reduce((s, p) => s + p.t, 0) / n
  const my = points.reduce((s, p) => s + p[key], 0) / n
  let num = 0
  let den = 0
  for (const p of points) { num += (p.t - mt) * (p[key] - my); den += (p.t - mt) ** 2 }
  return num / den
}
