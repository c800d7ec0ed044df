// Storing one results document: its run, types, interval and scenario rows in one transaction, once per
// content key (the same results stored again are found, not duplicated).

import { runRow, typeRows, intervalRows, scenarioRows, contentKey } from './run-rows.js'
import { rollback } from './schema.js'

/**
 * Insert rows given as objects whose keys are the table's columns, in one statement: the rows
 * travel as one JSON parameter and jsonb_populate_recordset types them by the table itself.
 * @param {import('../db/connection.js').PgConnection} conn
 * @param {string} table schema-qualified table name (ours, not user input)
 * @param {Record<string, any>[]} rows all with the same keys
 * @param {string} [returning] a RETURNING clause
 * @returns {Promise<import('../db/connection.js').Result|null>}
 */
export async function insertRows (conn, table, rows, returning = '') {
  if (rows.length === 0) return null
  const cols = Object.keys(rows[0]).join(', ')
  return conn.query(`insert into ${table} (${cols}) select ${cols} from jsonb_populate_recordset(null::${table}, $1::jsonb) ${returning}`, [JSON.stringify(rows)])
}

/**
 * The run_id of a stored document, or null.
 * @param {import('../db/connection.js').PgConnection} conn
 * @param {string} key
 * @returns {Promise<number|null>}
 */
export async function storedRunId (conn, key) {
  const r = await conn.query('select run_id from pgload.runs where content_key = $1', [key])
  return r.rows.length ? Number(r.rows[0][0]) : null
}

/**
 * Store a results document's rows, inside the caller's transaction.
 * @param {import('../db/connection.js').PgConnection} conn
 * @param {any} doc a checked results document
 * @param {{ sourceFile?: string|null }} [opts]
 * @returns {Promise<{ runId: number, stored: boolean }>} stored false: it was there already
 */
export async function insertRun (conn, doc, { sourceFile = null } = {}) {
  const row = runRow(doc, { sourceFile })
  const r = await conn.query(
    `insert into pgload.runs (${Object.keys(row).join(', ')})
     select ${Object.keys(row).join(', ')} from jsonb_populate_record(null::pgload.runs, $1::jsonb)
     on conflict (content_key) do nothing returning run_id`, [JSON.stringify(row)])
  if (r.rows.length === 0) return { runId: await storedRunId(conn, row.content_key), stored: false }
  const runId = Number(r.rows[0][0])
  await insertRows(conn, 'pgload.run_types', typeRows(doc).map((t) => ({ run_id: runId, ...t })))
  await insertRows(conn, 'pgload.run_intervals', intervalRows(doc).map((iv) => ({ run_id: runId, ...iv })))
  await insertRows(conn, 'pgload.run_scenarios', scenarioRows(doc).map((sc) => ({ run_id: runId, ...sc })))
  return { runId, stored: true }
}

/**
 * Store one results document in its own transaction.
 * @param {import('../db/connection.js').PgConnection} conn a connection to the results database
 * @param {any} doc a checked results document (lib/results/read.js)
 * @param {{ sourceFile?: string|null }} [opts] sourceFile: the file it was read from, for the record
 * @returns {Promise<{ runId: number, stored: boolean }>}
 */
export async function storeRunDocument (conn, doc, opts) {
  // most imports of a file already stored end here, without a transaction
  const known = await storedRunId(conn, contentKey(doc))
  if (known !== null) return { runId: known, stored: false }
  await conn.simpleQuery('begin')
  try {
    const out = await insertRun(conn, doc, opts)
    await conn.simpleQuery('commit')
    return out
  } catch (err) {
    await rollback(conn)
    throw err
  }
}
