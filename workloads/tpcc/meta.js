// The small metadata table a TPC-C load leaves behind (pgload_tpcc_meta): how many warehouses,
// the load seed and the C_LAST load constant that `run` needs for clause 2.1.6.1.

import { readFileSync } from 'node:fs'
import { PgloadError } from '../../lib/errors.js'
import { DEFAULTS } from './defaults.js'
import { loadState, incompleteLoadError, shapesOfDdl } from '../own-tables.js'

export const META_TABLE = 'pgload_tpcc_meta'

/** The nine TPC-C tables (clause 1.3). */
export const TPCC_TABLES = Object.freeze(['warehouse', 'district', 'customer', 'history', 'new_order', 'orders', 'order_line', 'item', 'stock'])

/**
 * Refuse servers older than PostgreSQL 13.
 * @param {{ query(text: string): Promise<{ rows: any[][] }> }} conn
 * @returns {Promise<number>} server_version_num
 */
export async function checkServerVersion (conn) {
  const r = await conn.query('SHOW server_version_num')
  const num = Number(r.rows[0][0])
  if (!(num >= DEFAULTS.minServerVersionNum)) {
    throw new PgloadError(`TPC-C needs PostgreSQL 13 or later, the server is version ${Math.floor(num / 10000)} (server_version_num ${num})`, { code: 'SERVER_VERSION' })
  }
  return num
}

/** SQL creating the meta table. */
export const CREATE_META = `CREATE TABLE ${META_TABLE} (
  warehouses int NOT NULL,
  c_last_load int NOT NULL,
  seed text NOT NULL,
  foreign_keys boolean NOT NULL,
  loaded_at timestamptz NOT NULL DEFAULT now(),
  load_seconds double precision,
  rows bigint,
  steps jsonb, -- [{ name, seconds, rows? }] per load step
  pgload_version text
)`

/** The SQL of the nine tables (schema.sql). */
export const SCHEMA_SQL = readFileSync(new URL('./schema.sql', import.meta.url), 'utf8')

/** Every table a TPC-C load creates: the nine and the meta table. */
export const ALL_TABLES = Object.freeze([...TPCC_TABLES, META_TABLE])

/**
 * The columns of pgload's own TPC-C tables, as the server spells them: our DDL run as temporary
 * tables in a rolled-back transaction, so schema.sql stays the only description of them.
 * @param {{ query(text: string): Promise<{ rows: any[][] }> }} conn outside a transaction
 * @returns {Promise<Record<string, string[][]>>} per table, one accepted column list
 */
export function tpccShapes (conn) {
  return shapesOfDdl(conn, `${SCHEMA_SQL}\n${CREATE_META}`)
}

/**
 * Record a finished load.
 * @param {{ query(text: string, values?: any[]): Promise<any> }} conn
 * @param {{ warehouses: number, cLoad: number, seed: string, foreignKeys: boolean, seconds: number, rows: number,
 *   steps: object[], version: string }} m
 */
export async function writeMeta (conn, m) {
  await conn.query(`INSERT INTO ${META_TABLE} (warehouses, c_last_load, seed, foreign_keys, load_seconds, rows, steps, pgload_version)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [String(m.warehouses), String(m.cLoad), String(m.seed), m.foreignKeys ? 'true' : 'false',
    String(m.seconds), String(m.rows), JSON.stringify(m.steps), m.version])
}

/**
 * Read the recorded load; a clear error when no TPC-C schema is loaded.
 * @param {{ query(text: string): Promise<{ rows: any[][] }> }} conn
 * @returns {Promise<{ warehouses: number, cLoad: number, seed: string, foreignKeys: boolean, loadedAt: string }>}
 */
export async function readMeta (conn) {
  const load = await loadState(conn, 'tpcc', ALL_TABLES)
  if (load.state === 'incomplete') throw incompleteLoadError('tpcc', load.tables, 'pgload init tpcc --warehouses N --force')
  const exists = await conn.query(`SELECT to_regclass('${META_TABLE}') IS NOT NULL, to_regclass('warehouse') IS NOT NULL`)
  if (exists.rows[0][0] !== 't') {
    const hint = exists.rows[0][1] === 't'
      ? 'the tables exist but were not loaded by pgload (or the load did not finish); reload with `pgload init tpcc --warehouses N --force`'
      : undefined
    throw new PgloadError('no TPC-C schema is loaded: run `pgload init tpcc --warehouses N` first', { code: 'NO_SCHEMA', hint })
  }
  const r = await conn.query(`SELECT warehouses, c_last_load, seed, foreign_keys, loaded_at FROM ${META_TABLE} ORDER BY loaded_at DESC LIMIT 1`)
  if (r.rows.length === 0) {
    throw new PgloadError('the TPC-C load did not finish: run `pgload init tpcc --warehouses N --force`', { code: 'NO_SCHEMA' })
  }
  const [w, c, seed, fk, at] = r.rows[0]
  return { warehouses: Number(w), cLoad: Number(c), seed, foreignKeys: fk === 't', loadedAt: at }
}
