// Whether named prepared statements (-M prepared) survive a PgBouncer: in session pooling they do;
// in transaction or statement pooling only PgBouncer 1.21+ with max_prepared_statements > 0 keeps
// them, and otherwise each transaction may land on a server connection that lacks the statement
// or already has one of that name.

import { versionAtLeast } from './admin-rows.js'

/**
 * The line and hint that say why -M prepared fails through this pooler, or null when it works.
 * @param {{ protocol: string, version: string, poolMode: string|null, maxPreparedStatements: number|null }} setup
 * @returns {{ message: string, hint: string }|null}
 */
export function preparedStatementsProblem ({ protocol, version, poolMode, maxPreparedStatements }) {
  if (protocol !== 'prepared' || (poolMode !== 'transaction' && poolMode !== 'statement')) return null
  const supported = versionAtLeast(version, 1, 21)
  if (supported && maxPreparedStatements > 0) return null
  const why = supported
    ? `its max_prepared_statements is ${maxPreparedStatements ?? 0}`
    : 'it keeps prepared statements only from version 1.21 on, with max_prepared_statements > 0'
  return {
    message: `-M prepared through PgBouncer ${version} in ${poolMode} pooling fails: ${why}; transactions will fail with "prepared statement ... does not exist" or "already exists"`,
    hint: supported
      ? 'set max_prepared_statements (e.g. 200) in pgbouncer.ini, or use -M extended'
      : 'use -M extended or -M simple, session pooling, or PgBouncer 1.21+ with max_prepared_statements'
  }
}
