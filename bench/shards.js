// Shards of one tpcb run on this machine, started as a Kubernetes Indexed Job starts its pods
// (one command line, JOB_COMPLETION_INDEX 0..N-1), then `pgload merge`: the merged totals against
// the shards' own files summed, the merged percentiles against one histogram of every logged
// latency (--log), and how far apart the shards started (target: within 50 ms).

import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir, availableParallelism } from 'node:os'
import { join } from 'node:path'
import { PgloadError } from '../lib/errors.js'
import { createHistogram, recordUs, latencySummaryMs } from '../lib/metrics/histogram.js'
import { parseBenchArgs, parseSeconds } from './lib/args.js'
import { benchServer } from './lib/server.js'
import { ensureTpcb } from './lib/tpcb-data.js'
import { finiteMedian } from './lib/stats.js'
import { formatTable } from './lib/table.js'

const PGLOAD = fileURLToPath(new URL('../bin/pgload.js', import.meta.url))
const PERCENTILES = ['p50', 'p90', 'p99', 'p999', 'max']
// ms: the shards of one run should start within this of each other
const SKEW_TARGET_MS = 50

// Defaults, with units.
const DEFAULTS = {
  shards: 4,
  clients: 8, // of the whole run, shared out over the shards
  duration: '10s', // per run
  repeat: 3, // runs
  scale: 1,
  smoke: { shards: 2, clients: 2, durationS: 2, repeat: 1 }
}

/** @param {string[]} argv @param {{ out: (s: string) => void, err: (s: string) => void }} io */
export async function main (argv, io) {
  const a = parseBenchArgs(argv, {
    url: { type: 'string' },
    shards: { type: 'string', default: String(DEFAULTS.shards) },
    clients: { type: 'string', default: String(DEFAULTS.clients) },
    duration: { type: 'string', default: DEFAULTS.duration },
    repeat: { type: 'string', default: String(DEFAULTS.repeat) },
    smoke: { type: 'boolean', default: false }
  })
  const shards = a.smoke ? DEFAULTS.smoke.shards : positive('--shards', a.shards)
  const clients = a.smoke ? DEFAULTS.smoke.clients : positive('--clients', a.clients)
  const durationS = a.smoke ? DEFAULTS.smoke.durationS : parseSeconds('--duration', a.duration)
  const rounds = a.smoke ? DEFAULTS.smoke.repeat : positive('--repeat', a.repeat)
  if (clients < shards) throw new PgloadError(`--clients ${clients} leaves some of the ${shards} shards without a client`)

  const server = await benchServer(a.url)
  const dir = await mkdtemp(join(tmpdir(), 'pgload-shards-'))
  try {
    await ensureTpcb(server, { scale: DEFAULTS.scale, log: io.err })
    io.err(`shards: ${shards} shards of one tpcb-like run, -c ${clients}, ${durationS} s, ${rounds} run(s), ${server.target.display}\n`)
    const results = []
    for (let round = 0; round < rounds; round++) {
      io.err(`shards: run ${round + 1}/${rounds}\n`)
      results.push(await shardedRun(server, { shards, clients, durationS, dir: join(dir, String(round)), runId: `bench-${process.pid}-${round}` }))
    }
    io.out(report(results, shards))
  } finally {
    await rm(dir, { recursive: true, force: true })
    await server.stop()
  }
}

/** One sharded run: the shards, their merge, and the figures compared. */
async function shardedRun (server, { shards, clients, durationS, dir, runId }) {
  const files = Array.from({ length: shards }, (_, k) => join(dir, `shard-${k}.json`))
  await Promise.all(files.map((out, k) => pgload(['run', 'tpcb', '--url', server.url, '-c', String(clients), '-T', `${durationS}s`, '-n',
    '--shards', String(shards), '--run-id', runId, '-o', out, '--log', '--log-prefix', join(dir, `log-${k}`)], { ...server.env, JOB_COMPLETION_INDEX: String(k) })))
  const merged = join(dir, 'merged.json')
  await pgload(['merge', ...files, '-o', merged], server.env)
  const docs = await Promise.all(files.map(async (f) => JSON.parse(await readFile(f, 'utf8'))))
  const m = JSON.parse(await readFile(merged, 'utf8'))
  const sum = (f) => docs.reduce((s, d) => s + f(d), 0)
  const all = createHistogram()
  for (const f of (await readdir(dir)).filter((n) => n.startsWith('log-'))) {
    for (const line of (await readFile(join(dir, f), 'utf8')).split('\n')) {
      const latency = line.split(' ')[2]
      if (/^\d+$/.test(latency ?? '')) recordUs(all, Number(latency))
    }
  }
  const starts = docs.map((d) => Date.parse(d.run.startTime))
  return {
    merged: { transactions: m.summary.transactions, failed: m.summary.failed, tpcb: m.transactions['tpcb-like'].count, tps: m.summary.tps },
    summed: { transactions: sum((d) => d.summary.transactions), failed: sum((d) => d.summary.failed), tpcb: sum((d) => d.transactions['tpcb-like'].count), tps: sum((d) => d.summary.tps) },
    percentiles: { merged: m.summary.latencyMs, logged: { ...latencySummaryMs(all), count: all.totalCount } },
    skewMs: m.run.shards.startSkewMs,
    // the same machine's clock for every shard: their recorded start times, to the millisecond
    wallSkewMs: Math.max(...starts) - Math.min(...starts),
    offsetsMs: docs.map((d) => d.run.shard.clockOffsetMs),
    lateMs: docs.map((d) => d.run.shard.startedLateMs)
  }
}

/** The tables: totals, percentiles and start skew per run, and the medians. */
function report (results, shards) {
  const totals = formatTable(['run', 'merged txns', 'shards summed', 'equal', 'merged failed', 'summed failed', 'merged tps', 'summed tps'],
    results.map((r, i) => [i + 1, r.merged.transactions, r.summed.transactions, yes(r.merged.transactions === r.summed.transactions && r.merged.tpcb === r.summed.tpcb && r.merged.failed === r.summed.failed), r.merged.failed, r.summed.failed, r.merged.tps, r.summed.tps]))
  const pct = formatTable(['run', 'ms', ...PERCENTILES, 'equal'], results.flatMap((r, i) => [
    [i + 1, 'merged', ...PERCENTILES.map((p) => String(r.percentiles.merged[p])), yes(PERCENTILES.every((p) => r.percentiles.merged[p] === r.percentiles.logged[p]))],
    [i + 1, `all ${r.percentiles.logged.count} logged`, ...PERCENTILES.map((p) => String(r.percentiles.logged[p])), '']
  ]))
  const skews = results.map((r) => r.skewMs)
  const skew = formatTable(['run', 'start skew ms (server clock)', 'start skew ms (wall clock, 1 ms steps)', 'late ms, shard 0..N-1', 'clock offsets ms'],
    results.map((r, i) => [i + 1, r.skewMs, r.wallSkewMs, r.lateMs.map((o) => o.toFixed(1)).join(' '), r.offsetsMs.map((o) => o.toFixed(3)).join(' ')]))
  const median = finiteMedian(skews)
  return `\n${shards} shards of one tpcb-like run: merged totals against the shards' files summed\n${totals}\n\n` +
    `merged percentiles against one histogram of every shard's logged latencies (--log)\n${pct}\n\n` +
    `start skew between the shards\n${skew}\n\n` +
    `median start skew ${median} ms (target within ${SKEW_TARGET_MS} ms: ${median !== null && median <= SKEW_TARGET_MS ? 'met' : 'missed'}); ` +
    `the ${shards} shards and the server shared this machine's ${availableParallelism()} CPUs: a shard that waits for a CPU at the start starts late\n`
}

const yes = (b) => b ? 'yes' : 'NO'

function positive (flag, text) {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1) throw new PgloadError(`${flag} must be an integer >= 1, got ${JSON.stringify(text)}`)
  return n
}

/** Run bin/pgload.js; reject with its last line of stderr when it fails. */
function pgload (args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PGLOAD, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => { stderr += d })
    child.on('error', reject)
    child.on('close', (code) => code === 0 ? resolve() : reject(new PgloadError(`pgload ${args[0]} failed (exit ${code}): ${stderr.trim().split('\n').pop()}`)))
  })
}
