// `pgload run`: argv -> run plan (lib/plan) -> runBenchmark -> progress, summary and exit status.

import { hideBin } from 'yargs/helpers'
import { PgloadError } from '../errors.js'
import { resolvePlan } from '../plan/resolve.js'
import { workloadNames, workloadRunOptions } from '../../workloads/index.js'
import { progressOutput, summaryOutput } from '../output/run-outputs.js'
import { storeOutput } from '../store/store-output.js'
import { reportOutput } from '../report/report-output.js'
import { liveOutput } from '../live/live-output.js'
import { poolerOutput } from '../server/pooler/pooler-output.js'
import { RunSession } from '../session/run-session.js'
import { throwForOutcome } from '../session/exit-status.js'
import { createLogger } from '../log.js'
import { RUN_OPTIONS, REFUSED_OPTIONS } from './run-options.js'
import { planInputFromArgv, refuseOptions, connectionUrl } from './run-argv.js'
import { startLive } from '../live/index.js'
import { dashboardKeepS, keepNote, keepServing } from './dashboard-keep.js'
import { runScenarios } from './run-scenarios.js'

export { planInputFromArgv, scriptSpecs, connectionUrl } from './run-argv.js'

export { THRESHOLD_EXIT_CODE } from '../session/exit-status.js'

const workloadOptions = await workloadRunOptions()

/** @type {import('yargs').CommandModule} */
export const runCommand = {
  command: 'run [workload..]',
  describe: `Run a benchmark: a built-in workload (${workloadNames.join(', ')}) or pgbench script files (file.sql[@weight])`,
  builder (y) {
    y.positional('workload', { describe: `${workloadNames.join(', ')}, or script files (name.sql[@weight])`, type: 'string', array: true })
    for (const [name, def] of Object.entries(RUN_OPTIONS)) y.option(name, def)
    // pgbench options pgload refuses with a clear message instead of "Unknown argument".
    for (const [name, def] of Object.entries(REFUSED_OPTIONS)) y.option(name, { ...def, hidden: true })
    for (const [name, def] of Object.entries(workloadOptions)) y.option(name, def)
    return y
  },
  async handler (argv) {
    if (argv.builtin?.includes('list') || argv.showScript !== undefined) return showBuiltins(argv.showScript)
    const log = createLogger(argv)
    if (argv.scenarios !== undefined) return runScenarios(argv, { log, rawArgs: hideBin(process.argv) })
    if (argv.json && argv.dashboard !== undefined) throw new PgloadError('--dashboard does not go with --json: --json prints the results document alone; open the dashboard\'s report (--dashboard-out) or pgload report instead', { code: 'BAD_OPTION' })
    const keepS = dashboardKeepS(argv)
    // the one interrupt policy from here on: a signal while the plan resolves or the server is reached ends with 130/143
    const session = new RunSession({ log })
    try {
      const plan = await runPlanFromArgv(argv, { rawArgs: hideBin(process.argv) })
      // the dashboard and the metrics endpoint are bound before anything runs: a busy port stops here
      const live = await startLive(plan, { err: process.stderr, atEnd: keepS === null ? undefined : keepNote(keepS) })
      for (const output of runOutputs(plan, { argv, log, live, keepS })) session.use(output)
      const outcome = await session.run(plan)
      throwForOutcome(outcome.results, outcome, { json: argv.json })
    } finally {
      await session.close()
    }
  }
}

/**
 * The outputs of `pgload run`, in the order they are told the end: the dashboard's final report,
 * the summary and the results file's place, --report, --store.
 */
function runOutputs (plan, { argv, log, live, keepS }) {
  const err = process.stderr
  // its section goes into the document in finish(), before the thresholds and the results file
  const outputs = [poolerOutput({ err, log, plan }), progressOutput(plan, { err, log })]
  // every file is written before the --dashboard-keep wait: a kill during it loses nothing
  if (live) outputs.push(liveOutput(live, { err, beforeClose: () => live.urls.dashboard ? keepServing(keepS, { url: live.urls.dashboard }) : Promise.resolve() }))
  outputs.push(summaryOutput({ json: argv.json, out: process.stdout, err }))
  if (argv.report) outputs.push(reportOutput({ err }))
  if (plan.store) outputs.push(storeOutput(plan, { err, log }))
  return outputs
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
