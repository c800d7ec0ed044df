// Each scenario of a scenario file as a run plan of its own (lib/plan/resolve.js): its options
// go through the same argv mapping and checks as `pgload run`'s command line (handed in by the
// command), so every value is range-checked once, the same way, and each error names the scenario
// and the flag.

import { createHash } from 'node:crypto'
import path from 'node:path'
import { PgloadError } from '../errors.js'
import { resolvePlan } from '../plan/resolve.js'
import { parseRandomSeed } from '../random/seeding.js'
import { shardSeed } from '../plan/shard.js'
import { readFile } from 'node:fs/promises'
import { splitWeight } from '../script/builtins.js'
import { loadWorkload } from '../../workloads/index.js'

/**
 * @typedef {object} ScenarioPlan
 * @property {string} name
 * @property {number} startS
 * @property {number} durationS its window within the run
 * @property {number} launchS when it is started, from the start of the run's warm-up
 * @property {Record<string, string>} tags
 * @property {Readonly<import('../plan/resolve.js').RunPlan>} plan
 */

/**
 * @callback ArgvToPlanInput `pgload run`'s argv as a run plan's input (lib/cli/run-argv.js)
 * @param {Record<string, any>} argv as yargs gives it
 * @param {{ command: string }} opts the command on record
 * @returns {Promise<{ input: Record<string, any>, checks: { afterValues?: () => void } }>}
 */

/**
 * The run's seed (the file's, else a random one) and every scenario's plan, all resolved before
 * anything runs.
 * @param {import('./scenario-file.js').ScenarioFile} spec
 * @param {{ url?: string, fromArgv: ArgvToPlanInput, jobs?: number, shard?: import('../plan/shard.js').ShardPlan|null }} opts
 *   url: the command line's server, below the file's and the scenario's; fromArgv: `pgload run`'s
 *   argv as a plan's input, with its checks; jobs: -j, the threads of each scenario without its
 *   own `jobs`; shard: the run's shard, which runs its part of every scenario
 * @returns {Promise<{ seed: string, scenarios: ScenarioPlan[] }>}
 */
export async function scenarioPlans (spec, { url, fromArgv, jobs = 1, shard = null }) {
  // the shards of a run without a seed draw the same one, from the run id, as a plain run's do
  const given = spec.seed ?? (shard ? shardSeed(shard.runId) : 'rand')
  const seed = parseRandomSeed(String(given)).toString()
  const dir = path.dirname(path.resolve(spec.file))
  const scenarios = []
  for (const s of spec.scenarios) {
    const argv = scenarioArgv(s, { spec, dir, seed, url: url ?? spec.url, shard })
    let plan
    try {
      const { input, checks } = await fromArgv(argv, { command: `scenario ${s.name} of ${spec.file}` })
      input.scripts = await Promise.all(input.scripts.map((script) => scriptFromFolder(script, dir)))
      const resolve = (more) => resolvePlan({ ...input, serverStats: false, writeFile: false, label: s.name, ...more }, { checks })
      plan = await resolve({})
      // -j splits each scenario's clients as a plain run's (a scenario with fewer clients gets one
      // thread per client, one of a workload that runs on one thread, CH-benCHmark, one); a
      // scenario's own `jobs` is taken as it is
      const oneThread = Boolean((await loadWorkload(plan.workload)).oneThread)
      const threads = s.options.jobs !== undefined ? plan.jobs : oneThread ? 1 : Math.min(jobs, partClients(plan) ?? jobs)
      if (threads !== plan.jobs) plan = await resolve({ jobs: threads })
      checkParts(plan)
    } catch (err) {
      if (!(err instanceof PgloadError)) throw err
      throw new PgloadError(`${spec.file}: scenario ${s.name}: ${err.message}`, { code: err.code, hint: err.hint })
    }
    if (plan.durationS !== undefined && plan.durationS > s.durationS + 1e-9) {
      throw new PgloadError(`${spec.file}: scenario ${s.name}: its stages last ${plan.durationS} s, past its window of ${s.durationS} s`, { code: 'BAD_SCENARIOS' })
    }
    // the warm-up runs the scenarios that start with the run; later ones join a warm server
    const launchS = s.startS === 0 ? 0 : spec.warmupS + s.startS
    scenarios.push({ name: s.name, startS: s.startS, durationS: s.durationS, launchS, tags: s.tags, plan })
  }
  return { seed, scenarios }
}

/** A scenario's options as yargs would give them for `pgload run`: camelCased, paths from the file's folder. */
function scenarioArgv (s, { spec, dir, seed, url, shard }) {
  const argv = {}
  for (const [key, value] of Object.entries(s.options)) argv[key.replace(/-([a-z])/g, (_, c) => c.toUpperCase())] = value
  argv.workload = listOf(argv.workload)
  if (argv.file !== undefined) argv.file = listOf(argv.file)
  if (argv.builtin !== undefined) argv.builtin = listOf(argv.builtin)
  if (argv.define !== undefined) argv.define = listOf(argv.define)
  const bounded = argv.transactions !== undefined || argv.stages !== undefined || argv.clientsStages !== undefined
  if (!bounded) argv.duration = String(s.durationS)
  if (s.startS === 0 && spec.warmupS > 0) argv.warmup = String(spec.warmupS)
  argv.seed = scenarioSeed(seed, s.name)
  if (url !== undefined && argv.url === undefined) argv.url = url
  if (shard) {
    // every scenario is a part of the run's shard: the run's id, and no barrier of its own
    argv.shard = `${shard.index}/${shard.count}`
    argv.runId = shard.runId
  }
  return argv
}

/**
 * A script scenario cut into more parts than it has clients is refused here, before any scenario
 * runs (the engine would refuse it only once its own run starts).
 */
function checkParts (plan) {
  if (plan.workload !== 'tpcb' || !Number.isInteger(plan.clients)) return
  if (plan.shard && plan.clients < plan.shard.count) throw new PgloadError(`--shards ${plan.shard.count} needs at least ${plan.shard.count} clients, the scenario has ${plan.clients}`, { code: 'BAD_OPTION' })
  const part = partClients(plan)
  if (plan.jobs > part) throw new PgloadError(`jobs ${plan.jobs} needs at least ${plan.jobs} clients${plan.shard ? ' in each shard' : ''}, the scenario has ${part}`, { code: 'BAD_OPTION' })
}

/**
 * The clients of this process's part of a scenario (its shard's share) of a script run; other
 * workloads size their terminals themselves (TPC-C by warehouses) and take -j as it is.
 */
function partClients (plan) {
  if (plan.workload !== 'tpcb' || !Number.isInteger(plan.clients)) return undefined
  const count = plan.shard?.count ?? 1
  return Math.max(1, Math.floor(plan.clients / count))
}

/**
 * A script file of a scenario, read from the scenario file's folder; it keeps its name as the file
 * gives it, which names its transaction type.
 */
async function scriptFromFolder (script, dir) {
  if (script.kind !== 'file') return script
  const { name, weight } = splitWeight(String(script.spec))
  let text
  try {
    text = await readFile(path.resolve(dir, name), 'utf8')
  } catch (err) {
    throw new PgloadError(`could not read script file ${JSON.stringify(name)} (from ${dir}): ${err.code === 'ENOENT' ? 'no such file' : err.message}`, { code: 'BAD_SCRIPT' })
  }
  return { kind: 'file', name, weight, text }
}

function listOf (v) {
  if (v === undefined || v === null) return []
  return (Array.isArray(v) ? v : [v]).map(String)
}

/**
 * A scenario's seed: derived from the run's seed and its name, so that one run seed replays every
 * scenario and two scenarios never draw the same values.
 * @param {string} runSeed an unsigned 64-bit decimal
 * @param {string} name
 * @returns {string} an unsigned 64-bit decimal
 */
export function scenarioSeed (runSeed, name) {
  const digest = createHash('sha256').update(`${runSeed}/${name}`).digest()
  return digest.readBigUInt64BE(0).toString()
}
