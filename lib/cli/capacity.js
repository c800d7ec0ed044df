// `pgload capacity SCRIPT|tpcb --until 'p(99) < 20ms' --clients 64 --step 30s`: the highest
// arrival rate the server sustains within the limit, found in one run on one set of connections.

import { hideBin } from 'yargs/helpers'
import { PgloadError } from '../errors.js'
import { resolvePlan } from '../plan/resolve.js'
import { workloadNames, workloadRunOptions } from '../../workloads/index.js'
import { progressOutput } from '../output/run-outputs.js'
import { storeOutput } from '../store/store-output.js'
import { reportOutput } from '../report/report-output.js'
import { RunSession } from '../session/run-session.js'
import { interruptedError } from '../session/interrupts.js'
import { createLogger } from '../log.js'
import { RUN_OPTIONS } from './run-options.js'
import { RUN_OPTION_TABLE, capacityOptionNames, yargsOption } from '../options/run-option-table.js'
import { planInputFromArgv, refuseOptions, connectionUrl } from './run-argv.js'
import { defaultResultsPath } from '../results/write.js'
import { capacitySettingsFromArgv, CAPACITY_DEFAULTS, CAPACITY_REFUSED } from '../capacity/options.js'
import { capacityPlanInput, runCapacity } from '../capacity/capacity-run.js'
import { formatStepHeader, formatStepRow } from '../capacity/format.js'

const workloadOptions = await workloadRunOptions()

// the run options capacity takes as they are, and those it refuses (its own replace --rate,
// --duration, --threshold, ...): from the option table
const { taken, refused: REFUSED } = capacityOptionNames()
const TAKEN = Object.fromEntries(taken.map((name) => [name, RUN_OPTIONS[name]]))
// capacity's arrivals wait for terminals from the first step: --max-queue applies without --stages
const MAX_QUEUE = yargsOption({ ...RUN_OPTION_TABLE['max-queue'], describe: 'arrivals that may wait for a free terminal; more are dropped and counted' })

const pct = (f) => `${f * 100}`

export const command = 'capacity [workload..]'
export const describe = 'Find the highest arrival rate the server sustains within a limit (--until), stepping the rate in one run'

/** @param {import('yargs').Argv} y */
export function builder (y) {
  const d = CAPACITY_DEFAULTS
  y.positional('workload', { describe: `${workloadNames.join(', ')}, or script files (name.sql[@weight])`, type: 'string', array: true })
  y.option('until', { type: 'string', array: true, describe: "the limit each step must keep, threshold syntax (repeatable), e.g. 'p(99) < 20ms'" })
  y.option('step', { type: 'string', describe: `how long each step is measured [default: ${d.stepS}s]` })
  y.option('settle', { type: 'string', describe: `after each rate change, how long before the step is measured [default: ${d.settleS}s, at most --step]` })
  y.option('start-rate', { type: 'string', describe: `arrivals per second of the first step [default: ${d.startRate}]` })
  y.option('growth', { type: 'string', describe: `factor between steps until one fails [default: ${d.growth}]` })
  y.option('precision', { type: 'string', describe: `percent: stop bisecting when the rate that failed is within this of the rate that held [default: ${pct(d.precision)}]` })
  y.option('behind', { type: 'string', describe: `percent: a step fails when it completes fewer transactions than the arrivals that came in its measured part by more than this [default: ${pct(d.behindMargin)}]` })
  y.option('max-rate', { type: 'string', describe: 'no step above this rate [default: none]' })
  y.option('max-steps', { type: 'string', describe: `no more steps than this [default: ${d.maxSteps}]` })
  for (const [name, def] of Object.entries(TAKEN)) y.option(name, name === 'max-queue' ? MAX_QUEUE : def)
  // refused with a reason (capacityFromArgv), under their run names and aliases
  for (const name of REFUSED) y.option(name, { ...RUN_OPTIONS[name], type: 'string', hidden: true })
  for (const [name, def] of Object.entries(workloadOptions)) y.option(name, def)
  return y
    .example("$0 capacity my.sql --until 'p(99) < 20ms' --clients 64 --step 30s", 'the arrival rate my.sql sustains with p(99) under 20 ms')
}

/**
 * The capacity settings and the run plan from argv, every value checked before anything connects.
 * @param {any} argv
 */
export async function capacityFromArgv (argv) {
  for (const name of REFUSED) {
    const key = name.replace(/-(\w)/g, (_, c) => c.toUpperCase())
    if (argv[key] !== undefined) throw new PgloadError(`capacity does not take --${name}: ${CAPACITY_REFUSED[key]}`, { code: 'BAD_OPTION' })
  }
  const cap = capacitySettingsFromArgv(argv)
  const input = await planInputFromArgv(argv, { rawArgs: hideBin(process.argv) })
  const checks = { afterValues: () => refuseOptions(argv), afterOptions: () => connectionUrl(argv) }
  const plan = await resolvePlan(capacityPlanInput(input, cap), { checks })
  return { cap, plan }
}

/** @param {any} argv */
export async function handler (argv) {
  const log = createLogger(argv)
  const out = process.stdout
  const err = process.stderr
  const session = new RunSession({ log, messages: { stopping: 'pgload: stopping the search; writing what was measured' } })
  try {
    const { cap, plan } = await capacityFromArgv(argv)
    const file = plan.out ?? defaultResultsPath(`capacity-${plan.resultName ?? plan.workload}`)
    session.use(progressOutput(plan, { err, log }))
    let headed = false
    const { answer, results } = await runCapacity(plan, cap, {
      file,
      session,
      onStep (step) {
        if (!headed) { out.write(formatStepHeader(cap) + '\n'); headed = true }
        out.write(formatStepRow(step) + '\n')
      }
    })
    out.write(answer.line + '\n')
    err.write(`pgload: results written to ${file}\n`)
    // the search's document is complete only now (its capacity section): the file outputs follow it
    const done = { file, exitCode: results.run.aborted ? 2 : 0 }
    if (argv.report) await reportOutput({ err }).end(results, done)
    if (plan.store) await storeOutput(plan, { err, log }).end(results, done)
    if (results.run.aborted) throw new PgloadError('the run was aborted; the steps cover what was measured', { code: 'RUN_ABORTED', exitCode: 2 })
    if (results.run.interrupted) throw interruptedError('the search was interrupted; the answer covers the steps measured', session)
  } finally {
    await session.close()
  }
}

export default { command, describe, builder, handler }
