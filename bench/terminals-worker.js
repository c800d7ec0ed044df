// One `terminals` measurement inside a pgload process (run with --expose-gc): the pgload library
// runs select-only with many think-time terminals while this samples RSS and heap; prints JSON.
// Usage: node --expose-gc bench/terminals-worker.js '<json options>'

import { runBenchmark } from '../lib/benchmark.js'
import { runOptionsFromArgv } from '../lib/cli/run.js'

const o = JSON.parse(process.argv[2])
const gc = globalThis.gc ?? (() => {})

const options = await runOptionsFromArgv({
  workload: ['tpcb'],
  builtin: ['select-only'],
  clients: o.terminals,
  connections: o.connections,
  duration: `${o.durationS}s`,
  warmup: `${o.warmupS}s`,
  thinkTime: o.thinkTime,
  url: o.url,
  serverStats: false,
  ...(o.driver ? { driver: o.driver } : {})
})
options.writeFile = false

gc()
const heapBaseline = process.memoryUsage().heapUsed
const samples = [] // { t, rss, heapUsed }
let heapWithTerminals = null
let t0 = null
const heapAtS = Math.min(o.durationS * 0.25, 30) // s into the measured window: one forced GC

function sample () {
  const t = (performance.now() - t0) / 1000
  if (heapWithTerminals === null && t >= heapAtS) {
    gc()
    heapWithTerminals = process.memoryUsage().heapUsed
  }
  const m = process.memoryUsage()
  samples.push({ t, rss: m.rss, heapUsed: m.heapUsed })
}

let timer = null
const { results } = await runBenchmark(options, {
  onRun (run) {
    // Ticks start with the measured window (after the warm-up): sample from then on.
    run.once('tick', () => {
      t0 = performance.now() - 1000
      sample()
      timer = setInterval(sample, Math.min(o.sampleS, heapAtS) * 1000)
      timer.unref()
    })
    run.once('done', () => clearInterval(timer))
  }
})
clearInterval(timer)

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
  rssStartMB: samples[0] ? samples[0].rss / 2 ** 20 : null,
  rssEndMB: samples.length ? samples[samples.length - 1].rss / 2 ** 20 : null,
  rssSlopeMBPerMin: slope(steady, 'rss') * 60 / 2 ** 20,
  heapSlopeMBPerMin: slope(steady, 'heapUsed') * 60 / 2 ** 20,
  samples: samples.length,
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
