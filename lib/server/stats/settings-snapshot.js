// What the server and client machine looked like for a run: version, every non-default
// setting with its source and context, the workload's table and index sizes, and host facts.

import { availableParallelism, cpus, platform, totalmem } from 'node:os'
import { MARKER } from './queries.js'
import { quoteLiteral } from '../../db/connection.js'

/**
 * Take the settings snapshot on an open connection. Never throws for what the role may not
 * read: those parts are listed in `missing`.
 * @param {import('../../db/connection.js').PgConnection} conn
 * @param {{ tables?: string[] }} [opts]
 * @returns {Promise<{ serverVersion: string|null, serverVersionNum: number|null,
 *   settings: Record<string, { value: string|null, unit: string|null, source: string|null, context: string|null }>,
 *   tables: Record<string, { sizeBytes: number|null, indexesSizeBytes: number|null, totalBytes: number|null }>,
 *   host: { cpus: number, memoryBytes: number, platform: string }, missing: string[] }>}
 */
export async function takeSettingsSnapshot (conn, { tables = [] } = {}) {
  const missing = []
  const snap = { serverVersion: null, serverVersionNum: null, settings: {}, tables: {}, host: hostFacts(), missing }

  try {
    const v = await conn.simpleQuery(`SELECT ${MARKER} current_setting('server_version'), current_setting('server_version_num'),
      pg_has_role(current_user, 'pg_read_all_settings', 'USAGE')`)
    snap.serverVersion = v.rows[0][0]
    snap.serverVersionNum = Number(v.rows[0][1])
    if (v.rows[0][2] !== 't') missing.push('settings: superuser-only settings are hidden from this role (needs pg_read_all_settings)')
  } catch (err) {
    missing.push(`server version: ${err.message}`)
  }

  try {
    const s = await conn.simpleQuery(`SELECT ${MARKER} name, setting, unit, source, context FROM pg_settings
      WHERE source NOT IN ('default', 'override', 'client') ORDER BY name`)
    for (const [name, value, unit, source, context] of s.rows) snap.settings[name] = { value, unit, source, context }
  } catch (err) {
    missing.push(`settings: ${err.message}`)
  }

  if (tables.length > 0) {
    try {
      const arr = `ARRAY[${tables.map(quoteLiteral).join(', ')}]::text[]`
      const r = await conn.simpleQuery(`SELECT ${MARKER} t.name, pg_table_size(c)::text, pg_indexes_size(c)::text,
        pg_total_relation_size(c)::text FROM unnest(${arr}) AS t(name) LEFT JOIN LATERAL (SELECT to_regclass(t.name) AS c) x ON true`)
      for (const [name, size, indexes, total] of r.rows) {
        snap.tables[name] = { sizeBytes: num(size), indexesSizeBytes: num(indexes), totalBytes: num(total) }
        if (size === null) missing.push(`table size: ${name} not found`)
      }
    } catch (err) {
      missing.push(`table sizes: ${err.message}`)
    }
  }
  return snap
}

/**
 * Facts of the machine running pgload (the client; the server may be elsewhere).
 * @returns {{ cpus: number, memoryBytes: number, platform: string }}
 */
export function hostFacts () {
  return {
    cpus: typeof availableParallelism === 'function' ? availableParallelism() : cpus().length,
    memoryBytes: totalmem(),
    platform: platform()
  }
}

function num (text) {
  return text === null ? null : Number(text)
}
