// pgload with one and two worker threads against its peers on the same server, in one go:
// pgbench -j 1 and -j 2, and sysbench's oltp_point_select (when sysbench is installed). Two
// workloads: the point select by primary key of sysbench's sbtest1 (pgbench and pgload run the
// same statement as a script) and pgbench's tpcb-like (sysbench has no such script). Rounds are
// interleaved and each case's runners go in a rotated order; the table shows medians over the
// rounds, with the lowest and highest round beside them, and a verdict on the targets:
// pgload -j 2's tps against the best peer's, and its client CPU per transaction against pgbench's.

import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseBenchArgs, parseSeconds, parseIntList } from './lib/args.js'
import { benchServer } from './lib/server.js'
import { formatTable } from './lib/table.js'
import { finiteMedian as median, finiteRange } from './lib/stats.js'
import { runMeasured, parsePgbenchOutput } from './lib/child.js'
import { ensureTpcb } from './lib/tpcb-data.js'
import { ensureSbtest, pointSelectScript } from './lib/sbtest-data.js'
import { targetVerdict } from './lib/target-verdict.js'
import { checkpointBetweenRuns } from './lib/checkpoint-between-runs.js'
import { PgloadError } from '../lib/errors.js'
import { readResults } from '../lib/results/read.js'

const PGLOAD = fileURLToPath(new URL('../bin/pgload.js', import.meta.url))
const FLOOR = fileURLToPath(new URL('./node-floor-worker.js', import.meta.url))

// Defaults, with units.
const DEFAULTS = {
  duration: '10s', // per run, the same for every runner
  repeat: 3, // interleaved rounds; medians are reported
  clients: '8,32',
  scale: 10, // pgbench scale to load when its tables are missing
  rows: 1_000_000, // rows of sbtest1 (the point select draws ids in 1..rows)
  smoke: { durationS: 2, clients: [2], scale: 1, rows: 10_000 }
}
const WORKLOADS = ['point-select', 'tpcb-like']
// pgload -j 2 against the best peer's tps (at least), and against pgbench's client CPU per
// transaction at the same -j (at most)
const TPS_TARGET = 1.0
const CPU_TARGET = 1.1

/** @param {string[]} argv @param {{ out: (s: string) => void, err: (s: string) => void }} io */
export async function main (argv, io) {
  const a = parseBenchArgs(argv, {
    url: { type: 'string' },
    duration: { type: 'string', default: DEFAULTS.duration },
    repeat: { type: 'string', default: String(DEFAULTS.repeat) },
    clients: { type: 'string', default: DEFAULTS.clients },
    workloads: { type: 'string', default: WORKLOADS.join(',') },
    rows: { type: 'string', default: String(DEFAULTS.rows) },
    scale: { type: 'string', default: String(DEFAULTS.scale) },
    smoke: { type: 'boolean', default: false },
    floor: { type: 'boolean', default: false }, // also run the Node.js floor with one and two loops
    json: { type: 'boolean', default: false }
  })
  if (spawnSync('pgbench', ['--version']).status !== 0) throw new PgloadError('pgbench is not installed (needed on PATH for vs-peers)')
  const sysbench = spawnSync('sysbench', ['--version']).status === 0
  if (!sysbench) io.err('vs-peers: sysbench is not installed: its point-select runs are skipped (apt-get install sysbench)\n')
  const smoke = a.smoke ? DEFAULTS.smoke : null
  const durationS = smoke ? smoke.durationS : Math.max(1, Math.round(parseSeconds('--duration', a.duration)))
  const clients = smoke ? smoke.clients : parseIntList('--clients', a.clients)
  const rounds = smoke ? 1 : Number(a.repeat)
  if (!Number.isInteger(rounds) || rounds < 1) throw new PgloadError(`--repeat must be an integer >= 1, got ${JSON.stringify(a.repeat)}`)
  const workloads = a.workloads.split(',').map((w) => w.trim())
  const bad = workloads.find((w) => !WORKLOADS.includes(w))
  if (bad !== undefined) throw new PgloadError(`--workloads takes ${WORKLOADS.join(', ')}, got ${JSON.stringify(bad)}`)
  const cases = workloads.flatMap((w) => clients.map((c) => [w, c]))

  const server = await benchServer(a.url)
  const dir = await mkdtemp(join(tmpdir(), 'pgload-bench-'))
  let checkpoints = null
  try {
    const data = await prepareData(server, workloads, { smoke, a, dir, log: io.err })
    io.err(`vs-peers: ${durationS} s per run, ${cases.length} case(s), ${rounds} round(s), ${server.target.display}\n`)
    checkpoints = await checkpointBetweenRuns(server.target, { log: io.err })
    const samples = cases.map(() => [])
    for (let round = 0; round < rounds; round++) {
      for (const [i, [workload, c]] of cases.entries()) {
        const runners = runnersOf(workload, sysbench, a.floor)
        const order = runners.map((_, k) => runners[(k + i + round) % runners.length])
        const r = {}
        for (const who of order) {
          await checkpoints.before()
          io.err(`vs-peers: round ${round + 1}/${rounds}, ${who} ${workload} -c ${c}\n`)
          r[who] = await runOne(who, { server, workload, clients: c, durationS, data, out: join(dir, `${i}-${who.replace(/ /g, '')}.json`) })
        }
        samples[i].push(r)
      }
    }
    const rows = cases.map(([workload, c], i) => summarizeCase(workload, c, samples[i], runnersOf(workload, sysbench, a.floor)))
    if (a.json) io.out(JSON.stringify({ durationS, rounds, rows }, null, 1) + '\n')
    else printTables(io, rows, rounds)
  } finally {
    await checkpoints?.close()
    await rm(dir, { recursive: true, force: true })
    await server.stop()
  }
}

/** The runners of a workload, in their base order. */
function runnersOf (workload, sysbench, floor) {
  const runners = ['pgbench -j 1', 'pgbench -j 2', 'pgload -j 1', 'pgload -j 2']
  if (workload === 'point-select' && sysbench) runners.push('sysbench')
  if (floor) runners.push('floor -j 1', 'floor -j 2')
  return runners
}

/** The tables, and the point-select script file. */
async function prepareData (server, workloads, { smoke, a, dir, log }) {
  const data = { rows: 0, script: null }
  if (workloads.includes('tpcb-like')) await ensureTpcb(server, { scale: smoke ? smoke.scale : Number(a.scale), log })
  if (workloads.includes('point-select')) {
    const rows = smoke ? smoke.rows : Number(a.rows)
    if (!Number.isInteger(rows) || rows < 1) throw new PgloadError(`--rows must be an integer >= 1, got ${JSON.stringify(a.rows)}`)
    await ensureSbtest(server, { rows, log })
    data.rows = rows
    data.script = join(dir, 'point-select.sql')
    await writeFile(data.script, pointSelectScript(rows))
  }
  return data
}

/** One measured run of one runner: tps and client CPU per transaction (user and kernel). */
async function runOne (who, { server, workload, clients, durationS, data, out }) {
  const jobs = who.endsWith('-j 2') ? 2 : 1
  if (who.startsWith('pgbench')) return runPgbench(server, { workload, clients, jobs, durationS, data })
  if (who.startsWith('pgload')) return runPgload(server, { workload, clients, jobs, durationS, data, out })
  if (who.startsWith('floor')) return runFloor(server, { workload, clients, jobs, durationS, data })
  return runSysbench(server, { clients, durationS, data })
}

async function runPgbench (server, { workload, clients, jobs, durationS, data }) {
  const script = workload === 'tpcb-like' ? ['-b', 'tpcb-like'] : ['-f', data.script]
  const args = [...script, '-M', 'prepared', '-j', String(jobs), '-c', String(clients), '-T', String(durationS), ...server.pgbenchArgs, server.database]
  const r = await runMeasured('pgbench', args, { env: server.env, timeoutMs: (durationS + 120) * 1000 })
  if (r.code !== 0) throw new Error(`pgbench ${args.join(' ')} failed (${r.code}): ${r.stderr.trim().split('\n').pop()}`)
  const p = parsePgbenchOutput(r.stdout)
  return perTxn(p.tps, p.transactions + p.failed, r)
}

async function runPgload (server, { workload, clients, jobs, durationS, data, out }) {
  const what = workload === 'tpcb-like' ? ['tpcb', '-b', 'tpcb-like'] : [data.script]
  const args = [PGLOAD, 'run', ...what, '-M', 'prepared', '-j', String(jobs), '-c', String(clients), '-T', `${durationS}s`,
    '--url', server.url, '--out', out, '--no-server-stats']
  const r = await runMeasured(process.execPath, args, { timeoutMs: (durationS + 120) * 1000 })
  if (r.code !== 0) throw new Error(`pgload run ${what.join(' ')} -j ${jobs} -c ${clients} failed (${r.code}): ${r.stderr.trim().split('\n').pop()}`)
  const results = await readResults(out)
  const txns = results.summary.transactions + (results.summary.failed ?? 0)
  // the run's own accounting (process.cpuUsage over the window: every thread), not start-up
  const c = results.client ?? {}
  if (Number.isFinite(c.cpuUsPerTxn)) {
    return { tps: results.summary.tps, cpuUsPerTxn: c.cpuUsPerTxn, userUsPerTxn: c.userUsPerTxn, systemUsPerTxn: c.systemUsPerTxn }
  }
  return perTxn(results.summary.tps, txns, r)
}

async function runSysbench (server, { clients, durationS, data }) {
  const c = server.target.config
  const args = ['oltp_point_select', '--db-driver=pgsql', `--pgsql-host=${c.host}`, `--pgsql-port=${c.port}`, `--pgsql-user=${c.user}`,
    `--pgsql-password=${c.password ?? ''}`, `--pgsql-db=${c.database}`, '--tables=1', `--table-size=${data.rows}`, '--point-selects=1',
    `--threads=${clients}`, `--time=${durationS}`, '--report-interval=0', 'run']
  const r = await runMeasured('sysbench', args, { timeoutMs: (durationS + 120) * 1000 })
  if (r.code !== 0) throw new Error(`sysbench oltp_point_select --threads=${clients} failed (${r.code}): ${(r.stderr.trim() || r.stdout.trim()).split('\n').pop()}`)
  const m = /transactions:\s+(\d+)\s+\(([\d.]+) per sec/.exec(r.stdout)
  if (!m) throw new Error(`sysbench printed no transaction count:\n${r.stdout}`)
  return perTxn(Number(m[2]), Number(m[1]), r)
}

/**
 * The Node.js floor (node-floor-worker.js): `jobs` processes at once, the clients split between
 * them; one loop each, so `-j 2` here is two processes, which share less than two threads would.
 * CPU is each process's own over its run (as pgload's), summed.
 */
async function runFloor (server, { workload, clients, jobs, durationS, data }) {
  const builtin = workload === 'tpcb-like' ? 'tpcb-like' : 'point-select'
  const shares = Array.from({ length: jobs }, (_, k) => Math.floor(clients / jobs) + (k < clients % jobs ? 1 : 0))
  const runs = await Promise.all(shares.map(async (n) => {
    const r = await runMeasured(process.execPath, [FLOOR, builtin, String(n), String(durationS), server.url, String(data.rows)], { timeoutMs: (durationS + 120) * 1000 })
    if (r.code !== 0) throw new Error(`node-floor-worker ${builtin} -c ${n} failed (${r.code}): ${r.stderr.trim().split('\n').pop()}`)
    const f = JSON.parse(r.stdout.trim().split('\n').pop())
    if (f.errors > 0) throw new Error(`node-floor-worker ${builtin} -c ${n}: ${f.errors} statement(s) failed`)
    return f
  }))
  const sum = (k) => runs.reduce((a, f) => a + f[k], 0)
  const txns = sum('transactions')
  return { tps: sum('tps'), cpuUsPerTxn: sum('cpuUs') / txns, userUsPerTxn: sum('userUs') / txns, systemUsPerTxn: (sum('cpuUs') - sum('userUs')) / txns }
}

/** CPU per transaction from the kernel's account of the child (bash `times`). */
function perTxn (tps, txns, r) {
  return { tps, cpuUsPerTxn: r.cpuUs / txns, userUsPerTxn: r.userUs / txns, systemUsPerTxn: r.systemUs / txns }
}

/** Medians over the rounds of one case, and the verdicts on the targets. */
function summarizeCase (workload, clients, rounds, runners) {
  const row = { workload, clients, runners: {} }
  for (const who of runners) {
    const tps = rounds.map((r) => r[who].tps)
    const range = finiteRange(tps)
    row.runners[who] = {
      tps: median(tps),
      tpsMin: range.min,
      tpsMax: range.max,
      cpuUsPerTxn: median(rounds.map((r) => r[who].cpuUsPerTxn)),
      userUsPerTxn: median(rounds.map((r) => r[who].userUsPerTxn)),
      systemUsPerTxn: median(rounds.map((r) => r[who].systemUsPerTxn))
    }
  }
  // Per round: pgload -j 2 against that round's best peer, and against pgbench -j 2's CPU.
  const peers = runners.filter((w) => !w.startsWith('pgload') && !w.startsWith('floor'))
  const tpsRatios = rounds.map((r) => r['pgload -j 2'].tps / Math.max(...peers.map((p) => r[p].tps)))
  const cpuRatios = rounds.map((r) => r['pgload -j 2'].cpuUsPerTxn / r['pgbench -j 2'].cpuUsPerTxn)
  row.bestPeer = peers.reduce((best, p) => row.runners[p].tps > row.runners[best].tps ? p : best)
  row.tpsVerdict = { target: TPS_TARGET, ...targetVerdict(tpsRatios, TPS_TARGET, 'atLeast') }
  row.cpuVerdict = { target: CPU_TARGET, ...targetVerdict(cpuRatios, CPU_TARGET, 'atMost') }
  if (runners.includes('floor -j 2')) {
    // the same ratios for the floor: whether a Node.js client of one loop per core can meet them here
    row.floor = {
      tpsRatio: median(rounds.map((r) => r['floor -j 2'].tps / Math.max(...peers.map((p) => r[p].tps)))),
      cpuRatio: median(rounds.map((r) => r['floor -j 2'].cpuUsPerTxn / r['pgbench -j 2'].cpuUsPerTxn))
    }
  }
  return row
}

function printTables (io, rows, rounds) {
  const fix = (x, d = 0) => Number.isFinite(x) ? x.toFixed(d) : '-'
  const table = []
  for (const x of rows) {
    for (const [who, v] of Object.entries(x.runners)) {
      table.push([x.workload, x.clients, who, fix(v.tps), `${fix(v.tpsMin)}-${fix(v.tpsMax)}`, fix(v.cpuUsPerTxn, 1), fix(v.userUsPerTxn, 1), fix(v.systemUsPerTxn, 1)])
    }
  }
  io.out(formatTable(['workload', 'clients', 'runner', 'tps', 'tps range', 'cpu us/txn', 'user us/txn', 'kernel us/txn'], table) + '\n')
  const interval = (v) => v.lo === null ? '-' : `${v.lo.toFixed(2)}-${v.hi.toFixed(2)} (${Math.floor(v.confidence * 100)} %)`
  io.out('\n' + formatTable(['workload', 'clients', 'best peer', 'tps ratio', 'interval', 'target', 'verdict', 'cpu ratio', 'interval', 'target', 'verdict'],
    rows.map((x) => {
      const t = x.tpsVerdict
      const c = x.cpuVerdict
      return [x.workload, x.clients, x.bestPeer, fix(t.median, 2), interval(t), `>= ${t.target}`, t.verdict, fix(c.median, 2), interval(c), `<= ${c.target}`, c.verdict]
    })) + '\n')
  const floors = rows.filter((x) => x.floor)
  if (floors.length > 0) {
    io.out('\n' + formatTable(['workload', 'clients', 'floor -j 2 tps ratio', 'floor -j 2 cpu ratio'],
      floors.map((x) => [x.workload, x.clients, fix(x.floor.tpsRatio, 2), fix(x.floor.cpuRatio, 2)])) + '\n')
  }
  io.out(`medians of ${rounds} interleaved round(s); tps range: the lowest and highest round\n`)
  io.out('tps ratio: pgload -j 2 over the best peer of the same round; cpu ratio: pgload -j 2 over pgbench -j 2, client CPU per transaction\n')
  io.out('cpu: pgbench and sysbench from the kernel (bash `times` of the child, start-up included); pgload and the floor from their own account (process.cpuUsage over the run, all threads)\n')
  if (rows.some((x) => 'floor -j 1' in x.runners)) io.out('floor: the Node.js floor (bench/node-floor-worker.js), the same statements from a minimal Node client, one loop per process; not a peer: what the runtime allows here\n')
  io.out('interval: the median ratio\'s distribution-free confidence interval over the rounds; met or missed only when the whole interval is on one side of the target\n')
}
