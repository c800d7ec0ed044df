// pgbench's built-in scripts and custom script files as a workload (lib/script does the work):
// checks the pgbench tables exist when a built-in script needs them, and detects the scale.

import { PgloadError } from '../../lib/errors.js'
import { loadState, incompleteLoadError } from '../own-tables.js'
import { TABLES } from './init.js'
import { HISTORY_SCRIPTS } from '../../lib/failover/history-check.js'

/**
 * @param {{ conn: any, log?: any }} ctx
 * @param {{ scripts: { kind: 'file'|'builtin', name: string, weight: number, text?: string }[],
 *   protocol: string, define?: Record<string, string>, scale?: number, noVacuum?: boolean,
 *   randomSeed: bigint, seeds: object, clients: number } & Record<string, any>} opts
 */
export async function createTpcbWorkload (ctx, opts) {
  const { compileScript, scriptWorkload, findBuiltin } = await import('../../lib/script/index.js')
  const { conn } = ctx
  const usesBuiltin = opts.scripts.some((s) => s.kind === 'builtin')
  let scale = opts.scale ?? 1
  if (usesBuiltin) {
    const load = await loadState(conn, 'tpcb', TABLES)
    if (load.state === 'incomplete') throw incompleteLoadError('tpcb', load.tables, 'pgload init tpcb --scale N --force')
    const r = await conn.simpleQuery("select to_regclass('pgbench_branches') is not null and to_regclass('pgbench_accounts') is not null")
    if (r.rows[0][0] !== 't') {
      throw new PgloadError('the pgbench tables are missing (no pgbench_branches or pgbench_accounts)', { code: 'NO_SCHEMA', hint: 'run `pgload init tpcb --scale N` first' })
    }
    scale = Number((await conn.simpleQuery('select count(*) from pgbench_branches')).rows[0][0])
    if (scale === 0) throw new PgloadError('pgbench_branches is empty', { code: 'NO_SCHEMA', hint: 'run `pgload init tpcb --scale N --force` to reload' })
  }
  const compiled = opts.scripts.map((s) => {
    if (s.kind === 'builtin') {
      const b = findBuiltin(s.name)
      return compileScript({ name: b.name, text: b.script, weight: s.weight, desc: b.desc }, { protocol: opts.protocol })
    }
    return compileScript({ name: s.name, file: s.name, text: s.text, weight: s.weight }, { protocol: opts.protocol })
  })
  const workload = scriptWorkload(compiled, {
    clients: opts.clients,
    randomSeed: opts.randomSeed,
    seeds: opts.seeds,
    variables: opts.define ?? {},
    scale,
    scaleGiven: opts.scale !== undefined && opts.scale !== scale, // pgbench's warning only when it matters
    usesBuiltin,
    noVacuum: opts.noVacuum,
    vacuumAccounts: opts.vacuumAccounts,
    reportPerCommand: opts.reportPerCommand,
    log: ctx.log,
    // --failover: the RPO check lists the commits the new primary lacks by these values
    recordCommits: opts.recordCommits ? opts.scripts.filter((s) => s.kind === 'builtin' && HISTORY_SCRIPTS.has(s.name)).map((s) => s.name) : undefined,
    pgbenchLog: opts.log
      ? {
          prefix: opts.logPrefix,
          // pgbench's names: prefix.PID for the first thread, prefix.PID.N for thread N
          pid: opts.thread ? `${process.pid}.${opts.thread}` : undefined,
          aggregateIntervalS: opts.aggregateIntervalS,
          samplingRate: opts.samplingRate,
          throttled: opts.rate > 0,
          maxTries: opts.maxTries,
          failuresDetailed: opts.failuresDetailed,
          latencyLimited: opts.latencyLimitMs > 0
        }
      : undefined
  })
  workload.name = usesBuiltin && opts.scripts.every((s) => s.kind === 'builtin') ? 'tpcb' : 'script'
  workload.scale = scale
  return workload
}
