// `pgload sweep WORKLOAD --scale 1,10 --clients 1,2,4 --repeat 3 [run options]`: a run for every
// cell of the grid, each repeated, every results file kept under DIR/runs/ and indexed by
// DIR/sweep.json; `--resume DIR` runs what is missing.

import { mkdir, access } from 'node:fs/promises'
import { randomUUID, randomInt } from 'node:crypto'
import os from 'node:os'
import { join, dirname, resolve } from 'node:path'
import yargs from 'yargs'
import { hideBin } from 'yargs/helpers'
import { PgloadError } from '../errors.js'
import { parseOutputPath } from '../options/parse.js'
import { workloadNames, workloadRunOptions } from '../../workloads/index.js'
import { TOOL_VERSION } from '../version.js'
import { RUN_OPTIONS, REFUSED_OPTIONS } from './run-options.js'
import { planInputFromArgv, refuseOptions, connectionUrl } from './run-argv.js'
import { recordedCommand } from './interrupts.js'
import { sweepSession } from './sweep-session.js'
import { initCommand } from './init.js'
import { sweepSpec, sweepDifference, DEFAULT_REPEAT } from '../sweep/spec.js'
import { runOrder } from '../sweep/order.js'
import { newSweepDocument, readSweepDocument, writeSweepDocument, SWEEP_FILE, RUNS_DIR } from '../sweep/document.js'
import { sizeAxis } from '../sweep/axes.js'
import { cellTable } from '../sweep/format.js'
import { runSweep } from '../sweep/session.js'
import { startSweepLive } from '../live/sweep-live.js'
import { liveOptions } from '../plan/live-options.js'
import { dashboardKeepS, keepNote, keepServing } from './dashboard-keep.js'
import { plural } from '../format/plural.js'

const workloadOptions = await workloadRunOptions()

/** Run options a sweep does not take: it writes every run's results to its directory. */
const NOT_FOR_SWEEPS = {
  out: 'each run\'s results go to DIR/runs/ (--dir DIR)',
  report: 'draw the sweep with pgload report DIR/sweep.json',
  threshold: 'check the runs afterwards: pgload check DIR/runs/FILE.json --threshold ...',
  shard: 'a sweep runs its cells one after the other on one machine',
  shards: 'a sweep runs its cells one after the other on one machine',
  'run-id': 'a sweep has its own id (the sweep document\'s)',
  'shard-timeout': 'a sweep runs its cells one after the other on one machine'
}
/** The options whose meaning a sweep extends: the axes, as comma lists, and the label. */
const SWEEP_MEANING = {
  clients: { describe: 'clients of each cell, a comma list: 1,2,4,8 (tpcc: the connections its terminals share)' },
  rate: { describe: 'target transactions per second of each cell, a comma list: 1000,2000' },
  scale: { describe: 'scales to load and run, a comma list: 1,10,100 (each loaded once, ascending)' },
  warehouses: { type: 'string', describe: 'tpcc, chbench: warehouses to load and run, a comma list: 10,50 (each loaded once, ascending)' },
  streams: { type: 'string', describe: 'chbench: analytic streams of each cell, a comma list: 0,1,2,4 (0: TPC-C alone, the baseline)' },
  label: { describe: 'name of the sweep; each run is named by it and its cell' },
  store: { describe: 'store the sweep, its runs and its cells in the results database at the end, interrupted or not (docs/results-database.md)' },
  dashboard: { describe: 'serve one live dashboard for the whole sweep at HOST:PORT: where it is, the current run\'s charts, the cells done so far, then the sweep\'s report [default address: 127.0.0.1:5665]' },
  'dashboard-out': { describe: 'with --dashboard: also save the final page (the sweep\'s report) to this HTML file' },
  'dashboard-keep': { describe: 'with --dashboard: how long the sweep\'s report stays served once everything is written: a duration, 0, or forever (until Ctrl-C) [default: forever when stdout is a terminal and CI is not set, else 0]' },
  metrics: { describe: 'serve Prometheus metrics of the current run (labelled with its cell) and of the sweep at http://HOST:PORT/metrics (docs/live.md)' },
  'metrics-push': { describe: 'push the same metrics to a Prometheus remote-write receiver at each interval of each run and at the end: http://HOST:9090/api/v1/write (docs/live.md)' }
}
/** Options of watching the sweep, not of its definition: a resumed sweep may use other addresses. */
const LIVE_KEYS = ['dashboard', 'dashboardOut', 'metrics', 'metricsPush', 'metricsPushHeaders']
/** `pgload run`'s options that print something and run nothing: not a sweep's. */
const LISTINGS = ['show-script']
/**
 * Arguments that are not part of the sweep's definition: how to reach (and, for cold starts,
 * restart) the server, which may hold secrets and may differ when the sweep is resumed; logging;
 * the directory.
 */
const REACH = ['url', 'host', 'port', 'username', 'dbname', 'restartCommand', 'resultsUrl', 'store']
const NOT_RECORDED = new Set(['--url', '--host', '--port', '--username', '--dbname', '-h', '-p', '-U', '-d', '--restart-command', '--results-url', '--resume', '--dir', '--log-file', '--dashboard-keep',
  '--metrics-push', '--metrics-push-header'])
const NOT_RECORDED_SWITCHES = new Set(['--verbose', '--json', '--store', '--no-store'])
/** Not recorded either, with a value only when one follows (yargs reads them so): --dashboard [HOST:PORT]. */
const NOT_RECORDED_OPTIONAL = new Set(['--dashboard', '--dashboard-out', '--metrics'])

export const command = 'sweep [workload..]'
export const describe = 'Run a workload over a grid of scales, clients and rates, each cell repeated: pgload sweep tpcb --scale 1,10 --clients 1,2,4'

/** @param {import('yargs').Argv} y */
export function builder (y) {
  y.positional('workload', { describe: `${workloadNames.join(', ')}, or script files (name.sql[@weight])`, type: 'string', array: true })
  for (const [name, def] of Object.entries(RUN_OPTIONS)) {
    if (!LISTINGS.includes(name)) y.option(name, { ...def, ...SWEEP_MEANING[name], ...(name in NOT_FOR_SWEEPS ? { hidden: true } : {}) })
  }
  // refused with a reason (refuseOptions), not with "Unknown argument"
  for (const [name, def] of Object.entries(REFUSED_OPTIONS)) y.option(name, { ...def, hidden: true })
  for (const [name, def] of Object.entries(workloadOptions)) y.option(name, { ...def, ...SWEEP_MEANING[name] })
  return y
    .option('repeat', { type: 'string', describe: `runs per cell; each cell's figures are the median of its runs [default: ${DEFAULT_REPEAT}]` })
    .option('dir', { type: 'string', describe: 'directory of the sweep document and the runs\' results [default: ./pgload-sweeps/<UTC time>-<workload>]' })
    .option('resume', { type: 'string', describe: 'continue the sweep in this directory: run only what is missing' })
    .option('json', { type: 'boolean', describe: 'print the sweep document on stdout instead of the table' })
    .example('$0 sweep tpcb --scale 1,10 --clients 1,2,4 --repeat 3 --duration 60s', 'each scale loaded once, 6 cells, 18 runs')
    .example('$0 sweep tpcc --warehouses 10 --clients 10,50 --no-wait', 'TPC-C unpaced with 10 and 50 connections')
    .example('$0 sweep chbench --warehouses 1 --streams 0,1,2,4 --no-wait', 'what 0 to 4 analytic streams cost TPC-C\'s transactions')
    .example('$0 sweep --resume pgload-sweeps/20260101T000000Z-tpcb', 'finish an interrupted sweep')
}

/** @param {any} argv */
export async function handler (argv) {
  const { createLogger } = await import('../log.js')
  const args = hideBin(process.argv).slice(1)
  let live = null
  // the dashboard and the metrics endpoint are bound once the options are checked, before the
  // sweep's directory is made or any server is reached: a busy port stops here
  const keepS = dashboardKeepS(argv)
  const log = createLogger(argv)
  // the one interrupt policy from here on: a signal while the sweep is checked or the server reached ends it at once
  const session = sweepSession({ err: process.stderr, log, env: process.env })
  const bind = async () => { live = await startSweepLive(sweepLiveOptions(argv), { err: process.stderr, atEnd: keepS === null ? undefined : keepNote(keepS, 'sweep') }) }
  try {
    const sweep = await session.guard(argv.resume !== undefined ? resumedSweep(argv, args, { bind }) : newSweep(argv, args, { bind }))
    live?.setDoc(sweep.doc)
    const ended = await sweepCommand(sweep, { log, json: Boolean(argv.json), live, interrupts: session }).then(() => null, (error) => error)
    // a signal during the wait below ends only the wait
    await session.close()
    // the document and the report are written: the wait loses nothing, and the exit status stays the sweep's
    if (live?.urls.dashboard && live.dashboard.reportHtml !== null) await keepServing(keepS, { url: live.urls.dashboard })
    if (ended) throw ended
  } finally {
    await session.close()
    await live?.close()
  }
}

/**
 * --dashboard, --dashboard-out, --metrics and --metrics-push, checked as `pgload run` checks them.
 * @param {any} argv
 * @returns {import('../live/sweep-live.js').SweepLiveOptions}
 */
export function sweepLiveOptions (argv) {
  const { dashboard, dashboardOut, metrics, metricsPush } = liveOptions((k) => k === 'metricsPushHeaders' ? argv.metricsPushHeader : argv[k])
  return { dashboard, dashboardOut, metrics, metricsPush }
}

/**
 * Run a sweep's missing runs, then print its cells. Ctrl-C once lets the current run finish its
 * grace (it is kept, as interrupted), twice stops it at once; either way no other run starts.
 * @param {{ spec: import('../sweep/spec.js').SweepSpec, dir: string, doc: Record<string, any> }} sweep
 * @param {{ log?: any, json?: boolean, out?: { write(s: string): any }, err?: { write(s: string): any }, env?: Record<string, string|undefined>,
 *   live?: import('../live/sweep-live.js').SweepLive|null, interrupts?: import('../session/run-session.js').RunSession|null }} [opts] live: the sweep's dashboard and
 *   metrics, bound already; interrupts: the command's session (sweepSession), listening since before the sweep was checked
 */
export async function sweepCommand (sweep, { log, json = false, out = process.stdout, err = process.stderr, env = process.env, live = null, interrupts = null } = {}) {
  const { spec, dir, doc } = sweep
  const axis = sizeAxis(spec.workload)
  const loadSize = (size, { signal }) => initCommand({ workload: spec.workload, url: spec.common.url, env, options: { [axis]: size, force: true }, stderr: loadOutput(err, `${axis} ${size}`), log, signal })
  const session = interrupts ?? sweepSession({ err, log, env })
  let outcome
  try {
    outcome = await session.guard(runSweep(sweep, {
      loadSize,
      log,
      env,
      err,
      live,
      runBenchmark: (plan, hooks) => session.run(plan, { onRun: hooks.onRun, env: hooks.env, outputs: hooks.outputs }),
      onRunner (r) { session.runner = r }
    }))
  } finally {
    if (!interrupts) await session.close()
  }
  if (live) await finishLive(live, { dir, doc, err })
  out.write(json ? JSON.stringify(doc, null, 1) + '\n' : cellTable(doc))
  const done = doc.runs.filter((r) => r.status === 'done').length
  err.write(`pgload sweep: ${done} of ${plural(doc.runs.length, 'run')} done; the sweep document is ${join(dir, SWEEP_FILE)}\n`)
  if (spec.common.store && done > 0) await storeFinishedSweep(join(dir, SWEEP_FILE), { resultsUrl: spec.common.resultsUrl, env, log, err })
  const resume = `pgload sweep --resume ${dir}`
  if (outcome.interrupted) {
    throw new PgloadError(`the sweep was ${session.terminated ? 'terminated' : 'interrupted'}; every finished run is kept`, { code: 'INTERRUPTED', exitCode: session.interruptExitCode, hint: `finish it with ${resume}` })
  }
  if (outcome.error) throw Object.assign(outcome.error, { hint: outcome.error.hint ?? `once it is fixed, ${resume} runs what is missing` })
  const failed = doc.runs.filter((r) => r.status === 'failed').length
  if (failed) throw new PgloadError(`${failed} run${failed === 1 ? '' : 's'} of the sweep failed (see the document); the cells cover the others`, { code: 'RUN_ABORTED', exitCode: 2, hint: `${resume} runs them again` })
}

/** The sweep's report to the dashboard's pages and to --dashboard-out; a failure there is a warning. */
async function finishLive (live, { dir, doc, err }) {
  try {
    const { sweepReportHtml } = await import('../report/sweep/render.js')
    const out = live.options.dashboardOut
    const html = sweepReportHtml(doc, { source: join(dir, SWEEP_FILE), htmlDir: out ? dirname(resolve(out)) : undefined })
    const saved = await live.finish(html)
    if (saved) err.write(`pgload sweep: dashboard report written to ${saved}\n`)
  } catch (e) {
    err.write(`pgload: warning: the dashboard's final report was not made: ${e.message}\n`)
  }
}

/**
 * --store: the sweep and its finished runs into the results database (a resumed sweep replaces
 * its rows). Whatever happens there, the sweep's files stay as they are: a failure is a warning.
 */
async function storeFinishedSweep (file, { resultsUrl, env, log, err }) {
  try {
    const { storeSweep } = await import('../store/index.js')
    await storeSweep(file, { resultsUrl, env, log })
    err.write('pgload sweep: stored in the results database\n')
  } catch (e) {
    err.write(`pgload: warning: the sweep was not stored in the results database: ${e.message} (its files are kept; pgload store ${file} stores it later)\n`)
  }
}

/**
 * A new sweep: checked in full, its directory made and its document written (every run pending).
 * @param {any} argv
 * @param {string[]} args the arguments after `sweep`
 * @param {{ bind?: () => Promise<void> }} [opts] bind: called once everything is checked, before the directory is made
 */
export async function newSweep (argv, args, { bind } = {}) {
  const spec = await specFromArgv(argv, args)
  const dir = parseOutputPath(argv.dir, '--dir', 'directory') ?? defaultSweepDir(spec.name)
  if (await exists(join(dir, SWEEP_FILE))) {
    throw new PgloadError(`--dir ${dir} already holds a sweep`, { code: 'BAD_OPTION', hint: `continue it with pgload sweep --resume ${dir}, or give another --dir` })
  }
  await bind?.()
  try {
    await mkdir(join(dir, RUNS_DIR), { recursive: true })
  } catch (err) {
    throw new PgloadError(`--dir: cannot make ${join(dir, RUNS_DIR)}: ${err.code ?? err.message}`, { code: 'RESULTS_NOT_WRITABLE' })
  }
  const orderSeed = randomInt(0, 2 ** 32)
  const doc = newSweepDocument({
    id: randomUUID(),
    at: new Date(),
    toolVersion: TOOL_VERSION,
    command: recordedCommand(['sweep', ...recordedArgs(args)]),
    args: recordedArgs(args),
    workload: spec.name,
    label: spec.common.label ?? null,
    axes: spec.axes,
    repeat: spec.repeat,
    orderSeed,
    options: spec.options,
    host: { memoryBytes: os.totalmem(), cpus: os.availableParallelism(), hostname: os.hostname(), platform: process.platform, arch: process.arch },
    planned: runOrder(spec.cells, spec.repeat, orderSeed)
  })
  await writeSweepDocument(dir, doc)
  return { spec, dir, doc }
}

/**
 * The sweep in DIR, to be finished: its own arguments give its runs; options given besides
 * the server's address (and the live addresses) must be the same sweep's.
 * @param {any} argv
 * @param {string[]} args the arguments after `sweep`
 * @param {{ bind?: () => Promise<void> }} [opts] bind: called once everything is checked
 */
export async function resumedSweep (argv, args, { bind } = {}) {
  const dir = parseOutputPath(argv.resume, '--resume', 'directory')
  if (argv.dir !== undefined) throw new PgloadError('--dir goes with a new sweep; --resume DIR continues the one in DIR', { code: 'BAD_OPTION' })
  const doc = await readSweepDocument(dir)
  const recorded = await parseSweepArgs(doc.args)
  const reach = Object.fromEntries(REACH.map((k) => [k, argv[k]]))
  const spec = await specFromArgv({ ...recorded, ...reach }, doc.args, doc.command)
  const changed = sweepDifference(doc, spec)
  if (changed) {
    throw new PgloadError(`--resume: ${join(dir, SWEEP_FILE)} no longer gives the same runs (${changed})`, {
      code: 'SWEEP_CHANGED', hint: 'a script file or pgload itself changed since the sweep began; start a new sweep'
    })
  }
  if (recordedArgs(args).length > 0) {
    const given = await specFromArgv(argv, args)
    const differs = sweepDifference(doc, given)
    if (differs) {
      throw new PgloadError(`--resume: the options differ from the sweep's in ${dir} (${differs})`, {
        code: 'SWEEP_CHANGED', hint: `give pgload sweep --resume ${dir} alone (with the server's address if needed) to finish it`
      })
    }
  }
  sweepLiveOptions(argv)
  await bind?.()
  return { spec, dir, doc }
}

/** The sweep's spec from parsed arguments, checked as `pgload run` checks its own. */
async function specFromArgv (argv, args, command) {
  for (const [flag, why] of Object.entries(NOT_FOR_SWEEPS)) {
    if (argv[flag] !== undefined) throw new PgloadError(`--${flag} does not go with sweep: ${why}`, { code: 'BAD_OPTION' })
  }
  const input = await planInputFromArgv(argv, { rawArgs: ['sweep', ...args], command: command ?? recordedCommand(['sweep', ...recordedArgs(args)]) })
  input.url = connectionUrl(argv)
  // the sweep serves them itself (sweepLiveOptions), once for all its runs: not each run's, not recorded
  sweepLiveOptions(argv)
  for (const k of LIVE_KEYS) delete input[k]
  const checks = { afterValues: () => refuseOptions(argv) }
  return sweepSpec(input, { repeat: argv.repeat, checks, streams: argv.streams })
}

/**
 * Parse a sweep's recorded arguments as the command line would.
 * @param {string[]} args
 * @returns {Promise<Record<string, any>>}
 */
export async function parseSweepArgs (args) {
  let captured = null
  await yargs(['sweep', ...args])
    .command(command, describe, builder, (argv) => { captured = argv })
    .strictOptions()
    .parserConfiguration({ 'boolean-negation': true })
    .exitProcess(false)
    .fail((msg, err) => { throw err ?? new PgloadError(`the sweep's recorded arguments: ${msg}`, { code: 'SWEEP_INVALID' }) })
    .parseAsync()
  if (!captured) throw new PgloadError('the sweep\'s recorded arguments could not be read', { code: 'SWEEP_INVALID' })
  return captured
}

/**
 * The arguments that define a sweep, as its document keeps them: without the server's address
 * and restart command (they may hold a password, and a resumed sweep may reach the server
 * another way), the directory, and logging and output switches.
 * @param {string[]} args the arguments after `sweep`
 * @returns {string[]}
 */
export function recordedArgs (args) {
  const out = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === '--') { out.push(...args.slice(i)); break }
    const name = a.startsWith('--') ? a.split('=')[0] : a.slice(0, 2)
    if (NOT_RECORDED_SWITCHES.has(a)) continue
    if (NOT_RECORDED_OPTIONAL.has(name)) {
      if (!a.includes('=') && i + 1 < args.length && !args[i + 1].startsWith('-')) i++
      continue
    }
    if (NOT_RECORDED.has(name)) {
      const joined = a.startsWith('--') ? a.includes('=') : a.length > 2
      if (!joined) i++ // the value is the next argument
      continue
    }
    out.push(a)
  }
  return out
}

/**
 * init's output during a sweep: its closing line with the time of each step, no step by step.
 * @param {{ write(s: string): any }} err
 * @param {string} what `scale 10`
 */
function loadOutput (err, what) {
  let partial = ''
  return {
    isTTY: false,
    write (chunk) {
      partial += chunk
      for (let i = partial.indexOf('\n'); i >= 0; i = partial.indexOf('\n')) {
        const line = partial.slice(0, i)
        partial = partial.slice(i + 1)
        if (line.startsWith('done in ')) err.write(`pgload sweep: loaded ${what} in ${line.slice('done in '.length)}\n`)
      }
    }
  }
}

/**
 * The default directory of a sweep: ./pgload-sweeps/<UTC time>-<workload>.
 * @param {string} name the workload or script files
 * @param {Date} [at]
 */
export function defaultSweepDir (name, at = new Date()) {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')
  const safe = name.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60)
  return join('pgload-sweeps', `${stamp}-${safe}`)
}

async function exists (file) {
  try {
    await access(file)
    return true
  } catch {
    return false
  }
}

export default { command, describe, builder, handler }
