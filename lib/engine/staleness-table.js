// The table --staleness stamps (lib/engine/staleness.js): pgload's own, made only when absent and
// used only when it has exactly pgload's shape; a user's table of that name is never touched.

import { PgloadError } from '../errors.js'
import { STALENESS_TABLE } from './staleness.js'

const SHAPE = 'id:integer,seq:bigint,at:timestamp with time zone'

/**
 * Make pgload_staleness if it is absent; refuse a table of that name of another shape.
 * @param {import('../db/connection.js').PgConnection} conn on the run's own (writable) server
 */
export async function ensureStalenessTable (conn) {
  await conn.simpleQuery(`create table if not exists ${STALENESS_TABLE} (id int primary key, seq bigint not null, at timestamptz not null)`)
  const r = await conn.simpleQuery(`select string_agg(attname || ':' || format_type(atttypid, atttypmod), ',' order by attnum),
      (select count(*) from pg_index i where i.indrelid = c.oid and i.indisprimary and i.indkey::text = '1')
    from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where c.oid = to_regclass('${STALENESS_TABLE}') group by c.oid`)
  const row = r.rows[0]
  if (!row || String(row[0]) !== SHAPE || Number(row[1]) !== 1) {
    throw new PgloadError(`--staleness: table ${STALENESS_TABLE} exists with another shape (${row ? row[0] : 'not a table'}); pgload leaves it as it is`, {
      code: 'BAD_OPTION',
      hint: `pgload stamps a table of its own, ${STALENESS_TABLE}(id int primary key, seq bigint, at timestamptz): rename yours, or run in another database`
    })
  }
}
