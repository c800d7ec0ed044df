// Many paced terminals in one process: 100,000 terminals with exponential think time (mean
// 10 s) on select-only. Reports schedule lag p99, heap per terminal and the RSS slope.

import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseBenchArgs, parseSeconds } from './lib/args.js'
import { benchServer } from './lib/server.js'
import { formatTable } from './lib/table.js'
import { ensureTpcb } from './lib/tpcb-data.js'
import { PgloadError } from '../lib/errors.js'
import { driverArgs } from './lib/driver-select.js'

const WORKER = fileURLToPath(new URL('./terminals-worker.js', import.meta.url))

// Defaults, with units.
const DEFAULTS = {
  terminals: 100000, // simulated clients
  thinkTime: 'exp:10000', // ms, pgload's distribution syntax
  duration: '60s', // measured run (the soak: --duration 10m)
  warmup: '20s', // before measuring: every terminal starts at once, the first wave drains here
  sample: '5s', // RSS/heap sampling period
  scale: 10, // pgbench scale to load when the tables are missing
  driver: 'default', // pgload's connection: default (whatever pgload uses), pg or lean
  smoke: { terminals: 2000, thinkTime: 'exp:1000', durationS: 3, warmupS: 1, sampleS: 0.25, scale: 1 }
}

/** @param {string[]} argv @param {{ out: (s: string) => void, err: (s: string) => void }} io */
export async function main (argv, io) {
  const a = parseBenchArgs(argv, {
    url: { type: 'string' },
    terminals: { type: 'string', default: String(DEFAULTS.terminals) },
    'think-time': { type: 'string', default: DEFAULTS.thinkTime },
    duration: { type: 'string', default: DEFAULTS.duration },
    warmup: { type: 'string', default: DEFAULTS.warmup },
    sample: { type: 'string', default: DEFAULTS.sample },
    connections: { type: 'string' },
    driver: { type: 'string', default: DEFAULTS.driver },
    scale: { type: 'string', default: String(DEFAULTS.scale) },
    smoke: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false }
  })
  const s = DEFAULTS.smoke
  const terminals = a.smoke ? s.terminals : Number(a.terminals)
  if (!Number.isInteger(terminals) || terminals < 1) throw new PgloadError(`--terminals must be an integer >= 1, got ${JSON.stringify(a.terminals)}`)
  const connections = a.connections === undefined ? undefined : Number(a.connections)
  if (!['default', 'pg', 'lean'].includes(a.driver)) throw new PgloadError(`--driver must be pg or lean, got ${JSON.stringify(a.driver)}`)
  const { nodeArgs, runArgs } = driverArgs(a.driver)
  const server = await benchServer(a.url)
  try {
    await ensureTpcb(server, { scale: a.smoke ? s.scale : Number(a.scale), log: io.err })
    const opts = {
      url: server.url,
      terminals,
      connections,
      thinkTime: a.smoke ? s.thinkTime : a['think-time'],
      durationS: a.smoke ? s.durationS : parseSeconds('--duration', a.duration),
      warmupS: a.smoke ? s.warmupS : parseSeconds('--warmup', a.warmup),
      sampleS: a.smoke ? s.sampleS : parseSeconds('--sample', a.sample),
      driver: runArgs[1] ?? null
    }
    io.err(`terminals: ${terminals} terminals, think time ${opts.thinkTime}, ${opts.warmupS} s warm-up + ${opts.durationS} s, ${server.target.display}\n`)
    const r = await runWorker(opts, nodeArgs)
    if (a.json) {
      io.out(JSON.stringify(r, null, 1) + '\n')
      return
    }
    io.out(formatTable(['figure', 'value'], [
      ['terminals', r.terminals],
      ['connections', r.connections ?? '-'],
      ['warm-up s (not measured)', opts.warmupS],
      ['duration s', r.durationS],
      ['tps', r.tps],
      ['latency p99 ms', r.latencyMs?.p99 ?? NaN],
      ['schedule lag p99 ms (target < 2)', r.lagMs?.p99 ?? NaN],
      ['schedule lag max ms', r.lagMs?.max ?? NaN],
      ['heap per terminal bytes (target < 2048)', r.heapPerTerminalBytes ?? NaN],
      ['live heap after full GC: warm-up MB', r.liveHeapWarmupMB ?? NaN],
      ['live heap after full GC: end MB', r.liveHeapEndMB ?? NaN],
      ['RSS start MB', r.rssStartMB ?? NaN],
      ['RSS end MB', r.rssEndMB ?? NaN],
      ['RSS slope MB/min', r.rssSlopeMBPerMin],
      ['heap slope MB/min', r.heapSlopeMBPerMin],
      ['seconds with lag p99 > 2 ms', r.intervalsWithLagP99Over2ms],
      ['GC minor: count / max ms', `${r.gc.minor.count} / ${r.gc.minor.maxMs}`],
      ['GC major: count / max ms', `${r.gc.major.count} / ${r.gc.major.maxMs}`],
      ['client cpu us/txn', r.client?.cpuUsPerTxn ?? NaN],
      ['event loop utilization', r.client?.eventLoopUtilization ?? NaN],
      ['driver thread on a CPU / waiting %', typeof r.client?.onCpuShare === 'number' ? `${Math.round(100 * r.client.onCpuShare)} / ${Math.round(100 * r.client.cpuWaitShare)}` : NaN]
    ]) + '\n')
  } finally {
    await server.stop()
  }
}

function runWorker (opts, nodeArgs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', ...nodeArgs, WORKER, JSON.stringify(opts)], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d) => { out += d })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`terminals worker exited with ${code}`))
      else resolve(JSON.parse(out))
    })
  })
}
