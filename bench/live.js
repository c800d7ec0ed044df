// What watching a run costs: `pgload run` select-only with 8 clients, plain and with the live
// dashboard (one page subscribed to its events) and the Prometheus endpoint (scraped every
// second), in alternating rounds on the same server; the ratio of the medians' tps. The target:
// within 2 % of the tps without them.

import { spawn } from 'node:child_process'
import http from 'node:http'
import { fileURLToPath } from 'node:url'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PgloadError } from '../lib/errors.js'
import { parseBenchArgs, parseSeconds } from './lib/args.js'
import { benchServer } from './lib/server.js'
import { ensureTpcb } from './lib/tpcb-data.js'
import { finiteMedian, finiteRange } from './lib/stats.js'
import { formatTable } from './lib/table.js'

const PGLOAD = fileURLToPath(new URL('../bin/pgload.js', import.meta.url))

// Defaults, with units.
const DEFAULTS = {
  duration: '10s', // per run
  repeat: 3, // rounds; each runs both modes, the first alternating
  clients: 8,
  scale: 10,
  smoke: { durationS: 3, clients: 2, scale: 1 }
}
const MODES = ['plain', 'watched']

/** @param {string[]} argv @param {{ out: (s: string) => void, err: (s: string) => void }} io */
export async function main (argv, io) {
  const a = parseBenchArgs(argv, {
    url: { type: 'string' },
    duration: { type: 'string', default: DEFAULTS.duration },
    repeat: { type: 'string', default: String(DEFAULTS.repeat) },
    clients: { type: 'string', default: String(DEFAULTS.clients) },
    scale: { type: 'string', default: String(DEFAULTS.scale) },
    smoke: { type: 'boolean', default: false }
  })
  const durationS = a.smoke ? DEFAULTS.smoke.durationS : Math.round(parseSeconds('--duration', a.duration))
  const rounds = a.smoke ? 1 : Number(a.repeat)
  if (!Number.isInteger(rounds) || rounds < 1) throw new PgloadError(`--repeat must be an integer >= 1, got ${JSON.stringify(a.repeat)}`)
  const clients = a.smoke ? DEFAULTS.smoke.clients : Number(a.clients)
  if (!Number.isInteger(clients) || clients < 1) throw new PgloadError(`--clients must be an integer >= 1, got ${JSON.stringify(a.clients)}`)
  const server = await benchServer(a.url)
  const dir = await mkdtemp(join(tmpdir(), 'pgload-bench-live-'))
  try {
    const scale = await ensureTpcb(server, { scale: a.smoke ? DEFAULTS.smoke.scale : Number(a.scale), log: io.err })
    io.err(`live: select-only -c ${clients}, scale ${scale}, ${durationS} s per run, ${rounds} round(s), ${server.target.display}\n`)
    const tps = { plain: [], watched: [] }
    const cpu = { plain: [], watched: [] }
    const scrapes = []
    for (let round = 0; round < rounds; round++) {
      for (const mode of round % 2 === 0 ? MODES : [...MODES].reverse()) {
        const r = await runOnce(server, { mode, clients, durationS, out: join(dir, `${round}-${mode}.json`) })
        tps[mode].push(r.tps)
        cpu[mode].push(r.cpuUsPerTxn)
        if (mode === 'watched') scrapes.push(r.scrapes)
        io.err(`live: round ${round + 1}/${rounds} ${mode}: ${r.tps.toFixed(1)} tps, ${r.cpuUsPerTxn} us CPU per transaction${mode === 'watched' ? ` (${r.updates} dashboard updates, ${r.scrapes} scrapes)` : ''}\n`)
      }
    }
    const plain = finiteMedian(tps.plain)
    const watched = finiteMedian(tps.watched)
    const { min: lo, max: hi } = finiteRange(tps.watched.map((w, i) => w / tps.plain[i]))
    // CPU per transaction is steadier than tps on a machine whose cores others take
    const cpuPlain = finiteMedian(cpu.plain)
    const cpuWatched = finiteMedian(cpu.watched)
    io.out(formatTable(['clients', 'plain tps', 'dashboard+metrics tps', 'ratio', 'ratio min', 'ratio max', 'plain cpu us/txn', 'watched cpu us/txn', 'cpu ratio', 'scrapes per run'], [
      [clients, plain.toFixed(1), watched.toFixed(1), (watched / plain).toFixed(3), lo.toFixed(3), hi.toFixed(3), cpuPlain, cpuWatched, (cpuWatched / cpuPlain).toFixed(3), finiteMedian(scrapes)]
    ]) + '\n')
    io.out(`target: dashboard+metrics tps >= 0.98 x plain: ${watched / plain >= 0.98 ? 'met' : 'not met'} (medians of ${rounds} round(s); a shared machine's noise is in the min-max)\n`)
  } finally {
    await rm(dir, { recursive: true, force: true })
    await server.stop()
  }
}

/** One `pgload run`; watched: one SSE subscriber on the dashboard and a scrape of /metrics every second. */
async function runOnce (server, { mode, clients, durationS, out }) {
  const args = ['run', 'tpcb', '-S', '-c', String(clients), '-T', String(durationS), '--url', server.url, '--out', out, '--no-server-stats']
  if (mode === 'watched') args.push('--dashboard', '127.0.0.1:0', '--metrics', '127.0.0.1:0')
  const child = spawn(process.execPath, [PGLOAD, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  let updates = 0
  let scrapes = 0
  let timer = null
  let sse = null
  child.stderr.on('data', (d) => {
    stderr += d
    if (mode !== 'watched' || sse) return
    const dash = /dashboard at (http:\S+)/.exec(stderr)
    const metrics = /metrics at (http:\S+)/.exec(stderr)
    if (!dash || !metrics) return
    sse = http.get(new URL('events', dash[1]), (res) => res.on('data', (c) => { updates += (String(c).match(/^event: update$/gm) ?? []).length }))
    sse.on('error', () => {})
    timer = setInterval(() => {
      http.get(metrics[1], (res) => { res.resume(); res.on('end', () => scrapes++) }).on('error', () => {})
    }, 1000)
  })
  const code = await new Promise((resolve) => child.on('close', resolve))
  clearInterval(timer)
  sse?.destroy()
  if (code !== 0) throw new PgloadError(`pgload run exited with ${code}: ${stderr.trim().split('\n').pop()}`)
  const results = JSON.parse(await readFile(out, 'utf8'))
  return { tps: results.summary.tps, cpuUsPerTxn: results.client?.cpuUsPerTxn ?? NaN, updates, scrapes }
}
