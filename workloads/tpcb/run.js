// pgbench's built-in scripts and custom script files as a workload: scale detection, the
// pre-run vacuum and history truncation pgbench does, and compilation of the scripts.

import { PgloadError } from '../../lib/errors.js'

/**
 * @param {{ conn: any, log?: any }} ctx
 * @param {{ scripts: { kind: 'file'|'builtin', name: string, weight: number, text?: string }[],
 *   protocol: string, define?: Record<string, string>, scale?: number, noVacuum?: boolean,
 *   randomSeed: bigint, defaultSeed: bigint } & Record<string, any>} opts
 */
export async function createTpcbWorkload (ctx, opts) {
  const { BUILTIN_SCRIPTS, compileScript, scriptWorkload } = await import('../../lib/script/index.js')
  const { conn } = ctx
  const usesBuiltin = opts.scripts.some((s) => s.kind === 'builtin')
  const hasTables = await pgbenchTablesExist(conn)
  let scale = opts.scale ?? 1
  if (usesBuiltin) {
    if (!hasTables) {
      throw new PgloadError('the pgbench tables are missing (pgbench_branches not found)', { code: 'NO_SCHEMA', hint: 'run `pgload init tpcb --scale N` first' })
    }
    const r = await conn.simpleQuery('select count(*) from pgbench_branches')
    const detected = Number(r.rows[0][0])
    if (detected === 0) throw new PgloadError('pgbench_branches is empty', { code: 'NO_SCHEMA', hint: 'run `pgload init tpcb --scale N --force` to reload' })
    if (opts.scale !== undefined && opts.scale !== detected) ctx.log?.warn(`scale option ignored, using count from pgbench_branches table (${detected})`)
    scale = detected
  }
  const compiled = opts.scripts.map((s) => compileScript(
    s.kind === 'builtin'
      ? { name: s.name, text: BUILTIN_SCRIPTS[s.name].text, weight: s.weight, builtin: true, description: BUILTIN_SCRIPTS[s.name].description }
      : { name: s.name, file: s.name, text: s.text, weight: s.weight },
    { protocol: opts.protocol }
  ))
  const workload = scriptWorkload(compiled, { ...opts, scale, variables: opts.define ?? {} })
  workload.name = opts.scripts.every((s) => s.kind === 'builtin') ? 'tpcb' : 'script'
  workload.scale = scale
  const ownPrepare = workload.prepare
  workload.prepare = async (db, runOptions) => {
    // pgbench's pre-run housekeeping, skipped with -n (and silently when the tables are absent).
    if (!opts.noVacuum && hasTables) {
      for (const sql of ['vacuum pgbench_branches', 'vacuum pgbench_tellers', 'truncate pgbench_history']) {
        try {
          await db.simpleQuery(sql)
        } catch (err) {
          ctx.log?.warn(`${sql}: ${err.message} (ignoring this error and continuing anyway)`)
        }
      }
    }
    if (ownPrepare) await ownPrepare.call(workload, db, runOptions)
  }
  return workload
}

async function pgbenchTablesExist (conn) {
  const r = await conn.simpleQuery("select to_regclass('pgbench_branches') is not null, to_regclass('pgbench_history') is not null")
  return r.rows[0][0] === 't' && r.rows[0][1] === 't'
}
