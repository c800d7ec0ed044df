// scriptWorkload(): compiled pgbench scripts as one Workload (docs/architecture.md): one
// transaction type per script, pgbench's weighted choice, variables, per-command statistics.

import { PgloadError } from '../errors.js'
import { deriveSeeds, seedAsInt64 } from '../random/seeding.js'
import { chooseWeighted } from '../random/weighted-choice.js'
import { ScriptCursor, runScript, startScript } from './interpreter.js'
import { runShell } from './shell.js'
import { K, linkScript } from './link.js'
import { PgbenchLogWriter } from './pgbench-log.js'
import { VarRegistry, VarStore } from './variables.js'
import { normInt } from './values.js'
import { checkScriptSet, checkVariableName } from './options.js'
import { CommitLog, HISTORY_VARIABLES } from './commit-log.js'
import { mergeScript } from '../results/merge-script.js'
import { scriptReplay } from './replay-parameters.js'

/** The variables pgbench sets before a terminal's first transaction. */
const START_VARIABLES = ['client_id', 'scale', 'random_seed', 'default_seed']

/** Workload options and their defaults. */
export const SCRIPT_DEFAULTS = Object.freeze({
  scale: 1, // :scale for custom scripts (-s); built-in scripts read it from pgbench_branches
  clients: 1, // number of terminals: needed to derive pgbench's per-client generators
  randomSeed: undefined, // bigint; undefined = time-based, as pgbench
  reportPerCommand: false, // -r: per-command latencies
  noVacuum: false, // -n: skip pgbench's vacuum of branches/tellers and truncate of history
  vacuumAccounts: false // -v: also vacuum analyze pgbench_accounts before the run
})

/** One terminal's script state (ctx.state): variables and the evaluation registers. */
export class ScriptTerminal {
  constructor (registry, clientId, sqlCount, paramCounts, debugWrite) {
    this.clientId = clientId
    this.vars = new VarStore(registry)
    // evaluation state read by the compiled expressions
    this.t = 0
    this.random = null
    this.scriptIndex = 0
    this.commandIndex = 0
    this.debugWrite = debugWrite
    this.conv = { v: null }
    // one reusable bind-values array per SQL command
    this.sqlValues = new Array(sqlCount)
    for (let i = 0; i < sqlCount; i++) this.sqlValues[i] = new Array(paramCounts[i]).fill(null)
    this.pipe = null
    /** (scriptIndex, commandIndex) pairs of retryable errors in the current transaction */
    this.errCmds = []
    this.txnCount = 0
    // executions of a script begun, and the last in which each SQL command ran
    this.runNo = 0
    this.ranSql = new Int32Array(sqlCount)
    this.cursor = new ScriptCursor(this)
  }
}

/**
 * Build the Workload of a set of compiled scripts.
 * @param {import('./compile.js').CompiledScript[]} compiled
 * @param {object} [options] see SCRIPT_DEFAULTS; also `variables` (-D, object or [name, value] pairs),
 *   `scaleGiven`, `seeds` (from deriveSeeds), `debugWrite`, `runShell`, `log`, `usesBuiltin`,
 *   `pgbenchLog` (PgbenchLogWriter options: --log, --aggregate-interval...) or `logWriter`,
 *   `recordCommits` (the names of the scripts each of whose commits inserts a pgbench_history
 *   row: their values are kept in commit order, acknowledgedCommits())
 */
export function scriptWorkload (compiled, options = {}) {
  checkScriptSet(compiled)
  const totalWeight = compiled.reduce((s, c) => s + c.weight, 0)
  const opts = { ...SCRIPT_DEFAULTS }
  for (const [k, v] of Object.entries(options)) if (v !== undefined) opts[k] = v
  const protocol = compiled[0].protocol
  const defines = definedVariables(opts.variables)
  const registry = new VarRegistry()
  for (const name of [...START_VARIABLES, ...defines.keys()]) registry.slotOf(name)
  const { linked, counter, paramCounts } = linkScripts(compiled, registry)

  const randomSeed = opts.randomSeed ?? (process.hrtime.bigint() / 1000n)
  const seeds = opts.seeds ?? deriveSeeds(randomSeed, opts.clients, { drawDefaultSeed: !defines.has('default_seed') })
  const env = { reportPerCommand: !!opts.reportPerCommand, runShell: opts.runShell ?? runShell }
  const debugWrite = opts.debugWrite ?? ((line) => process.stderr.write(line))
  const slot = (name) => registry.find(name)
  const states = []
  let scale = opts.scale
  const typeIndex = new Map()
  const transactions = linked.map((s, i) => {
    const name = uniqueName(s.name, typeIndex)
    typeIndex.set(name, i)
    return { name, weight: s.weight, start: (ctx, done) => startScript(s, ctx, env, done), run: (ctx) => runScript(s, ctx, env) }
  })
  const chooser = seeds.choose
  const weights = linked.map((s) => s.weight)
  const logWriter = opts.logWriter ?? (opts.pgbenchLog ? new PgbenchLogWriter({ sample: seeds.sample, ...opts.pgbenchLog }) : null)
  const { logged, commits } = commitLogOf(linked, opts.recordCommits, slot)

  const setAutomatic = (st) => { if (!defines.has('scale')) st.vars.setInt(slot('scale'), scale) }

  return {
    name: 'script',
    protocol,
    seeds,
    randomSeed,
    transactions,
    statements: compiled.flatMap(c => c.statements),
    statementNames: statementNames(linked),
    acknowledgedCommits: () => commits, // recordCommits: each acknowledged commit's values, in commit order

    /** pgbench's chooseScript(): one draw from the shared generator unless there is one script. */
    choose (tctx) {
      if (weights.length === 1) return 0
      // a terminal with its own choose generator (worker threads) draws from it
      return chooseWeighted(weights, totalWeight, tctx?.chooseRandom ?? chooser)
    },

    createTerminalState (terminalId) {
      const st = new ScriptTerminal(registry, terminalId, counter.nextSqlId, paramCounts, debugWrite)
      setStartVariables(st, { defines, slot, terminalId, randomSeed, defaultSeed: seeds.defaultSeed })
      setAutomatic(st)
      states.push(st)
      return st
    },

    /** Before the run: scale from pgbench_branches for built-in scripts, and pgbench's vacuum. */
    async prepare (db) {
      if (opts.usesBuiltin) {
        scale = await countBranches(db)
        if (opts.scaleGiven) opts.log?.warn?.(`scale option ignored, using count from pgbench_branches table (${scale})`)
        for (const st of states) setAutomatic(st)
      }
      if (!opts.noVacuum) await housekeeping(db, opts)
    },

    /** Per transaction: attribute failures and retries to commands, feed the pgbench log. */
    onTransactionEnd (ctx, info) {
      const st = ctx.state
      st.txnCount++
      const errs = st.errCmds
      if (errs.length > 0) {
        const failedLast = info.status === 'failed'
        for (let k = 0; k < errs.length; k += 2) {
          const stats = linked[errs[k]].stats
          if (failedLast && k === errs.length - 2) stats.failures[errs[k + 1]]++
          else stats.retries[errs[k + 1]]++
        }
        errs.length = 0
      }
      if (logWriter !== null) logWriter.transaction(st.clientId, st.txnCount, typeIndex.get(info.type) ?? 0, info)
      if (commits !== null && info.status === 'ok' && logged[typeIndex.get(info.type)]) commits.add(st.vars)
    },

    // variables every transaction starts with may be used by a replayed statement
    ...scriptReplay(linked, { simple: protocol === 'simple', givenSlots: new Set([...START_VARIABLES, ...defines.keys()].map(slot)) }),

    /** Per-command statistics: this copy's own, or the worker threads' merged (they ran them all). */
    async afterRun (db, runInfo) {
      logWriter?.close?.()
      return { script: threadsStatistics(runInfo) ?? commandStatistics(transactions, linked, typeIndex) }
    },
    /** A worker thread's own per-command statistics. */
    partSections () { return this.afterRun() }
  }
}

/**
 * Per type, the name of each statement index the interpreter reports (its SQL commands: the
 * command's number), for the wait sampler's figures by statement.
 * @param {any[]} linked
 * @returns {(string|null)[][]}
 */
function statementNames (linked) {
  return linked.map((s) => s.commands.map((c) => c.kind === K.SQL ? c.text : null))
}

/**
 * With worker threads, the per-command statistics of each (their `partSections`), merged.
 * @param {{ partSections?: { script?: any }[] }} [runInfo] the run's outcome
 */
function threadsStatistics (runInfo) {
  const parts = (runInfo?.partSections ?? []).filter((s) => s?.script !== undefined)
  return parts.length > 0 ? mergeScript(parts.map((s) => s.script)) : null
}

/**
 * Link every script against one variable registry; statement ids are numbered across scripts.
 * @param {import('./compile.js').CompiledScript[]} compiled
 * @param {VarRegistry} registry
 */
function linkScripts (compiled, registry) {
  const counter = { nextSqlId: 0 }
  const linked = compiled.map((c, i) => linkScript(c, i, registry, counter))
  /** parameter count per statement id */
  const paramCounts = []
  for (const s of linked) for (const c of s.commands) if (c.sqlId >= 0) paramCounts[c.sqlId] = c.paramSlots.length
  return { linked, counter, paramCounts }
}

/**
 * The -D variables as a Map, each name checked.
 * @param {Map<string, string> | [string, string][] | Record<string, string> | undefined} variables
 * @returns {Map<string, string>}
 */
function definedVariables (variables) {
  const defines = new Map(variables instanceof Map
    ? variables
    : Array.isArray(variables) ? variables : Object.entries(variables ?? {}))
  for (const name of defines.keys()) checkVariableName(name)
  return defines
}

/**
 * A terminal's variables before its first transaction, as pgbench sets them: the -D values, then
 * client_id, random_seed and default_seed unless -D gave them.
 * @param {ScriptTerminal} st
 * @param {{ defines: Map<string, string>, slot: (name: string) => number, terminalId: number,
 *   randomSeed: bigint, defaultSeed?: bigint }} at
 */
function setStartVariables (st, { defines, slot, terminalId, randomSeed, defaultSeed }) {
  for (const [name, value] of defines) st.vars.setString(slot(name), value)
  if (!defines.has('client_id')) st.vars.setInt(slot('client_id'), terminalId)
  if (!defines.has('random_seed')) st.vars.setInt(slot('random_seed'), normInt(seedAsInt64(randomSeed)))
  if (!defines.has('default_seed') && defaultSeed !== undefined) st.vars.setInt(slot('default_seed'), normInt(defaultSeed))
}

/**
 * recordCommits: which scripts' commits are kept, and where; none when no script is one of them.
 * @param {{ name: string }[]} linked @param {string[]|undefined} names @param {(name: string) => number} slot
 */
function commitLogOf (linked, names, slot) {
  const logged = names ? linked.map((s) => names.includes(s.name)) : null
  return { logged, commits: logged?.some(Boolean) ? new CommitLog(HISTORY_VARIABLES.map(slot)) : null }
}

/**
 * A transaction name not used yet: a script's name, or with `#2`, `#3`... when scripts share one.
 * @param {string} base
 * @param {Map<string, number>} used
 */
function uniqueName (base, used) {
  let name = base
  for (let k = 2; used.has(name); k++) name = `${base}#${k}`
  return name
}

/**
 * The scale of the built-in scripts: pgbench counts pgbench_branches.
 * @param {{ simpleQuery: (sql: string) => Promise<{ rows: any[][] }> }} db
 * @returns {Promise<number>}
 */
async function countBranches (db) {
  let r
  try {
    r = await db.simpleQuery('select count(*) from pgbench_branches')
  } catch (err) {
    throw new PgloadError(`could not count number of branches: ${err.message}`, {
      code: 'NO_TABLES',
      hint: err.code === '42P01' ? 'Perhaps you need to do initialization ("pgload init tpcb").' : undefined,
      cause: err
    })
  }
  return Number(r.rows[0][0])
}

/**
 * pgbench's vacuum before a run (`-v` adds pgbench_accounts); errors are warnings, as in pgbench.
 * @param {{ simpleQuery: (sql: string) => Promise<unknown> }} db
 * @param {{ vacuumAccounts?: boolean, log?: any }} opts
 */
async function housekeeping (db, opts) {
  const statements = ['vacuum pgbench_branches', 'vacuum pgbench_tellers', 'truncate pgbench_history']
  if (opts.vacuumAccounts) statements.push('vacuum analyze pgbench_accounts')
  for (const sql of statements) {
    try { await db.simpleQuery(sql) } catch (err) {
      opts.log?.warn?.(`${err.message} (ignoring this error and continuing anyway)`)
    }
  }
}

/**
 * Per-command statistics of each script, keyed by transaction name, for the results document.
 * @param {{ name: string }[]} transactions
 * @param {any[]} linked linked scripts, each with its `stats` arrays
 * @param {Map<string, number>} typeIndex transaction name -> script index
 */
function commandStatistics (transactions, linked, typeIndex) {
  const script = {}
  for (const t of transactions) {
    const s = linked[typeIndex.get(t.name)]
    script[t.name] = {
      desc: s.desc,
      weight: s.weight,
      commands: s.commands.map((c, i) => ({
        line: c.line,
        text: c.text,
        count: s.stats.count[i],
        latencyMs: s.stats.count[i] > 0 ? s.stats.sumUs[i] / s.stats.count[i] / 1000 : 0,
        failures: s.stats.failures[i],
        retries: s.stats.retries[i]
      }))
    }
  }
  return script
}
