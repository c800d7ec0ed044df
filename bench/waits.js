// What the wait sampler costs: `pgload run` select-only and tpcb-like with 8 clients, with
// `--wait-sampling` at its default rate and with it off, in alternating rounds on the same
// server; the ratio of the medians' tps and of the client CPU per transaction. The target: the
// sampled runs' tps within 2 % of the unsampled ones'.

import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PgloadError } from '../lib/errors.js'
import { parseBenchArgs, parseSeconds } from './lib/args.js'
import { benchServer } from './lib/server.js'
import { ensureTpcb } from './lib/tpcb-data.js'
import { finiteMedian } from './lib/stats.js'
import { formatTable } from './lib/table.js'
import { targetVerdict } from './lib/target-verdict.js'

const PGLOAD = fileURLToPath(new URL('../bin/pgload.js', import.meta.url))

// Defaults, with units.
const DEFAULTS = {
  duration: '10s', // per run
  repeat: 5, // rounds; each runs both modes, the first alternating
  clients: 8,
  scale: 10,
  workloads: 'select-only,tpcb-like',
  smoke: { durationS: 3, clients: 2, scale: 1 }
}
const MODES = ['off', 'sampled']
const TARGET = 0.98

/** @param {string[]} argv @param {{ out: (s: string) => void, err: (s: string) => void }} io */
export async function main (argv, io) {
  const a = parseBenchArgs(argv, {
    url: { type: 'string' },
    duration: { type: 'string', default: DEFAULTS.duration },
    repeat: { type: 'string', default: String(DEFAULTS.repeat) },
    clients: { type: 'string', default: String(DEFAULTS.clients) },
    scale: { type: 'string', default: String(DEFAULTS.scale) },
    workloads: { type: 'string', default: DEFAULTS.workloads },
    smoke: { type: 'boolean', default: false }
  })
  const durationS = a.smoke ? DEFAULTS.smoke.durationS : Math.round(parseSeconds('--duration', a.duration))
  const rounds = a.smoke ? 1 : Number(a.repeat)
  if (!Number.isInteger(rounds) || rounds < 1) throw new PgloadError(`--repeat must be an integer >= 1, got ${JSON.stringify(a.repeat)}`)
  const clients = a.smoke ? DEFAULTS.smoke.clients : Number(a.clients)
  if (!Number.isInteger(clients) || clients < 1) throw new PgloadError(`--clients must be an integer >= 1, got ${JSON.stringify(a.clients)}`)
  const workloads = a.workloads.split(',')
  const unknown = workloads.find((w) => !['select-only', 'tpcb-like', 'simple-update'].includes(w))
  if (unknown) throw new PgloadError(`--workloads: unknown workload ${JSON.stringify(unknown)} (select-only, tpcb-like or simple-update)`)
  const server = await benchServer(a.url)
  const dir = await mkdtemp(join(tmpdir(), 'pgload-bench-waits-'))
  try {
    const scale = await ensureTpcb(server, { scale: a.smoke ? DEFAULTS.smoke.scale : Number(a.scale), log: io.err })
    io.err(`waits: ${workloads.join(', ')} -c ${clients}, scale ${scale}, ${durationS} s per run, ${rounds} round(s), ${server.target.display}\n`)
    const rows = []
    const verdicts = []
    for (const workload of workloads) {
      const m = await measureCase(server, { workload, clients, durationS, rounds, dir, io })
      rows.push([workload, clients, ...m.row])
      verdicts.push([workload, clients, ...m.verdict])
    }
    io.out(formatTable(['workload', 'clients', 'off tps', 'sampled tps', 'tps ratio', 'off cpu us/txn', 'sampled cpu us/txn', 'cpu ratio', 'samples per s'], rows) + '\n\n')
    io.out(formatTable(['workload', 'clients', 'tps ratio', 'interval', 'target', 'verdict'], verdicts) + '\n')
  } finally {
    await rm(dir, { recursive: true, force: true })
    await server.stop()
  }
}

/** One workload's rounds, the modes alternating which goes first. */
async function measureCase (server, { workload, clients, durationS, rounds, dir, io }) {
  const by = { off: [], sampled: [] }
  for (let round = 0; round < rounds; round++) {
    for (const mode of round % 2 === 0 ? MODES : [...MODES].reverse()) {
      const r = await runOnce(server, { workload, mode, clients, durationS, out: join(dir, `${workload}-${round}-${mode}.json`) })
      by[mode].push(r)
      io.err(`waits: ${workload} round ${round + 1}/${rounds} ${mode}: ${r.tps.toFixed(1)} tps, ${r.cpuUsPerTxn} us CPU per transaction${mode === 'sampled' ? `, ${r.ticksPerS.toFixed(1)} samples per s` : ''}\n`)
    }
  }
  const med = (mode, key) => finiteMedian(by[mode].map((r) => r[key]))
  const [off, sampled] = [med('off', 'tps'), med('sampled', 'tps')]
  const [cpuOff, cpuSampled] = [med('off', 'cpuUsPerTxn'), med('sampled', 'cpuUsPerTxn')]
  const v = targetVerdict(by.sampled.map((r, i) => r.tps / by.off[i].tps), TARGET, 'atLeast')
  const interval = v.lo === null ? 'n/a' : `${v.lo.toFixed(3)}-${v.hi.toFixed(3)}`
  return {
    row: [off.toFixed(1), sampled.toFixed(1), (sampled / off).toFixed(3), cpuOff, cpuSampled, (cpuSampled / cpuOff).toFixed(3), med('sampled', 'ticksPerS').toFixed(1)],
    verdict: [v.median.toFixed(3), interval, `>= ${TARGET}`, v.verdict]
  }
}

/** One `pgload run`, sampling its waits at the default rate or not at all. */
async function runOnce (server, { workload, mode, clients, durationS, out }) {
  const args = ['run', 'tpcb', '-b', workload, '-c', String(clients), '-M', 'prepared', '-T', String(durationS), '--url', server.url, '--out', out, '--no-server-stats']
  if (mode === 'off') args.push('--wait-sampling', 'off')
  const child = spawn(process.execPath, [PGLOAD, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => { stderr += d })
  const code = await new Promise((resolve) => child.on('close', resolve))
  if (code !== 0) throw new PgloadError(`pgload run exited with ${code}: ${stderr.trim().split('\n').pop()}`)
  const results = JSON.parse(await readFile(out, 'utf8'))
  // the measured window's length: its transactions over its rate
  const ticks = results.waits?.ticks?.done ?? 0
  if (mode === 'sampled' && !(ticks > 0)) throw new PgloadError(`the sampled run took no wait sample: ${results.waits?.reason ?? 'no waits section'}`)
  return { tps: results.summary.tps, cpuUsPerTxn: results.client?.cpuUsPerTxn ?? NaN, ticksPerS: ticks * results.summary.tps / results.summary.transactions }
}
