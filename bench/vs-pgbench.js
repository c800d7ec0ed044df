// pgbench and `pgload run tpcb` side by side on the same server, in one go: for each workload
// and client count, both tps, their ratio, and each one's client CPU per transaction. With
// --repeat N the cases run N rounds, interleaved, and the table shows medians: tps and CPU per
// runner, and the median of each round's pgload/pgbench ratio (a round's runs are neighbours).
// pgbench's CPU comes from the kernel (bash `times` of the child); pgload's from its results
// file (client.cpuUsPerTxn, process.cpuUsage over the run), else from the kernel as well.
// A second table splits each runner's CPU into user and kernel time: the kernel's share is the
// sockets' (about the same for every runner), the user share is the client's own work.
// --floor adds a third runner, the Node.js floor (node-floor-worker.js): the same statements
// from the least a Node client can do, so the table also shows what the runtime itself allows.

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseBenchArgs, parseSeconds } from './lib/args.js'
import { benchServer } from './lib/server.js'
import { formatTable } from './lib/table.js'
import { finiteMedian as median, finiteRange } from './lib/stats.js'
import { runMeasured, parsePgbenchOutput } from './lib/child.js'
import { schedPerTxn } from './lib/runner-sched.js'
import { parsePin, pinServer, onCpus } from './lib/cpu-pinning.js'
import { ensureTpcb } from './lib/tpcb-data.js'
import { driverArgs } from './lib/driver-select.js'
import { targetVerdict } from './lib/target-verdict.js'
import { checkpointBetweenRuns } from './lib/checkpoint-between-runs.js'
import { PgloadError } from '../lib/errors.js'
import { readResults } from '../lib/results/read.js'

const PGLOAD = fileURLToPath(new URL('../bin/pgload.js', import.meta.url))
const FLOOR = fileURLToPath(new URL('./node-floor-worker.js', import.meta.url))
const DRIVERS = ['pg', 'lean']

// Defaults, with units.
const DEFAULTS = {
  duration: '10s', // per run, the same for pgbench and pgload
  repeat: 3, // rounds over all cases; medians are reported, and the range of the tps ratios (one round's ratio varied by 15-35 % on the 2-core development machine)
  scale: 10, // pgbench scale to load when the tables are missing
  // [builtin, clients]: the issue's table
  cases: [['select-only', 1], ['select-only', 8], ['select-only', 32], ['tpcb-like', 1], ['tpcb-like', 8], ['tpcb-like', 32], ['simple-update', 8]],
  smokeCases: [['select-only', 2], ['tpcb-like', 2]],
  smokeDurationS: 2, // seconds per run with --smoke
  smokeScale: 1,
  driver: 'both' // pgload's connection: pg, lean or both (one pgload run each)
}

// The targets of the driver-efficiency work, as ratios to pgbench in the same run: tps at least
// this much for these client counts, and client CPU per transaction at most CPU_TARGET.
const TPS_TARGETS = [['select-only', [1, 8, 32], 0.9], ['tpcb-like', [8, 32], 0.95], ['simple-update', [8], 0.95]]
const CPU_TARGET = 1.5

/** @param {string} builtin @param {number} clients @returns {number|null} */
function tpsTarget (builtin, clients) {
  const t = TPS_TARGETS.find(([b, cs]) => b === builtin && cs.includes(clients))
  return t ? t[2] : null
}

/** @param {string[]} argv @param {{ out: (s: string) => void, err: (s: string) => void }} io */
export async function main (argv, io) {
  const a = parseBenchArgs(argv, {
    url: { type: 'string' },
    duration: { type: 'string', default: DEFAULTS.duration },
    scale: { type: 'string', default: String(DEFAULTS.scale) },
    repeat: { type: 'string', default: String(DEFAULTS.repeat) },
    cases: { type: 'string' }, // e.g. select-only:8,tpcb-like:32
    driver: { type: 'string', default: DEFAULTS.driver },
    'pgload-arg': { type: 'string', multiple: true, default: [] }, // extra argument for pgload run, repeatable
    floor: { type: 'boolean', default: false }, // also run the Node.js floor
    'no-checkpoint': { type: 'boolean', default: false }, // no CHECKPOINT before each run
    pin: { type: 'string' }, // CLIENT:SERVER CPU lists: each runner on CLIENT, the server's processes on SERVER
    smoke: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false }
  })
  if (spawnSync('pgbench', ['--version']).status !== 0) {
    throw new PgloadError('pgbench is not installed (needed on PATH for vs-pgbench)')
  }
  const durationS = a.smoke ? DEFAULTS.smokeDurationS : Math.max(1, Math.round(parseSeconds('--duration', a.duration)))
  const cases = a.cases ? parseCases(a.cases) : a.smoke ? DEFAULTS.smokeCases : DEFAULTS.cases
  const rounds = a.smoke ? 1 : Number(a.repeat)
  if (!Number.isInteger(rounds) || rounds < 1) throw new PgloadError(`--repeat must be an integer >= 1, got ${JSON.stringify(a.repeat)}`)
  const pin = a.pin === undefined ? null : parsePin(a.pin)
  const drivers = a.driver === 'both' ? DRIVERS : [a.driver]
  if (!drivers.every(d => DRIVERS.includes(d))) throw new PgloadError(`--driver must be pg, lean or both, got ${JSON.stringify(a.driver)}`)
  const server = await benchServer(a.url)
  const dir = await mkdtemp(join(tmpdir(), 'pgload-bench-'))
  let checkpoints = null
  let pinned = null
  try {
    const scale = await ensureTpcb(server, { scale: a.smoke ? DEFAULTS.smokeScale : Number(a.scale), log: io.err })
    io.err(`vs-pgbench: scale ${scale}, ${durationS} s per run, ${cases.length} case(s), ${rounds} round(s), ${server.target.display}\n`)
    const others = a.floor ? [...drivers, 'floor'] : drivers // compared with pgbench
    const runners = ['pgbench', ...others]
    const samples = cases.map(() => [])
    checkpoints = a['no-checkpoint'] ? null : await checkpointBetweenRuns(server.target, { log: io.err })
    if (pin) {
      pinned = await pinServer(server.target, pin.server)
      io.err(`vs-pgbench: the server (postmaster ${pinned.postmasterPid} and its processes) on CPUs ${pin.server}, each runner on CPUs ${pin.client}\n`)
    }
    const measure = (file, args, opts) => pin ? runMeasured(...onCpus(pin.client, file, args), opts) : runMeasured(file, args, opts)
    for (let round = 0; round < rounds; round++) {
      for (const [i, [builtin, clients]] of cases.entries()) {
        // Rotate who goes first, so that neither side always gets the warmer server.
        const order = runners.map((_, k) => runners[(k + i + round) % runners.length])
        const r = { order }
        for (const who of order) {
          await checkpoints?.before()
          io.err(`vs-pgbench: round ${round + 1}/${rounds}, ${who === 'pgbench' || who === 'floor' ? who : `pgload (${who})`} ${builtin} -c ${clients}\n`)
          r[who] = who === 'pgbench'
            ? await runPgbench(measure, server, builtin, clients, durationS)
            : who === 'floor'
              ? await runFloor(measure, server, builtin, clients, durationS)
              : await runPgload(measure, server, builtin, clients, durationS, join(dir, `${i}-${who}.json`), driverArgs(who), a['pgload-arg'])
        }
        samples[i].push(r)
      }
    }
    const rows = cases.map(([builtin, clients], i) => summarizeCase(builtin, clients, samples[i], others))
    if (a.json) {
      io.out(JSON.stringify({ scale, durationS, rounds, pin, rows }, null, 1) + '\n')
    } else {
      printTables(io, rows, { others, runners, rounds, pin, floor: a.floor })
    }
  } finally {
    pinned?.restore()
    await checkpoints?.close()
    await rm(dir, { recursive: true, force: true })
    await server.stop()
  }
}

/**
 * The human-readable tables of a vs-pgbench run and the lines that say how to read them.
 * @param {{ out: (s: string) => void }} io
 * @param {any[]} rows summarizeCase rows
 * @param {{ others: string[], runners: string[], rounds: number, pin: { client: string, server: string } | null, floor: boolean }} how
 */
function printTables (io, rows, { others, runners, rounds, pin, floor }) {
  const header = ['workload', 'clients', 'pgbench tps']
  for (const d of others) header.push(`${d} tps`, `${d} ratio`, `${d} ratio min`, `${d} ratio max`)
  header.push('pgbench cpu us/txn')
  for (const d of others) header.push(`${d} cpu us/txn`, `${d} cpu ratio`)
  io.out(formatTable(header, rows.map((x) => {
    const row = [x.builtin, x.clients, x.pgbench.tps]
    for (const d of others) row.push(x[d].tps, x[d].tpsRatio, x[d].tpsRatioMin, x[d].tpsRatioMax)
    row.push(x.pgbench.cpuUsPerTxn)
    for (const d of others) row.push(x[d].cpuUsPerTxn, x[d].cpuRatio)
    return row
  })) + '\n')
  io.out('\n' + formatTable(['workload', 'clients', ...runners.flatMap((d) => [`${d} user us/txn`, `${d} kernel us/txn`])],
    rows.map((x) => [x.builtin, x.clients, ...runners.flatMap((d) => [x[d].userUsPerTxn, x[d].systemUsPerTxn])])) + '\n')
  io.out('\n' + formatTable(['workload', 'clients', ...runners.flatMap((d) => [`${d} on-cpu us/txn`, `${d} cpu-wait us/txn`, `${d} runnable %`])],
    rows.map((x) => [x.builtin, x.clients, ...runners.flatMap((d) => {
      const t = x[d].sched
      return [t.onCpuUsPerTxn, t.cpuWaitUsPerTxn, Math.round(100 * (t.onCpuShare + t.cpuWaitShare))]
    })])) + '\n')
  io.out('\n' + formatTable(['workload', 'clients', 'runner', 'tps ratio', 'interval', 'target', 'verdict', 'cpu ratio', 'interval', 'target', 'verdict'],
    verdictRows(rows, others)) + '\n')
  io.out(`pg / lean: pgload run on node-postgres / on the lean connection; ratio = runner / pgbench${rounds > 1 ? `, medians of ${rounds} rounds (min, max: the rounds' lowest and highest tps ratio)` : ''}\n`)
  io.out('user / kernel: each runner\'s client CPU per transaction split into user time (the client\'s own work) and kernel time (mostly its sockets\'); medians over the rounds\n')
  io.out('on-cpu / cpu-wait: each runner\'s main thread on a CPU and runnable but waiting for one, per transaction, from 2 s after its start to 0.5 s before its end (Linux schedstat, sampled every 0.1 s; transactions = tps x window); ' +
    'runnable %: both over the wall time. Near 100 %, the runner is held back by its CPU share on a machine it shares with the server, and its tps follows its CPU per transaction\n')
  io.out('interval: the median ratio\'s distribution-free confidence interval over the rounds (order statistics; its confidence in brackets); ' +
    'a target is met or missed only when the whole interval is on one side of it, else the verdict is "within noise"\n')
  if (pin) io.out(`pinned: each runner on CPUs ${pin.client}, the server's processes on CPUs ${pin.server} (taskset); client and server do not compete for a CPU\n`)
  if (floor) io.out('floor: the Node.js floor (bench/node-floor-worker.js), pgbench\'s statements from a minimal Node client: what the runtime allows here\n')
}

// Medians over the rounds of one case: each runner's tps and CPU per transaction, and the median
// of the per-round ratios against pgbench.
function summarizeCase (builtin, clients, rounds, drivers) {
  const pick = (who, key) => median(rounds.map(r => r[who][key]))
  const pickSched = (who, key) => median(rounds.map(r => r[who].sched?.[key] ?? NaN))
  const sched = (who) => ({ onCpuUsPerTxn: pickSched(who, 'onCpuUsPerTxn'), cpuWaitUsPerTxn: pickSched(who, 'cpuWaitUsPerTxn'), onCpuShare: pickSched(who, 'onCpuShare'), cpuWaitShare: pickSched(who, 'cpuWaitShare') })
  const row = { builtin, clients, rounds, pgbench: { tps: pick('pgbench', 'tps'), cpuUsPerTxn: pick('pgbench', 'cpuUsPerTxn'), userUsPerTxn: pick('pgbench', 'userUsPerTxn'), systemUsPerTxn: pick('pgbench', 'systemUsPerTxn'), sched: sched('pgbench') } }
  for (const d of drivers) {
    const tpsRatios = rounds.map(r => r[d].tps / r.pgbench.tps)
    const cpuRatios = rounds.map(r => r[d].cpuUsPerTxn / r.pgbench.cpuUsPerTxn)
    const spread = finiteRange(tpsRatios)
    row[d] = {
      tps: pick(d, 'tps'),
      cpuUsPerTxn: pick(d, 'cpuUsPerTxn'),
      userUsPerTxn: pick(d, 'userUsPerTxn'),
      systemUsPerTxn: pick(d, 'systemUsPerTxn'),
      tpsRatio: median(tpsRatios),
      // the spread says how far one round's verdict can be trusted on this machine
      tpsRatioMin: spread.min,
      tpsRatioMax: spread.max,
      cpuRatio: median(cpuRatios),
      sched: sched(d)
    }
    const target = tpsTarget(builtin, clients)
    if (target !== null) {
      row[d].tpsVerdict = { target, ...targetVerdict(tpsRatios, target, 'atLeast') }
      row[d].cpuVerdict = { target: CPU_TARGET, ...targetVerdict(cpuRatios, CPU_TARGET, 'atMost') }
    }
  }
  return row
}

// One line per case with targets and runner: each median ratio, its interval and the verdict.
function verdictRows (rows, runners) {
  const out = []
  const interval = (v) => v.lo === null ? '-' : `${v.lo.toFixed(2)}-${v.hi.toFixed(2)} (${Math.floor(v.confidence * 100)} %)`
  for (const x of rows) {
    for (const d of runners) {
      const t = x[d].tpsVerdict
      const c = x[d].cpuVerdict
      if (t === undefined) continue
      out.push([x.builtin, x.clients, d, t.median, interval(t), `>= ${t.target}`, t.verdict, c.median, interval(c), `<= ${c.target}`, c.verdict])
    }
  }
  return out
}

function parseCases (text) {
  return text.split(',').map((c) => {
    const m = /^(select-only|tpcb-like|simple-update):(\d+)$/.exec(c.trim())
    if (!m) throw new PgloadError(`--cases must look like select-only:8,tpcb-like:32, got ${JSON.stringify(c)}`)
    return [m[1], Number(m[2])]
  })
}

async function runPgbench (measure, server, builtin, clients, durationS) {
  const args = ['-b', builtin, '-M', 'prepared', '-j', '1', '-c', String(clients), '-T', String(durationS), ...server.pgbenchArgs, server.database]
  const r = await measure('pgbench', args, { env: server.env, timeoutMs: (durationS + 120) * 1000, sched: true })
  if (r.code !== 0) throw new Error(`pgbench ${args.join(' ')} failed (${r.code}): ${r.stderr.trim().split('\n').pop()}`)
  const p = parsePgbenchOutput(r.stdout)
  const txns = p.transactions + p.failed
  return { tps: p.tps, transactions: p.transactions, failed: p.failed, cpuUs: r.cpuUs, cpuUsPerTxn: r.cpuUs / txns, userUsPerTxn: r.userUs / txns, systemUsPerTxn: r.systemUs / txns, sched: steadySched(r, p.tps, durationS) }
}

async function runFloor (measure, server, builtin, clients, durationS) {
  const args = [FLOOR, builtin, String(clients), String(durationS), server.url]
  const r = await measure(process.execPath, args, { timeoutMs: (durationS + 120) * 1000, sched: true })
  if (r.code !== 0) throw new Error(`node-floor-worker ${builtin} -c ${clients} failed (${r.code}): ${r.stderr.trim().split('\n').pop()}`)
  const f = JSON.parse(r.stdout.trim().split('\n').pop())
  if (f.errors > 0) throw new Error(`node-floor-worker ${builtin} -c ${clients}: ${f.errors} statement(s) failed`)
  // Like pgload's, its CPU is counted over the run only (not module loading and connecting).
  return { tps: f.tps, transactions: f.transactions, failed: 0, cpuUsPerTxn: f.cpuUsPerTxn, userUsPerTxn: f.userUsPerTxn, systemUsPerTxn: f.systemUsPerTxn, processCpuUsPerTxn: r.cpuUs / f.transactions, sched: steadySched(r, f.tps, durationS) }
}

async function runPgload (measure, server, builtin, clients, durationS, out, { nodeArgs, runArgs }, extra) {
  const args = [...nodeArgs, PGLOAD, 'run', 'tpcb', '-b', builtin, '-M', 'prepared', '-c', String(clients), '-T', `${durationS}s`,
    '--url', server.url, '--out', out, '--no-server-stats', ...runArgs, ...extra]
  const r = await measure(process.execPath, args, { timeoutMs: (durationS + 120) * 1000, sched: true })
  if (r.code !== 0) throw new Error(`pgload run tpcb -b ${builtin} -c ${clients} failed (${r.code}): ${r.stderr.trim().split('\n').pop()}`)
  const results = await readResults(out)
  const txns = results.summary.transactions + (results.summary.failed ?? 0)
  return {
    tps: results.summary.tps,
    transactions: results.summary.transactions,
    failed: results.summary.failed ?? 0,
    // The run's own accounting excludes start-up (module loading, connecting, vacuum).
    cpuUsPerTxn: results.client?.cpuUsPerTxn ?? r.cpuUs / txns,
    userUsPerTxn: results.client?.userUsPerTxn ?? r.userUs / txns,
    systemUsPerTxn: results.client?.systemUsPerTxn ?? r.systemUs / txns,
    processCpuUsPerTxn: r.cpuUs / txns,
    eventLoopUtilization: results.client?.eventLoopUtilization ?? null,
    sched: steadySched(r, results.summary.tps, durationS)
  }
}

// The runner's main thread per transaction over the steady seconds, the same window for every
// runner: from 2 s after its start (pgload's start-up takes about 1 s) to 0.5 s
// before its run would end if it had started at once. Runs shorter than 4 s have none.
function steadySched (r, tps, durationS) {
  return durationS >= 4 ? schedPerTxn(r.schedPoints, { fromMs: 2000, toMs: (durationS - 0.5) * 1000, tps }) : null
}
