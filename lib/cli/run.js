// `pgload run`: argv -> run plan (lib/plan) -> runBenchmark -> progress, summary and exit status.

import { hideBin } from 'yargs/helpers'
import { PgloadError } from '../errors.js'
import { resolvePlan } from '../plan/resolve.js'
import { runBenchmark } from '../benchmark.js'
import { workloadNames, loadWorkload } from '../../workloads/index.js'
import { attachRunMessages, formatRunOutput, phaseMessage } from '../output/run-messages.js'
import { thresholdTally } from '../compare/format.js'
import { createLogger } from '../log.js'
import { RUN_OPTIONS, REFUSED_OPTIONS } from './run-options.js'
import { planInputFromArgv, refuseOptions, connectionUrl } from './run-argv.js'
import { trapInterrupts, openLineEnd } from './interrupts.js'
import { startLive } from '../live/index.js'
import { dashboardKeepS, keepNote, keepServing } from './dashboard-keep.js'

export { planInputFromArgv, scriptSpecs, connectionUrl } from './run-argv.js'

/** Exit status of a run whose --threshold failed. */
export const THRESHOLD_EXIT_CODE = 99

const workloadModules = await Promise.all(workloadNames.map((n) => loadWorkload(n)))

/** @type {import('yargs').CommandModule} */
export const runCommand = {
  command: 'run [workload..]',
  describe: 'Run a benchmark: a built-in workload (tpcb, tpcc) or pgbench script files (file.sql[@weight])',
  builder (y) {
    y.positional('workload', { describe: `${workloadNames.join(', ')}, or script files (name.sql[@weight])`, type: 'string', array: true })
    for (const [name, def] of Object.entries(RUN_OPTIONS)) y.option(name, def)
    // pgbench options pgload refuses with a clear message instead of "Unknown argument".
    for (const [name, def] of Object.entries(REFUSED_OPTIONS)) y.option(name, { ...def, hidden: true })
    for (const mod of workloadModules) {
      for (const [name, def] of Object.entries(mod?.runOptions ?? {})) y.option(name, def)
    }
    return y
  },
  async handler (argv) {
    if (argv.builtin?.includes('list') || argv.showScript !== undefined) return showBuiltins(argv.showScript)
    const log = createLogger(argv)
    if (argv.json && argv.dashboard !== undefined) throw new PgloadError('--dashboard does not go with --json: --json prints the results document alone; open the dashboard\'s report (--dashboard-out) or pgload report instead', { code: 'BAD_OPTION' })
    const keepS = dashboardKeepS(argv)
    const plan = await runPlanFromArgv(argv, { rawArgs: hideBin(process.argv) })
    // the dashboard and the metrics endpoint are bound before anything runs: a busy port stops here
    const live = await startLive(plan, { atEnd: keepS === null ? undefined : keepNote(keepS) })
    try {
      const outcome = await runInterruptibly(plan, { log, live })
      const saved = await live?.finish(outcome.results)
      if (saved) process.stderr.write(`pgload: dashboard report written to ${saved}\n`)
      await writeRunOutput(argv, plan, outcome, { log })
      // every file is written before the wait: a kill during it loses nothing
      if (live?.urls.dashboard) await keepServing(keepS, { url: live.urls.dashboard })
      throwForOutcome(outcome.results, outcome, { json: argv.json })
    } finally {
      await live?.close()
    }
  }
}

/** The summary (or the document with --json), the results file's place, --report and --store. */
async function writeRunOutput (argv, plan, { results, file }, { log }) {
  process.stdout.write(formatRunOutput(results, { json: argv.json }))
  if (file) process.stderr.write(`pgload: results written to ${file}\n`)
  if (argv.report && file) {
    const { writeHtmlReport } = await import('../report/index.js')
    const html = await writeHtmlReport(results, file.replace(/\.json$/, '') + '.html')
    process.stderr.write(`pgload: report written to ${html}\n`)
  }
  if (plan.store && file) {
    const { storeWrittenFiles } = await import('./store.js')
    await storeWrittenFiles([file], plan, { log })
  }
}

/**
 * The run plan of `pgload run ARGS`: every value checked, defaults applied.
 * @param {Record<string, any>} argv as yargs parsed it
 * @param {{ rawArgs?: string[] }} [opts]
 * @returns {Promise<Readonly<import('../plan/resolve.js').RunPlan>>}
 */
export async function runPlanFromArgv (argv, opts) {
  const checks = { afterValues: () => refuseOptions(argv), afterOptions: () => connectionUrl(argv) }
  return resolvePlan(await planInputFromArgv(argv, opts), { checks })
}

/** -b list and --show-script: pgbench's listings, on stderr as pgbench prints them. */
async function showBuiltins (name) {
  const { listBuiltins, findBuiltin } = await import('../script/index.js')
  if (name === undefined) {
    process.stderr.write(listBuiltins())
    return
  }
  const b = findBuiltin(name)
  process.stderr.write(`-- ${b.name}: ${b.desc}\n${b.script}\n`)
}

/**
 * Run the plan with progress and messages on stderr. Ctrl-C once (or SIGTERM) stops with the
 * grace for transactions in flight, twice aborts at once; what was measured is written either way.
 */
async function runInterruptibly (plan, { log, live, err = process.stderr }) {
  let currentRun = null
  let stopBeforeStart
  const beforeStart = new Promise((resolve, reject) => { stopBeforeStart = reject })
  const trap = trapInterrupts(({ count }) => {
    if (!currentRun) {
      err.write(openLineEnd(err))
      stopBeforeStart(new PgloadError('interrupted before the run started', { code: 'INTERRUPTED', exitCode: trap.exitCode }))
    } else if (count === 1) {
      // a shard waiting for the others at the start has no transaction in flight yet
      err.write(openLineEnd(err) + (currentRun.status.startUs === undefined
        ? 'pgload: stopping before the start; writing the (empty) results\n'
        : 'pgload: stopping: finishing transactions in flight (Ctrl-C again to abort at once)\n'))
      currentRun.stop('interrupted')
    } else {
      err.write(`${openLineEnd(err)}pgload: aborting; writing what was measured\n`)
      // marks the run interrupted also when it was already stopping on its own
      currentRun.abort('interrupted')
    }
  })
  let progress = null
  try {
    const running = runBenchmark(plan, {
      log,
      onPhase (phase, info) {
        const line = phaseMessage(phase, info, plan)
        if (line) err.write(line)
      },
      onRun (run, { sampler, types }) {
        currentRun = run
        progress = attachRunMessages(run, { progressS: plan.progressS, progressTimestamp: plan.progressTimestamp, rampUp: Boolean(plan.rampUp), err, log, sampler: plan.progressServer ? sampler : null })
        live?.attach(run, { types, sampler })
      }
    })
    const outcome = await Promise.race([running, beforeStart])
    return { ...outcome, terminated: trap.terminated }
  } finally {
    progress?.close()
    trap.release()
  }
}

/** The exit status of a finished run, as an error after the results are out: 2, 99, 130 or 143. */
function throwForOutcome (results, { exitCode, terminated }, { json = false } = {}) {
  if (exitCode === 2) {
    if (results.run.abortReason === 'connection-lost') process.stderr.write('pgload: error: the server could not be reached again: the run ended early\n')
    if (results.run.abortReason === 'exit-on-abort') process.stderr.write('pgload: error: Run was aborted due to an error in thread 0\n')
    throw new PgloadError('error: Run was aborted; the above results are incomplete.', { code: 'RUN_ABORTED', exitCode: 2 })
  }
  if (results.thresholds?.some((t) => !t.pass)) {
    // the summary's last line says it on stdout; --json's stdout is the document alone, so stderr does
    throw new PgloadError(thresholdTally(results.thresholds), { code: 'THRESHOLD_FAILED', exitCode: THRESHOLD_EXIT_CODE, reported: !json })
  }
  if (results.run.interrupted) {
    throw new PgloadError(`the run was ${terminated ? 'terminated' : 'interrupted'}; the results cover what was measured`, { code: 'INTERRUPTED', exitCode: terminated ? 143 : 130 })
  }
}
