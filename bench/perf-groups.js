#!/usr/bin/env node
// Where a run's CPU goes per transaction, by function group, from a perf recording with V8's
// jitdump (the recipe is in docs/performance.md):
//   node bench/perf-groups.js --data perf.jit.data --results r.json --hz 2000 [--threads]
// Only the steady seconds count: from --skip seconds after the first sample to --tail seconds
// before the last; the transactions of that window are taken as the run's tps times its length.

import { execFileSync } from 'node:child_process'
import { readResults } from '../lib/results/read.js'
import { parseBenchArgs, parseSeconds } from './lib/args.js'
import { formatTable } from './lib/table.js'
import { groupReport } from './lib/perf-groups.js'
import { PgloadError } from '../lib/errors.js'

const perf = (args) => execFileSync('perf', args, { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] }).toString()

/** @param {string[]} argv @param {{ out: (s: string) => void }} io */
export async function main (argv, io) {
  const a = parseBenchArgs(argv, {
    data: { type: 'string' },
    results: { type: 'string' },
    hz: { type: 'string', default: '2000' },
    skip: { type: 'string', default: '2.5s' },
    tail: { type: 'string', default: '1s' },
    threads: { type: 'boolean', default: false }
  })
  if (!a.data || !a.results) throw new PgloadError('perf-groups needs --data (perf inject --jit output) and --results (the run\'s results file)')
  const hz = Number(a.hz)
  if (!(hz > 0)) throw new PgloadError(`--hz must be perf record's -F, got ${JSON.stringify(a.hz)}`)
  const times = perf(['script', '-i', a.data, '-F', 'time']).split('\n').map((l) => parseFloat(l)).filter(Number.isFinite)
  if (times.length === 0) throw new PgloadError(`no samples in ${a.data}`)
  const from = times[0] + parseSeconds('--skip', a.skip)
  const to = times[times.length - 1] - parseSeconds('--tail', a.tail)
  if (!(to - from >= 1)) throw new PgloadError('under a second of steady samples: record a longer run')
  const results = await readResults(a.results)
  const txns = results.summary.tps * (to - from)
  const report = perf(['report', '-i', a.data, '-n', '--no-children', '--sort', 'pid,dso,sym', '--stdio', '-t', '|', '--time', `${from},${to}`])
  const { rows, total } = groupReport(report, { byThread: a.threads })
  const usPerSample = 1e6 / hz
  const table = rows.filter((r) => r.samples * usPerSample / txns >= 0.005).map((r) => [
    ...(a.threads ? [r.thread] : []), r.group, r.samples * usPerSample / txns, `${(100 * r.samples / total).toFixed(1)} %`
  ])
  table.push([...(a.threads ? [''] : []), 'total sampled', total * usPerSample / txns, '100 %'])
  io.out(`${results.summary.transactions} transactions, ${results.summary.tps.toFixed(0)} tps; window ${(to - from).toFixed(1)} s, about ${Math.round(txns)} transactions\n`)
  io.out(formatTable([...(a.threads ? ['thread'] : []), 'group', 'us/txn', 'share'], table) + '\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2), { out: (s) => process.stdout.write(s) }).catch((err) => {
    process.stderr.write(`perf-groups: ${err.message}\n`)
    process.exitCode = 1
  })
}
