// `pgload init <workload>`: create and load a built-in workload's tables on the target server
// (the embedded one when none is given), printing each step's time as pgbench -i does.

import { PgloadError } from '../errors.js'
import { workloadNames, loadWorkload } from '../../workloads/index.js'
import { connectTarget } from '../server/target/connect-target.js'
import { openConnection } from '../db/connection.js'
import { createProgress } from '../output/progress.js'
import { InterruptibleLoad } from './interruptible-load.js'
import { openLineEnd } from './interrupts.js'
import { trapInterrupts } from '../session/interrupts.js'
import { createLogger } from '../log.js'
import { loadState } from '../../workloads/own-tables.js'
import { withLoadLock, waitingForLoadMessage } from '../../workloads/load-lock.js'

// Each workload's init options, grouped per workload in --help. Loaded once; a workload whose
// module fails to load still appears by name and reports its error when chosen.
const modules = Object.fromEntries(await Promise.all(workloadNames.map(async (name) => {
  try {
    return [name, await loadWorkload(name)]
  } catch {
    return [name, undefined]
  }
})))

const SHARED_DESCRIPTIONS = {
  force: 'drop and reload the workload\'s own existing tables (only those)',
  'foreign-keys': 'add foreign keys between the workload\'s tables',
  vacuum: 'VACUUM ANALYZE after loading (--no-vacuum: tpcb skips it, tpcc and chbench run ANALYZE only) [default: true]'
}

export const command = 'init <workload>'
export const describe = 'Create and load a workload\'s tables (e.g. init tpcb --scale 10)'

/** @param {import('yargs').Argv} y */
export function builder (y) {
  y.positional('workload', { describe: `built-in workload: ${workloadNames.join(', ')}`, type: 'string' })
    .option('url', { type: 'string', describe: 'server: libpq URI or key=value (default: PG* environment, else the embedded server)' })
  // An option several workloads share (--force) is described once, for all of them.
  const owners = new Map()
  for (const [name, mod] of Object.entries(modules)) {
    for (const key of Object.keys(mod?.initOptions ?? {})) owners.set(key, [...(owners.get(key) ?? []), name])
  }
  const defined = new Set()
  for (const [name, mod] of Object.entries(modules)) {
    if (!mod?.initOptions) continue
    for (const [key, spec] of Object.entries(mod.initOptions)) {
      // defined once: yargs would list a shared option's alias once per definition
      if (defined.has(key)) continue
      defined.add(key)
      if (owners.get(key).length > 1) {
        y.option(key, { ...spec, describe: SHARED_DESCRIPTIONS[key] ?? spec.describe, group: `${owners.get(key).join(' and ')} options:` })
      } else {
        y.option(key, { ...spec, group: `${name} options:` })
      }
    }
  }
  return y.example('$0 init tpcb --scale 10', 'pgbench\'s tables at scale 10 on the embedded server')
}

/**
 * Run `init` for a workload.
 * @param {{ workload: string, url?: string, env?: Record<string, string|undefined>,
 *   options?: Record<string, any>, stderr?: { write(s: string): any, isTTY?: boolean }, log?: any, signal?: AbortSignal }} opts
 *   options: the workload's initOptions, camelCased; signal: aborting it (Ctrl-C) stops the load,
 *   which then fails with code INTERRUPTED (exit code 130) naming the tables it left incomplete
 * @returns {Promise<{ steps: { name: string, seconds: number }[], rows: number, target: string, seconds: number }>}
 */
export async function initCommand ({ workload, url, env = process.env, options = {}, stderr = process.stderr, log, signal }) {
  if (!workloadNames.includes(workload)) {
    throw new PgloadError(`unknown workload ${JSON.stringify(workload)}: valid workloads are ${workloadNames.join(', ')}`)
  }
  let mod
  try {
    mod = await loadWorkload(workload)
  } catch (err) {
    throw new PgloadError(`cannot load workload ${workload}: ${err.message}`, { code: 'WORKLOAD_LOAD', cause: err })
  }
  if (typeof mod?.init !== 'function') throw new PgloadError(`workload ${workload} has no init step`)
  // Mistakes in the options are reported before any server is started or reached.
  if (mod.validateInitOptions) options = mod.validateInitOptions(options)

  const say = (msg) => stderr.write(msg + '\n')
  // pgbench prints its step messages on stderr; do the same, and keep a logger if one is given.
  const stepLog = {
    info (a, b) { say(typeof a === 'string' ? a : b ?? '') },
    debug () {},
    warn (a, b) { say(typeof a === 'string' ? a : b ?? '') },
    error (a, b) { say(typeof a === 'string' ? a : b ?? '') },
    child () { return stepLog }
  }

  const session = await connectTarget({ url, env, log })
  const { target, conn } = session
  if (session.embedded) say(`pgload: ${session.reused ? 'using' : 'started'} the embedded PostgreSQL at ${target.display}`)
  const t0 = performance.now()
  const load = new InterruptibleLoad({ target, openConnection, signal })
  try {
    const bar = createProgress({ stream: stderr })
    const progress = { ...bar, start (label, ...rest) { load.onProgress(label); bar.start(label, ...rest) } }
    const ctx = { conn: load.wrap(conn), target, openConnection: (t, o) => load.openConnection(t, o), progress, log: stepLog, onStep: (name) => load.onStep(name) }
    let result
    let waiting = false
    try {
      // one load at a time: a second init waits for the first instead of dropping its tables
      const onWait = () => { waiting = true; say(waitingForLoadMessage(mod.name)) }
      result = await withLoadLock(conn, mod.name, () => { waiting = false; return mod.init(ctx, options) }, { onWait })
    } catch (err) {
      if (load.interrupted && waiting) {
        throw new PgloadError(`init interrupted while waiting for another pgload's load of the ${mod.name} tables: this one changed nothing`, { code: 'INTERRUPTED', exitCode: 130, cause: err })
      }
      if (load.interrupted) throw await interruptedError(load, conn, mod, err)
      throw err
    }
    const seconds = (performance.now() - t0) / 1000
    say(`done in ${seconds.toFixed(2)} s (${result.steps.map(s => `${s.name} ${s.seconds.toFixed(2)} s`).join(', ')}).`)
    return { ...result, target: target.display, seconds }
  } finally {
    await session.release()
  }
}

// One line on what an interrupted load left: the tables still marked incomplete.
async function interruptedError (load, conn, mod, cause) {
  await load.cancelled
  let left = null
  try {
    if (conn.transactionStatus !== 'I') await conn.simpleQuery('rollback')
    left = (await loadState(conn, mod.name, [...mod.tables, ...(mod.metaTable ? [mod.metaTable] : [])])).tables
  } catch { /* the server is gone too: say what is known */ }
  const what = left === null
    ? 'its tables may be incomplete'
    : left.length ? `${left.join(', ')} ${left.length === 1 ? 'is' : 'are'} left incomplete` : 'no incomplete tables were left'
  return new PgloadError(`init interrupted during ${load.activity}: ${what}; run pgload init ${mod.name} --force again`, {
    code: 'INTERRUPTED', exitCode: 130, cause
  })
}

/** @param {any} argv */
export async function handler (argv) {
  const mod = modules[argv.workload]
  const options = {}
  for (const key of Object.keys(mod?.initOptions ?? {})) {
    const camel = key.replace(/-([a-z])/g, (_, c) => c.toUpperCase())
    if (argv[camel] !== undefined) options[camel] = argv[camel]
  }
  // Ctrl-C stops the load and reports what it left; a second one ends pgload at once.
  const controller = new AbortController()
  const trap = trapInterrupts(({ count, signal }) => {
    if (count > 1) {
      trap.release()
      process.kill(process.pid, signal)
      return
    }
    process.stderr.write(`${openLineEnd(process.stderr)}pgload: stopping init (Ctrl-C again to quit at once)\n`)
    controller.abort()
  })
  try {
    await initCommand({ workload: argv.workload, url: argv.url, options, log: createLogger(argv), signal: controller.signal })
  } catch (err) {
    // the load says it was interrupted; the exit status says by which signal
    if (err?.code === 'INTERRUPTED') err.exitCode = trap.exitCode
    throw err
  } finally {
    trap.release()
  }
}

export default { command, describe, builder, handler }
