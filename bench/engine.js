// The engine alone: `pgload run tpcb` on in-memory connections (lib/fake-shim.js), so the CPU
// per transaction is pgload's own (scheduler, terminals, script interpreter, histograms) without
// driver, socket or server. A second column runs the same on lean connections to an in-memory
// server (lib/wire-shim.js, a session of test/helpers/stand-in-server.js): the engine plus the
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
const FAKE = fileURLToPath(new URL('./lib/fake-register.js', import.meta.url))
const WIRE = fileURLToPath(new URL('./lib/wire-register.js', import.meta.url))

// Defaults, with units.
const DEFAULTS = {
  duration: '5s', // per case
  cases: [['select-only', 1], ['select-only', 8], ['select-only', 32], ['tpcb-like', 8], ['simple-update', 8]],
  smoke: { durationS: 1, cases: [['select-only', 2]] },
  // --jobs: one CPU-bound case, rounds of every thread count in turn
  threads: { case: ['select-only', 8], repeat: 3 }
}

/** @param {string[]} argv @param {{ out: (s: string) => void, err: (s: string) => void }} io */
export async function main (argv, io) {
  const a = parseBenchArgs(argv, {
    duration: { type: 'string', default: DEFAULTS.duration },
    smoke: { type: 'boolean', default: false },
    url: { type: 'string' }, // accepted for symmetry; no server is used
    jobs: { type: 'string' },
    repeat: { type: 'string' }
  })
  const durationS = a.smoke ? DEFAULTS.smoke.durationS : Math.max(1, Math.round(parseSeconds('--duration', a.duration)))
  const cases = a.smoke ? DEFAULTS.smoke.cases : DEFAULTS.cases
  const dir = await mkdtemp(join(tmpdir(), 'pgload-bench-'))
  try {
    if (a.jobs !== undefined) {
      const repeat = a.repeat === undefined ? (a.smoke ? 1 : DEFAULTS.threads.repeat) : parseIntList('--repeat', a.repeat)[0]
      io.out(await threadScaling(parseIntList('--jobs', a.jobs), { durationS, repeat, dir, io }) + '\n')
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

// One pgload run with a connection shim (--import); returns its results file.
async function runOn (register, builtin, clients, durationS, out, extra = []) {
  const r = await runMeasured(process.execPath, ['--import', register, PGLOAD, 'run', 'tpcb', '-b', builtin, '-c', String(clients), '-T', `${durationS}s`,
    '--url', 'postgres://fake@127.0.0.1:1/fake', '--out', out, '--no-server-stats', ...extra])
  if (r.code !== 0) throw new Error(`pgload on in-memory connections (${register}) failed (${r.code}): ${r.stderr.trim().split('\n').pop()}`)
  const results = await readResults(out)
  // the stand-in answers every statement: a failure is a bug in the shim or in pgload
  if (!(results.summary.transactions > 0) || results.summary.failed > 0) throw new Error(`pgload on in-memory connections (${register}): ${results.summary.transactions} transactions, ${results.summary.failed} failed`)
  return results
}

/**
 * The engine over worker threads: the same CPU-bound run (in-memory connections answer at once,
 * so each thread's event loop is busy all the time) with each thread count, rounds interleaved;
 * medians of tps, of the whole process's CPU per transaction, of the busiest thread's time on a
 * CPU, and the tps of each count against the first count's. The ratio can only reach the count
 * where that many cores are free: the threads' on-CPU shares say whether they were.
 * @param {number[]} jobsList
 * @param {{ durationS: number, repeat: number, dir: string, io: { err: (s: string) => void } }} opts
 */
async function threadScaling (jobsList, { durationS, repeat, dir, io }) {
  const [builtin, clients] = DEFAULTS.threads.case
  const runs = new Map(jobsList.map((j) => [j, []]))
  for (let round = 0; round < repeat; round++) {
    for (const jobs of round % 2 === 0 ? jobsList : [...jobsList].reverse()) {
      io.err(`engine: ${builtin} -c ${clients} -j ${jobs}, ${durationS} s, in-memory connections (round ${round + 1} of ${repeat})\n`)
      runs.get(jobs).push(await runOn(FAKE, builtin, clients, durationS, join(dir, `threads-${jobs}-${round}.json`), ['-j', String(jobs)]))
    }
  }
  const base = finiteMedian(runs.get(jobsList[0]).map((r) => r.summary.tps))
  const rows = jobsList.map((jobs) => {
    const rs = runs.get(jobs)
    const tps = rs.map((r) => r.summary.tps)
    const ratios = finiteRange(tps.map((t) => t / base))
    const onCpu = rs.map((r) => threadsOnCpu(r))
    return [jobs, finiteMedian(tps), finiteMedian(rs.map((r) => r.client?.cpuUsPerTxn ?? NaN)), finiteMedian(onCpu),
      `${(finiteMedian(tps) / base).toFixed(2)}x (${ratios.min.toFixed(2)}-${ratios.max.toFixed(2)})`]
  })
  const header = ['threads', 'tps', 'process cpu us/txn', 'threads on a CPU (cores)', `tps vs -j ${jobsList[0]} (rounds' range)`]
  return `${builtin} -c ${clients}, ${durationS} s per run, median of ${repeat} round(s)\n` + formatTable(header, rows)
}

/** The threads' summed share of the run on a CPU, in cores (one thread: the driver thread's). */
function threadsOnCpu (results) {
  const c = results.client ?? {}
  if (Array.isArray(c.threads)) return c.threads.reduce((a, t) => a + (t.onCpuShare ?? NaN), 0)
  return c.onCpuShare ?? NaN
}
