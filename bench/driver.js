// Driver microbenchmark: select-only (`SELECT abalance FROM pgbench_accounts WHERE aid = $1`) in
// a tight loop on N connections, node-postgres vs the lean connection, each configuration in its
// own process (driver-worker.js), alternating; optionally pgbench -S on the same server.

import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseBenchArgs, parseSeconds, parseIntList } from './lib/args.js'
import { benchServer } from './lib/server.js'
import { formatTable } from './lib/table.js'
import { finiteMedian as median } from './lib/stats.js'
import { runMeasured, parsePgbenchOutput } from './lib/child.js'
import { ensureTpcb } from './lib/tpcb-data.js'

const WORKER = fileURLToPath(new URL('./driver-worker.js', import.meta.url))

// Defaults, with units.
const DEFAULTS = {
  duration: '5s', // measured seconds per configuration
  warmup: '1s', // seconds before measuring
  connections: '1,8,32', // concurrent connections
  drivers: 'pg,lean', // pg = lib/db/connection.js, lean = lib/db/lean-connection.js, pg-client = raw Client.query
  repeat: '1', // rounds over all configurations (alternating order); the table shows medians
  scale: '10' // pgbench scale to create when the tables are missing
}

/** @param {string[]} argv @param {{ out: (s: string) => void, err: (s: string) => void }} io */
export async function main (argv, io) {
  const a = parseBenchArgs(argv, {
    url: { type: 'string' },
    duration: { type: 'string', default: DEFAULTS.duration },
    warmup: { type: 'string', default: DEFAULTS.warmup },
    connections: { type: 'string', default: DEFAULTS.connections },
    drivers: { type: 'string', default: DEFAULTS.drivers },
    repeat: { type: 'string', default: DEFAULTS.repeat },
    scale: { type: 'string', default: DEFAULTS.scale },
    pgbench: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false }
  })
  const durationS = a.smoke ? 1 : parseSeconds('--duration', a.duration)
  const warmupS = a.smoke ? 0.3 : parseSeconds('--warmup', a.warmup)
  const conns = a.smoke ? [2] : parseIntList('--connections', a.connections)
  const drivers = a.drivers.split(',')
  const rounds = a.smoke ? 1 : parseIntList('--repeat', a.repeat)[0]
  const server = await benchServer(a.url)
  try {
    const scale = await ensureTpcb(server, { scale: a.smoke ? 1 : Number(a.scale), log: io.err })
    const samples = []
    for (let round = 0; round < rounds; round++) {
      for (const [i, n] of conns.entries()) {
        const order = (round + i) % 2 === 0 ? drivers : [...drivers].reverse()
        for (const d of order) {
          io.err(`driver: ${d}, ${n} connection(s), ${durationS} s\n`)
          samples.push(await runWorker(d, n, durationS, warmupS, server.url))
        }
        if (a.pgbench) {
          io.err(`driver: pgbench -S -M prepared -j 1 -c ${n}, ${durationS} s\n`)
          samples.push(await runPgbench(server, n, durationS))
        }
      }
    }
    const rows = []
    for (const n of conns) {
      for (const d of [...drivers, ...(a.pgbench ? ['pgbench'] : [])]) {
        const s = samples.filter(x => x.driver === d && x.connections === n)
        rows.push([d, n, median(s.map(x => x.tps)), median(s.map(x => x.cpuUsPerQuery)), median(s.map(x => x.userUsPerQuery)), median(s.map(x => x.sysUsPerQuery)), median(s.map(x => x.gcMinorPer10k))])
      }
    }
    if (a.json) io.out(JSON.stringify({ scale, durationS, samples }, null, 1) + '\n')
    else io.out(formatTable(['driver', 'conns', 'tps', 'cpu us/q', 'user us/q', 'sys us/q', 'scavenges/10k q'], rows) + '\n')
  } finally {
    await server.stop()
  }
}

function runWorker (driver, n, durationS, warmupS, url) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, driver, String(n), String(durationS), String(warmupS), url], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d) => { out += d })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`driver worker ${driver} ${n} exited with ${code}`))
      else resolve(JSON.parse(out))
    })
  })
}

async function runPgbench (server, n, durationS) {
  const r = await runMeasured('pgbench', ['-S', '-M', 'prepared', '-j', '1', '-c', String(n), '-T', String(Math.max(1, Math.round(durationS))), ...server.pgbenchArgs, server.database], { env: server.env })
  if (r.code !== 0) throw new Error(`pgbench failed: ${r.stderr.trim().split('\n').pop()}`)
  const p = parsePgbenchOutput(r.stdout)
  const txns = p.transactions + p.failed
  return { driver: 'pgbench', connections: n, queries: txns, tps: p.tps, cpuUsPerQuery: r.cpuUs / txns, userUsPerQuery: r.userUs / txns, sysUsPerQuery: r.systemUs / txns, gcMinorPer10k: NaN }
}
