// The engine alone: `pgload run tpcb` on in-memory connections (lib/fake-connections.js), so the CPU
// per transaction is pgload's own (scheduler, terminals, script interpreter, histograms) without
// driver, socket or server. A second column runs the same on lean connections to an in-memory
// server (lib/wire-connections.js, a session of test/helpers/stand-in-server.js): the engine plus the
// driver's protocol encoding and decoding, still without kernel or server (the stand-in's own
// work, parsing the frontend messages and copying its canned replies, is counted too).
// Each case in its own process. With --jobs 1,2 it measures how the engine scales over worker
// threads instead (see threadScaling).

import { fileURLToPath } from 'node:url'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseBenchArgs, parseSeconds, parseIntList } from './lib/args.js'
import { formatTable } from './lib/table.js'
import { finiteMedian, finiteRange } from './lib/stats.js'
import { runMeasured } from './lib/child.js'
import { readResults } from '../lib/results/read.js'

const PGLOAD = fileURLToPath(new URL('../bin/pgload.js', import.meta.url))
// modules that install pgload's connector (lib/db/connector.js) before it runs
const FAKE = fileURLToPath(new URL('./lib/fake-connections.js', import.meta.url))
const WIRE = fileURLToPath(new URL('./lib/wire-connections.js', import.meta.url))

// Defaults, with units.
const DEFAULTS = {
  duration: '5s', // per case
  cases: [['select-only', 1], ['select-only', 8], ['select-only', 32], ['tpcb-like', 8], ['simple-update', 8]],
  smoke: { durationS: 1, cases: [['select-only', 2]] },
  // --jobs: CPU-bound select-only at these clients, rounds of every thread count in turn
  threads: { builtin: 'select-only', clients: [8, 32], repeat: 3 }
}

/** @param {string[]} argv @param {{ out: (s: string) => void, err: (s: string) => void }} io */
export async function main (argv, io) {
  const a = parseBenchArgs(argv, {
    duration: { type: 'string', default: DEFAULTS.duration },
    smoke: { type: 'boolean', default: false },
    url: { type: 'string' }, // accepted for symmetry; no server is used
    jobs: { type: 'string' },
    repeat: { type: 'string' },
    clients: { type: 'string' } // with --jobs: the cases' clients (default 8,32)
  })
  const durationS = a.smoke ? DEFAULTS.smoke.durationS : Math.max(1, Math.round(parseSeconds('--duration', a.duration)))
  const cases = a.smoke ? DEFAULTS.smoke.cases : DEFAULTS.cases
  const dir = await mkdtemp(join(tmpdir(), 'pgload-bench-'))
  try {
    if (a.jobs !== undefined) {
      const repeat = a.repeat === undefined ? (a.smoke ? 1 : DEFAULTS.threads.repeat) : parseIntList('--repeat', a.repeat)[0]
      const clientsList = a.clients === undefined ? (a.smoke ? [2] : DEFAULTS.threads.clients) : parseIntList('--clients', a.clients)
      for (const clients of clientsList) io.out(await threadScaling(parseIntList('--jobs', a.jobs), { clients, durationS, repeat, dir, io }) + '\n')
      return
    }
    const rows = []
    for (const [builtin, clients] of cases) {
      io.err(`engine: ${builtin} -c ${clients}, ${durationS} s, in-memory connections, then the lean driver on an in-memory server\n`)
      const engine = await runOn(FAKE, builtin, clients, durationS, join(dir, `${builtin}-${clients}-fake.json`))
      const wire = await runOn(WIRE, builtin, clients, durationS, join(dir, `${builtin}-${clients}-wire.json`))
      rows.push([builtin, clients, engine.summary.tps, engine.client?.cpuUsPerTxn ?? NaN, wire.summary.tps, wire.client?.cpuUsPerTxn ?? NaN])
    }
    io.out(formatTable(['workload', 'clients', 'tps', 'engine cpu us/txn', 'tps (lean)', 'engine + lean driver cpu us/txn'], rows) + '\n')
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

// One pgload run with in-memory connections (the connector module given to --import); returns
// its results file.
async function runOn (connector, builtin, clients, durationS, out, extra = []) {
  const r = await runMeasured(process.execPath, ['--import', connector, PGLOAD, 'run', 'tpcb', '-b', builtin, '-c', String(clients), '-T', `${durationS}s`,
    '--url', 'postgres://fake@127.0.0.1:1/fake', '--out', out, '--no-server-stats', ...extra])
  if (r.code !== 0) throw new Error(`pgload on in-memory connections (${connector}) failed (${r.code}): ${r.stderr.trim().split('\n').pop()}`)
  const results = await readResults(out)
  // the stand-in answers every statement: a failure is a bug in the in-memory connections or in pgload
  if (!(results.summary.transactions > 0) || results.summary.failed > 0) throw new Error(`pgload on in-memory connections (${connector}): ${results.summary.transactions} transactions, ${results.summary.failed} failed`)
  return results
}

/**
 * The engine over worker threads: the same CPU-bound run (in-memory connections answer at once,
 * so each thread's event loop is busy all the time) with each thread count, rounds interleaved;
 * medians of tps, of the whole process's CPU per transaction and of the threads' summed time on a
 * CPU. The tps ratio can reach the thread count only where that many cores are free (the on-CPU
 * column says whether they were); the last column is the scaling with a free core per thread,
 * from the transactions per CPU-second of the threads: N times the ratio of tps per core on a CPU.
 * @param {number[]} jobsList
 * @param {{ clients: number, durationS: number, repeat: number, dir: string, io: { err: (s: string) => void } }} opts
 */
async function threadScaling (jobsList, { clients, durationS, repeat, dir, io }) {
  const builtin = DEFAULTS.threads.builtin
  const runs = new Map(jobsList.map((j) => [j, []]))
  for (let round = 0; round < repeat; round++) {
    for (const jobs of round % 2 === 0 ? jobsList : [...jobsList].reverse()) {
      io.err(`engine: ${builtin} -c ${clients} -j ${jobs}, ${durationS} s, in-memory connections (round ${round + 1} of ${repeat})\n`)
      runs.get(jobs).push(await runOn(FAKE, builtin, clients, durationS, join(dir, `threads-${clients}-${jobs}-${round}.json`), ['-j', String(jobs)]))
    }
  }
  const medianOf = (jobs, f) => finiteMedian(runs.get(jobs).map(f))
  const perCore = (r) => r.summary.tps / threadsOnCpu(r)
  const base = medianOf(jobsList[0], (r) => r.summary.tps)
  const basePerCore = medianOf(jobsList[0], perCore)
  const rows = jobsList.map((jobs) => {
    const ratios = finiteRange(runs.get(jobs).map((r) => r.summary.tps / base))
    const tps = medianOf(jobs, (r) => r.summary.tps)
    return [jobs, tps, medianOf(jobs, (r) => r.client?.cpuUsPerTxn ?? NaN), medianOf(jobs, threadsOnCpu),
      `${(tps / base).toFixed(2)}x (${ratios.min.toFixed(2)}-${ratios.max.toFixed(2)})`,
      `${(jobs / jobsList[0] * medianOf(jobs, perCore) / basePerCore).toFixed(2)}x`]
  })
  const header = ['threads', 'tps', 'process cpu us/txn', 'threads on a CPU (cores)', `tps vs -j ${jobsList[0]} (rounds' range)`, 'per CPU-second, x threads']
  return `${builtin} -c ${clients}, ${durationS} s per run, median of ${repeat} round(s)\n` + formatTable(header, rows)
}

/** The threads' summed share of the run on a CPU, in cores (one thread: the driver thread's). */
function threadsOnCpu (results) {
  const c = results.client ?? {}
  if (Array.isArray(c.threads)) return c.threads.reduce((a, t) => a + (t.onCpuShare ?? NaN), 0)
  return c.onCpuShare ?? NaN
}
