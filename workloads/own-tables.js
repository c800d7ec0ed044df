// Which of a workload's tables are pgload's (or pgbench's) own, and how far their load got.
// `init --force` replaces only those: a same-named table of any other shape is user data.
//
// A table is the workload's own when it has exactly the workload's columns (names and types, in
// order) or carries the marker pgload leaves on the tables it creates: the table comment
// `pgload:<workload>` once the load finished, `pgload:<workload>:incomplete` while it runs. The
// comment travels with the table (dumps, renames of the schema) and needs no table of its own.

import { PgloadError } from '../lib/errors.js'
import { quoteLiteral } from '../lib/db/connection.js'

/**
 * @typedef {{ name: string, qualified: string, kind: string, columns: string[], comment: string|null }} FoundTable
 *   qualified: schema.name, quoted where needed; columns: "name type" as format_type() spells them
 */

/**
 * The marker comment of a workload's tables.
 * @param {string} workload
 * @param {'complete'|'incomplete'} state
 */
export function markerComment (workload, state) {
  return state === 'complete' ? `pgload:${workload}` : `pgload:${workload}:incomplete`
}

/**
 * SQL setting the marker on tables (one statement per table, to run with the DDL that made them).
 * @param {string} workload
 * @param {readonly string[]} names
 * @param {'complete'|'incomplete'} state
 */
export function markTablesSql (workload, names, state) {
  const comment = quoteLiteral(markerComment(workload, state))
  return names.map((n) => `comment on table ${n} is ${comment};`).join('\n')
}

/**
 * The tables of these names as the server resolves them on the connection's search_path, plus
 * a same-named table in the schema where init creates them (current_schema()).
 * @param {{ query(text: string): Promise<{ rows: any[][] }> }} conn
 * @param {readonly string[]} names
 * @returns {Promise<FoundTable[]>}
 */
export async function findTables (conn, names) {
  const list = names.map(quoteLiteral).join(', ')
  const r = await conn.query(`
    with wanted(name) as (select unnest(array[${list}]::text[])),
    found as (
      select w.name, to_regclass(quote_ident(w.name))::oid as oid from wanted w
      union
      select w.name, c.oid from wanted w join pg_class c on c.relname = w.name
        join pg_namespace s on s.oid = c.relnamespace and s.nspname = current_schema()
    )
    select f.name, format('%I.%I', s.nspname, c.relname), c.relkind, obj_description(c.oid, 'pg_class'),
      (select string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ',' order by a.attnum)
         from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped)
    from found f join pg_class c on c.oid = f.oid join pg_namespace s on s.oid = c.relnamespace
    order by f.name, 2`)
  return r.rows.map(([name, qualified, kind, comment, columns]) => ({
    name, qualified, kind, comment, columns: columns ? columns.split(',') : []
  }))
}

/**
 * Whether a found table is the workload's own.
 * @param {FoundTable} t
 * @param {{ workload: string, shapes: Record<string, readonly (readonly string[])[]> }} spec
 *   shapes: per table name, the accepted column lists ("name type")
 */
export function isOwnTable (t, { workload, shapes }) {
  if (t.kind !== 'r' && t.kind !== 'p') return false // a view, sequence, foreign table...
  if (t.comment === markerComment(workload, 'complete') || t.comment === markerComment(workload, 'incomplete')) return true
  return (shapes[t.name] ?? []).some((shape) => shape.length === t.columns.length && shape.every((c, i) => c === t.columns[i]))
}

/**
 * Refuse, before anything is dropped, when any found table is not the workload's own.
 * @param {FoundTable[]} found
 * @param {{ workload: string, shapes: Record<string, readonly (readonly string[])[]>, label: string, owners: string }} spec
 *   label: "a pgbench table"; owners: "pgload's and pgbench's own tables"
 */
export function refuseForeignTables (found, spec) {
  const foreign = found.filter((t) => !isOwnTable(t, spec))
  if (foreign.length === 0) return
  const shape = (t) => t.kind === 'r' || t.kind === 'p' ? `columns ${t.columns.map((c) => c.split(' ')[0]).join(', ')}` : KINDS[t.kind] ?? 'not a table'
  const names = foreign.map((t) => t.qualified).join(', ')
  const message = foreign.length === 1
    ? `${names} is not ${spec.label} (${shape(foreign[0])})`
    : `${foreign.map((t) => `${t.qualified} (${shape(t)})`).join(', ')} are not ${spec.label.replace(/^an? /, '')}s`
  const tables = foreign.filter((t) => t.kind === 'r' || t.kind === 'p')
  throw new PgloadError(`${message}; init --force replaces only ${spec.owners}`, {
    code: 'FOREIGN_TABLE',
    hint: tables.length === foreign.length
      ? `drop ${foreign.length > 1 ? 'them' : 'it'} yourself: DROP TABLE ${names}`
      : `rename or drop ${names} yourself`
  })
}

const KINDS = { v: 'a view', m: 'a materialized view', S: 'a sequence', f: 'a foreign table', i: 'an index', I: 'an index', c: 'a type' }

/**
 * Drop the workload's own tables in one statement: all or nothing, and without CASCADE, so an
 * object of the user's that depends on them (a view, a foreign key) stops the drop instead.
 * @param {{ query(text: string): Promise<any> }} conn
 * @param {FoundTable[]} own
 */
export async function dropOwnTables (conn, own) {
  if (own.length === 0) return
  const names = [...new Set(own.map((t) => t.qualified))]
  try {
    await conn.query(`drop table ${names.join(', ')}`)
  } catch (err) {
    if (err.code !== '2BP01') throw err
    const detail = String(err.detail ?? '').split('\n')[0]
    throw new PgloadError(`cannot replace ${names.join(', ')}: objects that are not the workload's depend on them (${detail}); nothing was dropped`, {
      code: 'DEPENDENT_OBJECTS', hint: 'drop or change those objects yourself, then run init --force again', cause: err
    })
  }
}

/**
 * The load state the markers record, for `run`: 'incomplete' when any resolved table carries the
 * incomplete marker (an init was interrupted or failed), else 'ok' (complete, or tables made by
 * pgbench or an older pgload, which carry no marker).
 * @param {{ query(text: string): Promise<{ rows: any[][] }> }} conn
 * @param {string} workload
 * @param {readonly string[]} names
 * @returns {Promise<{ state: 'ok'|'incomplete', tables: string[] }>} tables: the incomplete ones
 */
export async function loadState (conn, workload, names) {
  const list = names.map(quoteLiteral).join(', ')
  const r = await conn.query(`
    select format('%I.%I', s.nspname, c.relname) from unnest(array[${list}]::text[]) as w(name)
      join pg_class c on c.oid = to_regclass(quote_ident(w.name)) join pg_namespace s on s.oid = c.relnamespace
     where obj_description(c.oid, 'pg_class') = ${quoteLiteral(markerComment(workload, 'incomplete'))} order by 1`)
  const tables = r.rows.map((row) => row[0])
  return { state: tables.length ? 'incomplete' : 'ok', tables }
}

/**
 * The error `run` gives on an interrupted or failed load.
 * @param {string} workload
 * @param {string[]} tables
 * @param {string} initCommand e.g. "pgload init tpcb --scale N --force"
 */
export function incompleteLoadError (workload, tables, initCommand) {
  return new PgloadError(`the ${workload} tables are incomplete (${tables.join(', ')}): an earlier pgload init ${workload} did not finish; run \`${initCommand}\` again`, {
    code: 'INCOMPLETE_LOAD'
  })
}

/**
 * The columns of a workload's own tables, as the server spells them: its DDL run as temporary
 * tables in a rolled-back transaction, so that the DDL stays the only description of them.
 * @param {{ query(text: string): Promise<{ rows: any[][] }> }} conn outside a transaction
 * @param {string} ddl CREATE TABLE statements
 * @returns {Promise<Record<string, string[][]>>} per table, one accepted column list
 */
export async function shapesOfDdl (conn, ddl) {
  await conn.query('BEGIN')
  try {
    await conn.query(ddl.replace(/CREATE TABLE/g, 'CREATE TEMPORARY TABLE'))
    const r = await conn.query(`SELECT c.relname, string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ',' ORDER BY a.attnum)
      FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE c.relnamespace = pg_my_temp_schema() AND c.relkind = 'r' GROUP BY c.relname`)
    return Object.fromEntries(r.rows.map(([name, cols]) => [name, [cols.split(',')]]))
  } finally {
    await conn.query('ROLLBACK')
  }
}
