// The first seconds of a run, pgbench against `pgload run`: throughput per quarter second
// relative to each run's own steady state, and the latency p99 per quarter second, from both
// runners' per-transaction logs (-l, read by one parser). A runner that needs time to reach its
// speed (a JIT tiering up, caches filling) shows it here, and the throughput it loses is given in
// seconds of its steady throughput: over a 10 s run, 0.1 s lost is 1 % of the result.
// Rounds alternate who goes first, with a CHECKPOINT before each run as vs-pgbench does, so the
// server's own start-up (full-page writes after the checkpoint) is the same for both.

import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PgloadError } from '../lib/errors.js'
import { parseBenchArgs, parseSeconds } from './lib/args.js'
import { benchServer } from './lib/server.js'
import { runMeasured } from './lib/child.js'
import { checkpointBetweenRuns } from './lib/checkpoint-between-runs.js'
import { ensureTpcb } from './lib/tpcb-data.js'
import { finiteMedian } from './lib/stats.js'
import { formatTable } from './lib/table.js'
import { parseTransactionLog, warmupProfile } from './lib/warmup-buckets.js'

const PGLOAD = fileURLToPath(new URL('../bin/pgload.js', import.meta.url))
const RUNNERS = ['pgbench', 'pgload']

// Defaults, with units.
const DEFAULTS = {
  duration: '8s', // per run: 2 s of start shown, a steady state from 3 s on
  repeat: 3,
  builtin: 'simple-update',
  clients: 8,
  scale: 10,
  bucketS: 0.25,
  firstS: 2,
  steadyFromS: 3,
  smoke: { durationS: 5, clients: 2, scale: 1 }
}

/** @param {string[]} argv @param {{ out: (s: string) => void, err: (s: string) => void }} io */
export async function main (argv, io) {
  const a = parseBenchArgs(argv, {
    url: { type: 'string' },
    duration: { type: 'string', default: DEFAULTS.duration },
    repeat: { type: 'string', default: String(DEFAULTS.repeat) },
    builtin: { type: 'string', default: DEFAULTS.builtin },
    clients: { type: 'string', default: String(DEFAULTS.clients) },
    scale: { type: 'string', default: String(DEFAULTS.scale) },
    'pgload-arg': { type: 'string', multiple: true, default: [] }, // extra argument for pgload run, repeatable
    smoke: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false }
  })
  if (spawnSync('pgbench', ['--version']).status !== 0) throw new PgloadError('pgbench is not installed (needed on PATH for warmup)')
  if (!['select-only', 'tpcb-like', 'simple-update'].includes(a.builtin)) {
    throw new PgloadError(`--builtin must be select-only, tpcb-like or simple-update, got ${JSON.stringify(a.builtin)}`)
  }
  const durationS = a.smoke ? DEFAULTS.smoke.durationS : Math.round(parseSeconds('--duration', a.duration))
  if (durationS < DEFAULTS.steadyFromS + 2) throw new PgloadError(`--duration must be at least ${DEFAULTS.steadyFromS + 2}s (the steady state starts at ${DEFAULTS.steadyFromS} s)`)
  const rounds = a.smoke ? 1 : Number(a.repeat)
  if (!Number.isInteger(rounds) || rounds < 1) throw new PgloadError(`--repeat must be an integer >= 1, got ${JSON.stringify(a.repeat)}`)
  const clients = a.smoke ? DEFAULTS.smoke.clients : Number(a.clients)
  if (!Number.isInteger(clients) || clients < 1) throw new PgloadError(`--clients must be an integer >= 1, got ${JSON.stringify(a.clients)}`)

  const server = await benchServer(a.url)
  const dir = await mkdtemp(join(tmpdir(), 'pgload-warmup-'))
  let checkpoints = null
  try {
    const scale = await ensureTpcb(server, { scale: a.smoke ? DEFAULTS.smoke.scale : Number(a.scale), log: io.err })
    io.err(`warmup: ${a.builtin} -c ${clients}, scale ${scale}, ${durationS} s per run, ${rounds} round(s), ${server.target.display}\n`)
    checkpoints = await checkpointBetweenRuns(server.target, { log: io.err })
    const profiles = { pgbench: [], pgload: [] }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? RUNNERS : [...RUNNERS].reverse()
      for (const who of order) {
        await checkpoints.before()
        io.err(`warmup: round ${round + 1}/${rounds}, ${who}\n`)
        const runDir = join(dir, `${round}-${who}`)
        const text = who === 'pgbench'
          ? await runPgbench(server, a.builtin, clients, durationS, runDir)
          : await runPgload(server, a.builtin, clients, durationS, runDir, a['pgload-arg'])
        profiles[who].push(warmupProfile(parseTransactionLog(text), DEFAULTS))
      }
    }
    const summary = summarize(profiles)
    if (a.json) {
      io.out(JSON.stringify({ builtin: a.builtin, clients, scale, durationS, rounds, ...summary }, null, 1) + '\n')
    } else {
      io.out(formatTable(['seconds', 'pgbench tps / steady', 'pgload tps / steady', 'pgbench p99 ms', 'pgload p99 ms'],
        [...summary.buckets.map((b) => [`${b.fromS.toFixed(2)}-${b.toS.toFixed(2)}`, fixed(b.pgbench.relTps), fixed(b.pgload.relTps), fixed(b.pgbench.p99Ms), fixed(b.pgload.p99Ms)]),
          [`steady (${DEFAULTS.steadyFromS} s on)`, `1 (${Math.round(summary.pgbench.steadyTps)} tps)`, `1 (${Math.round(summary.pgload.steadyTps)} tps)`, fixed(summary.pgbench.steadyP99Ms), fixed(summary.pgload.steadyP99Ms)]]) + '\n')
      io.out(`\nthroughput lost in the first ${DEFAULTS.firstS} s, in seconds of the runner's steady throughput (median over rounds): ` +
        `pgbench ${fixed(summary.pgbench.lostS)}, pgload ${fixed(summary.pgload.lostS)}; the difference is ` +
        `${fixed(100 * (summary.pgload.lostS - summary.pgbench.lostS) / 10)} % of a 10 s run's tps\n`)
      io.out('each figure is the median over the rounds; a bucket counts the transactions that ended in it\n')
    }
  } finally {
    await checkpoints?.close()
    await server.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

// Medians over the rounds, bucket by bucket.
function summarize (profiles) {
  const med = (who, f) => finiteMedian(profiles[who].map(f))
  const n = profiles.pgbench[0].buckets.length
  const buckets = Array.from({ length: n }, (_, k) => {
    const b = { fromS: profiles.pgbench[0].buckets[k].fromS, toS: profiles.pgbench[0].buckets[k].toS }
    for (const who of RUNNERS) b[who] = { relTps: med(who, (p) => p.buckets[k].relTps), p99Ms: med(who, (p) => p.buckets[k].p99Ms ?? NaN) }
    return b
  })
  const totals = {}
  for (const who of RUNNERS) totals[who] = { steadyTps: med(who, (p) => p.steadyTps), steadyP99Ms: med(who, (p) => p.steadyP99Ms), lostS: med(who, (p) => p.lostS) }
  return { buckets, ...totals }
}

const fixed = (x) => Number.isFinite(x) ? x.toFixed(2) : '-'

async function readLogs (runDir) {
  const files = (await readdir(runDir)).filter((f) => f.startsWith('pgbench_log.'))
  if (files.length === 0) throw new Error(`no per-transaction log in ${runDir}`)
  return (await Promise.all(files.map((f) => readFile(join(runDir, f), 'utf8')))).join('\n')
}

async function runPgbench (server, builtin, clients, durationS, runDir) {
  const args = ['-b', builtin, '-M', 'prepared', '-j', '1', '-c', String(clients), '-T', String(durationS),
    '-l', '--log-prefix', join(runDir, 'pgbench_log'), ...server.pgbenchArgs, server.database]
  await mkdir(runDir, { recursive: true })
  const r = await runMeasured('pgbench', args, { env: server.env, timeoutMs: (durationS + 120) * 1000 })
  if (r.code !== 0) throw new Error(`pgbench ${args.join(' ')} failed (${r.code}): ${r.stderr.trim().split('\n').pop()}`)
  return readLogs(runDir)
}

async function runPgload (server, builtin, clients, durationS, runDir, extra) {
  const args = [PGLOAD, 'run', 'tpcb', '-b', builtin, '-M', 'prepared', '-c', String(clients), '-T', `${durationS}s`,
    '--url', server.url, '--out', join(runDir, 'results.json'), '--no-server-stats', '-l', '--log-prefix', join(runDir, 'pgbench_log'), ...extra]
  await mkdir(runDir, { recursive: true })
  const r = await runMeasured(process.execPath, args, { timeoutMs: (durationS + 120) * 1000 })
  if (r.code !== 0) throw new Error(`pgload run tpcb -b ${builtin} -c ${clients} failed (${r.code}): ${r.stderr.trim().split('\n').pop()}`)
  return readLogs(runDir)
}
