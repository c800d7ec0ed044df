// `pgload run --scenarios FILE`: the file read and every scenario resolved into a run plan, the
// thresholds checked against the scenarios' names, all before anything runs; then the scenarios
// run as one session whose document holds each scenario and the totals.

import { PgloadError } from '../errors.js'
import { RUN_OPTION_TABLE } from '../options/run-option-table.js'
import { parseOutputPath, parseInteger } from '../options/parse.js'
import { rangeOf } from '../options/ranges.js'
import { resolveShard } from '../plan/shard.js'
import { resultsStore } from '../plan/resolve.js'
import { shardPhaseMessage } from '../orchestration/shard-run.js'
import { workloadRunOptions } from '../../workloads/index.js'
import { readScenarioFile, SCENARIO_RUN_KEYS } from '../scenarios/scenario-file.js'
import { scenarioPlans } from '../scenarios/scenario-plans.js'
import { measureScenarios, scenarioRunPlan } from '../scenarios/scenario-run.js'
import { runThresholds } from '../plan/checks.js'
import { summaryOutput } from '../output/run-outputs.js'
import { reportOutput } from '../report/report-output.js'
import { storeOutput } from '../store/store-output.js'
import { RunSession } from '../session/run-session.js'
import { throwForOutcome } from '../session/exit-status.js'
import { recordedCommand } from './interrupts.js'
import { dashboardKeepS, keepNote, keepServing } from './dashboard-keep.js'
import { liveOptions } from '../plan/live-options.js'
import { startLive } from '../live/index.js'
import { liveOutput } from '../live/live-output.js'
import { planInputFromArgv, refuseOptions } from './run-argv.js'

/** What goes with --scenarios on the command line: outputs, and the server the scenarios default to. */
const WITH_SCENARIOS = new Set(['scenarios', 'out', 'json', 'report', 'threshold', 'label', 'url',
  'dashboard', 'dashboard-out', 'dashboard-keep', 'metrics', 'metrics-push', 'metrics-push-header',
  'jobs', 'shard', 'shards', 'run-id', 'shard-timeout', 'server-stats', 'server-host-stats', 'store', 'results-url'])

/** Run options a scenario file holds at its top level. */
const IN_FILE_TOP = new Set(['duration', 'warmup', 'seed'])

const bad = (message, hint) => new PgloadError(message, { code: 'BAD_OPTION', hint })
const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase())

/**
 * @param {Record<string, any>} argv as yargs parsed it
 * @param {{ log: any, rawArgs: string[] }} ctx
 */
export async function runScenarios (argv, { log, rawArgs }) {
  const workloadKeys = await workloadRunOptionNames()
  refuseLoadOptions(argv, workloadKeys)
  if (argv.scenarios === '' || typeof argv.scenarios !== 'string') throw bad('--scenarios needs a file: pgload run --scenarios scenarios.yaml')
  const spec = await readScenarioFile(argv.scenarios, { workloadKeys })
  const jobs = argv.jobs === undefined ? 1 : parseInteger(argv.jobs, '--jobs', rangeOf('--jobs'))
  const shard = scenarioShard(argv, spec)
  const store = resultsStore((k) => argv[k])
  if (shard && store.store) throw bad('--store goes with whole runs: merge the shards\' files (pgload merge) and store the merged one (pgload store merged.json)')
  const { seed, scenarios } = await scenarioPlans(spec, { url: argv.url, fromArgv: scenarioInput, jobs, shard })
  const thresholds = await runThresholds(argv.threshold)
  const { parseThreshold } = await import('../compare/thresholds/evaluate.js')
  for (const t of thresholds) {
    const name = parseThreshold(t).scenario
    if (name !== null && !scenarios.some((s) => s.name === name)) {
      throw bad(`--threshold '${t}': ${spec.file} has no scenario ${name}: its scenarios are ${scenarios.map((s) => s.name).join(', ')}`)
    }
  }
  const plan = scenarioRunPlan({
    file: spec.file,
    durationS: spec.durationS,
    warmupS: spec.warmupS,
    seed,
    scenarios,
    thresholds,
    url: argv.url ?? spec.url,
    jobs,
    shard,
    serverStats: argv.serverStats !== false,
    serverHostStats: argv.serverHostStats,
    out: argv.out === undefined ? undefined : parseOutputPath(argv.out, '--out'),
    writeFile: true,
    command: recordedCommand(rawArgs),
    label: argv.label
  })
  const err = process.stderr
  const session = new RunSession({ log, runBenchmark: measureScenarios })
  try {
    // the dashboard and the metrics endpoint are bound before anything runs: a busy port stops here
    const live = await scenarioLive(argv, plan, { err })
    if (live) session.use(live)
    session.use(summaryOutput({ json: argv.json, out: process.stdout, err }))
    // a shard's wait for the others, and its start
    session.use({ name: 'shard', phase (phase, info) { const line = shardPhaseMessage(phase, info); if (line) err.write(line) } })
    if (argv.report) session.use(reportOutput({ err }))
    if (store.store) session.use(storeOutput(store, { err, log }))
    err.write(`pgload: running ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'} from ${spec.file} for ${spec.durationS} s${spec.warmupS ? ` after a ${spec.warmupS} s warm-up` : ''}\n`)
    const outcome = await session.run(plan)
    throwForOutcome(outcome.results, outcome, { json: argv.json })
  } finally {
    await session.close()
  }
}

/**
/**
 * The run's shard (--shard K/N, or --shards N with JOB_COMPLETION_INDEX), null unsharded; the run
 * id, unless given, from what the file runs, so that every shard of one command derives the same.
 */
function scenarioShard (argv, spec) {
  const { file, ...runs } = spec
  const given = { shard: argv.shard, shards: argv.shards, shardIndex: process.env.JOB_COMPLETION_INDEX, runId: argv.runId, shardTimeout: argv.shardTimeout }
  return resolveShard(given, { scenarios: runs, seedGiven: spec.seed !== undefined, seed: spec.seed })
}

/**
 * --dashboard, --metrics and --metrics-push of a scenario run, checked as `pgload run` checks
 * them: the live view's output, or null without them.
 */
async function scenarioLive (argv, plan, { err }) {
  if (argv.json && argv.dashboard !== undefined) throw bad('--dashboard does not go with --json: --json prints the results document alone; open the dashboard\'s report (--dashboard-out) or pgload report instead')
  const keepS = dashboardKeepS(argv)
  const options = liveOptions((k) => k === 'metricsPushHeaders' ? argv.metricsPushHeader : argv[k])
  const live = await startLive({ ...options, workload: 'scenarios', label: plan.label, intervalS: plan.intervalS, scenarios: plan.scenarios.map((s) => s.name) }, { err, atEnd: keepS === null ? undefined : keepNote(keepS) })
  if (!live) return null
  return liveOutput(live, { err, beforeClose: () => live.urls.dashboard ? keepServing(keepS, { url: live.urls.dashboard }) : Promise.resolve() })
}

/** A scenario's options, as `pgload run`'s argv, into a plan's input with the command line's checks. */
async function scenarioInput (argv, { command }) {
  return { input: await planInputFromArgv(argv, { command }), checks: { afterValues: () => refuseOptions(argv) } }
}

/** The workloads' own run options (warehouses, wait...): a scenario may give them. */
async function workloadRunOptionNames () {
  return Object.keys(await workloadRunOptions())
}

/** Load options belong in the file: one line naming the first one given on the command line. */
function refuseLoadOptions (argv, workloadKeys) {
  if ((argv.workload ?? []).length) throw bad(`--scenarios takes the workloads from the file, not from the command line (got ${argv.workload.join(' ')})`, 'give each scenario its workload: key in the file')
  const names = [...Object.keys(RUN_OPTION_TABLE), ...workloadKeys].filter((n) => !WITH_SCENARIOS.has(n))
  const given = names.find((n) => argv[camel(n)] !== undefined && !(RUN_OPTION_TABLE[n]?.type === 'count' && !argv[camel(n)]))
  if (given === undefined) return
  const inFile = SCENARIO_RUN_KEYS.has(given) || workloadKeys.includes(given) ? 'give it to each scenario in the file' : IN_FILE_TOP.has(given) ? 'give it at the top of the file' : 'it is not supported in a scenario run yet'
  throw bad(`--${given} does not go with --scenarios: ${inFile}; only --out, --json, --report, --threshold, --label, --url, -j, --shard(s), --server-stats, --store and the live outputs (--dashboard, --metrics, --metrics-push) go with it`)
}
