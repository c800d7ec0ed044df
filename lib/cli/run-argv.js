// `pgload run`'s argv as the input of a run plan (lib/plan/resolve.js): the positional workload
// or script files, scripts in command-line order, pgbench's -h/-p/-U/-d, refused options, and
// the flags renamed to the plan's names. The plan checks every value.

import { planKeys } from '../options/run-option-table.js'
import { PgloadError } from '../errors.js'
import { parseInteger } from '../options/parse.js'
import { shownValue } from '../options/shown.js'
import { rangeOf } from '../options/ranges.js'
import { workloads, workloadNames, loadWorkload } from '../../workloads/index.js'
import { INIT_ONLY, UNSUPPORTED } from './run-options.js'
import { recordedCommand } from './interrupts.js'

/** argv name -> plan name, for the options whose names differ (the rest keep theirs). */
// argv key -> plan key, from the option table
const PLAN_KEYS = planKeys()

/**
 * The plan input of `pgload run ARGS`.
 * @param {Record<string, any>} argv as yargs parsed it
 * @param {{ rawArgs?: string[], command?: string, env?: Record<string, string|undefined> }} [opts] rawArgs: the arguments
 *   after the program name, for the order of the scripts and the command line on record (unless
 *   `command` is given); env: where JOB_COMPLETION_INDEX is read
 * @returns {Promise<Record<string, any>>}
 */
export async function planInputFromArgv (argv, { rawArgs, command, env = process.env } = {}) {
  const { workload, files } = positionalWorkload((argv.workload ?? []).map(String))
  const specs = [...scriptSpecs(argv, rawArgs), ...files.map((spec) => ({ kind: 'file', spec }))]
  if (workload !== 'tpcb' && specs.length) throw new PgloadError(`--file and --builtin go with tpcb or script files, not with ${workload}`, { code: 'BAD_OPTION' })
  const input = { workload, scripts: specs }
  for (const [from, to] of PLAN_KEYS) input[to] = argv[from]
  input.seed = unsignedSeed(argv.seed)
  input.url = connectionUrl(argv, { check: false }) // checked in pgbench's order: runPlanFromArgv
  input.command = command ?? (rawArgs ? recordedCommand(rawArgs) : undefined)
  // the shard a Kubernetes Indexed Job's pod runs, when --shards is given without --shard
  input.shardIndex = env.JOB_COMPLETION_INDEX
  input.workloadOptions = {
    ...await moduleOptions(workload, argv),
    define: argv.define,
    scale: argv.scale,
    noVacuum: argv.vacuum === false || Boolean(argv.n),
    vacuumAccounts: Boolean(argv.vacuumAll),
    reportPerCommand: Boolean(argv.reportPerCommand),
    log: Boolean(argv.log),
    aggregateIntervalS: argv.aggregateInterval,
    logPrefix: argv.logPrefix,
    samplingRate: argv.samplingRate
  }
  return input
}

/** The workload named on the command line (default tpcb), and script files given as positionals. */
function positionalWorkload (positional) {
  const files = []
  let workload = 'tpcb'
  for (const p of positional) {
    if (Object.hasOwn(workloads, p)) {
      if (positional.length > 1 && p !== 'tpcb') throw new PgloadError(`workload ${p} cannot be combined with other workloads or scripts`, { code: 'BAD_OPTION' })
      workload = p
    } else if (/\.(sql|pgbench)(@[^@]*)?$/i.test(p) || p.includes('/') || p.includes('@')) {
      files.push(p)
    } else {
      throw new PgloadError(`unknown workload ${JSON.stringify(p)}: valid workloads are ${workloadNames.join(', ')}, or script files ending in .sql`, { code: 'BAD_OPTION' })
    }
  }
  return { workload, files }
}

/**
 * --seed as typed: `time`, `rand` or an unsigned integer (as --help says). pgbench's sscanf would
 * wrap `-1` to 2^64-1 without a word; a typed minus sign is refused here. The plan keeps seeds as
 * signed 64-bit decimals, so the check belongs to the command line, not to the plan; the seed is
 * shown and recorded unsigned, as typed.
 * @param {unknown} seed
 */
function unsignedSeed (seed) {
  if (seed !== undefined && /^\s*-/.test(String(seed))) {
    throw new PgloadError(`--seed must be time, rand or an unsigned integer, got ${shownValue(seed)}`, { code: 'BAD_OPTION' })
  }
  // pgbench's strtoull would saturate a longer number to 2^64-1 and run with a seed nobody typed
  const digits = /^\s*\+?([0-9]+)\s*$/.exec(String(seed ?? ''))?.[1]
  if (digits !== undefined && BigInt(digits) > MAX_SEED) {
    throw new PgloadError(`--seed must be at most ${MAX_SEED} (an unsigned 64-bit integer), got ${shownValue(seed)}`, { code: 'BAD_OPTION' })
  }
  return seed
}

const MAX_SEED = (1n << 64n) - 1n

/** The workload module's own run options (its `runOptions`), camelCased as yargs gives them. */
async function moduleOptions (workload, argv) {
  const out = {}
  for (const key of Object.keys((await loadWorkload(workload))?.runOptions ?? {})) {
    const camel = key.replace(/-([a-z])/g, (_, c) => c.toUpperCase())
    if (argv[camel] !== undefined) out[camel] = argv[camel]
  }
  return out
}

const SHORT_WITH_VALUE = new Set('bcdfhjopstwDIFMPRLTU')

/**
 * The scripts of -b, -f, -S and -N in command-line order, as pgbench keeps them (the order
 * numbers the scripts and decides which one a random draw picks). yargs groups each flag's
 * values; rawArgs, when given, restores their order.
 * @param {Record<string, any>} argv
 * @param {string[]} [rawArgs] the arguments after the program name
 * @returns {{ kind: 'builtin'|'file', spec: string }[]}
 */
export function scriptSpecs (argv, rawArgs) {
  const queues = {
    b: (argv.builtin ?? []).map((spec) => ({ kind: 'builtin', spec })),
    S: Array.from({ length: Number(argv.selectOnly ?? 0) }, () => ({ kind: 'builtin', spec: 'select-only' })),
    N: Array.from({ length: Number(argv.skipSomeUpdates ?? 0) }, () => ({ kind: 'builtin', spec: 'simple-update' })),
    f: (argv.file ?? []).map((spec) => ({ kind: 'file', spec }))
  }
  const grouped = [...queues.b, ...queues.S, ...queues.N, ...queues.f]
  const order = rawArgs ? scriptFlagOrder(rawArgs) : null
  if (!order || order.length !== grouped.length) return grouped
  const out = []
  for (const k of order) {
    const next = queues[k].shift()
    if (!next) return grouped // not what yargs saw: keep yargs' grouping
    out.push(next)
  }
  return out
}

/** Which of b, f, S, N each script-adding argument is, in order. */
function scriptFlagOrder (rawArgs) {
  const LONG = { '--builtin': 'b', '--file': 'f', '--select-only': 'S', '--skip-some-updates': 'N' }
  const order = []
  for (let i = 0; i < rawArgs.length; i++) {
    const a = rawArgs[i]
    if (a === '--') break
    if (a.startsWith('--')) {
      const name = a.split('=')[0]
      if (LONG[name]) order.push(LONG[name])
      if ((name === '--builtin' || name === '--file') && !a.includes('=')) i++
      continue
    }
    if (!/^-[A-Za-z]/.test(a)) continue
    for (let j = 1; j < a.length; j++) {
      const c = a[j]
      if ('bfSN'.includes(c)) order.push(c)
      if (SHORT_WITH_VALUE.has(c)) {
        if (j === a.length - 1) i++ // the value is the next argument
        break
      }
    }
  }
  return order
}

/**
 * --url, or pgbench's -h/-p/-U/-d as a key=value connection string (PG* variables fill the rest).
 * @param {Record<string, any>} argv
 * @param {{ check?: boolean }} [opts] check: false leaves the conflicts and the port to a later call
 * @returns {string|undefined}
 */
export function connectionUrl (argv, { check = true } = {}) {
  const parts = Object.entries({ host: argv.host, port: argv.port, user: argv.username, dbname: argv.dbname }).filter(([, v]) => v !== undefined)
  if (parts.length === 0 || (!check && argv.url !== undefined)) return argv.url
  if (argv.url !== undefined) throw new PgloadError(`give either --url or -h/-p/-U/-d, not both (got --url and --${parts[0][0] === 'user' ? 'username' : parts[0][0]})`, { code: 'BAD_OPTION' })
  if (argv.port !== undefined && check) parseInteger(argv.port, '--port', rangeOf('--port'))
  return parts.map(([k, v]) => `${k}='${String(v).replace(/[\\']/g, (c) => '\\' + c)}'`).join(' ')
}

// pgbench's init-only options that `pgload init tpcb` takes as well
const INIT_TAKES = new Set(['fillfactor', 'foreign-keys', 'unlogged-tables'])

function initHint (name) {
  if (name === 'initialize') return 'pgbench -i is pgload init tpcb'
  if (INIT_TAKES.has(name)) return 'give it to pgload init tpcb'
  return 'pgload init tpcb does not take it either: it loads pgbench\'s default layout'
}

/**
 * pgbench's init-only options ("cannot be used in benchmarking mode") and what pgload does not
 * have; pgbench checks them after the values (resolvePlan's afterValues).
 * @param {Record<string, any>} argv
 */
export function refuseOptions (argv) {
  // pgbench checks the value of -F while parsing, before the mode
  if (argv.fillfactor !== undefined) parseInteger(argv.fillfactor, '--fillfactor', rangeOf('--fillfactor'))
  for (const name of Object.keys(INIT_ONLY)) {
    const camel = name.replace(/-([a-z])/g, (_, c) => c.toUpperCase())
    if (argv[camel] === undefined) continue
    const flag = INIT_ONLY[name].alias ? `-${INIT_ONLY[name].alias}/--${name}` : `--${name}`
    throw new PgloadError(`${flag} is an initialization option: it cannot be used in benchmarking mode`, { code: 'BAD_OPTION', hint: initHint(name) })
  }
  for (const [name, { reason }] of Object.entries(UNSUPPORTED)) if (argv[name] !== undefined) throw new PgloadError(reason, { code: 'BAD_OPTION' })
}
