// The results database's tables, in their own schema `pgload`, created on first use and
// versioned: each migration runs once, in order, under an advisory lock (docs/results-database.md).

import { PgloadError } from '../errors.js'

/** The schema every table lives in. */
export const STORE_SCHEMA = 'pgload'

// Latency columns shared by the whole-run, per-type and per-cell tables (milliseconds).
const LATENCY = `mean_ms float8, stddev_ms float8, min_ms float8, p50_ms float8, p90_ms float8,
  p95_ms float8, p99_ms float8, p999_ms float8, max_ms float8`

/** Migrations by version; a database at version n runs those above n. Never edit a released one. */
const MIGRATIONS = [
  {
    version: 1,
    sql: `
create table pgload.runs (
  run_id bigint generated always as identity primary key,
  content_key text not null unique,
  label text,
  workload text not null,
  command text,
  start_time timestamptz,
  end_time timestamptz,
  duration_s float8,
  warmup_s float8,
  clients int,
  connections int,
  scale int,
  rate float8,
  protocol text,
  transaction_types text[],
  seed text,
  options jsonb not null,
  aborted boolean,
  interrupted boolean,
  tool_version text,
  node_version text,
  server_version text,
  server_version_num int,
  server_embedded boolean,
  server_target text,
  server_settings jsonb,
  host_name text,
  host_cpus int,
  host_memory_bytes bigint,
  host_platform text,
  host_arch text,
  transactions bigint,
  failed bigint,
  skipped bigint,
  retried bigint,
  retries bigint,
  late bigint,
  rollbacks bigint,
  unfinished bigint,
  outcome_unknown bigint,
  tps float8,
  ${LATENCY},
  lag_p99_ms float8,
  tpmc float8,
  errors jsonb,
  source_file text,
  stored_at timestamptz not null default now()
);
create index runs_label_time on pgload.runs (label, start_time);
create index runs_workload_time on pgload.runs (workload, start_time);

create table pgload.run_types (
  run_id bigint not null references pgload.runs on delete cascade,
  txn_type text not null,
  position int not null,
  count bigint,
  failed bigint,
  skipped bigint,
  rollbacks bigint,
  retries bigint,
  tps float8,
  ${LATENCY},
  errors jsonb,
  histogram text,
  primary key (run_id, txn_type)
);

create table pgload.run_intervals (
  run_id bigint not null references pgload.runs on delete cascade,
  seq int not null,
  t_s float8 not null,
  length_s float8,
  transactions bigint,
  tps float8,
  failed bigint,
  skipped bigint,
  p50_ms float8,
  p90_ms float8,
  p99_ms float8,
  max_ms float8,
  lag_p99_ms float8,
  queue_p99_ms float8,
  counts jsonb,
  primary key (run_id, seq)
);

create table pgload.sweeps (
  sweep_id text primary key,
  content_key text not null,
  label text,
  workload text,
  command text,
  created_at timestamptz,
  updated_at timestamptz,
  tool_version text,
  scale_axis text,
  axes jsonb,
  repeat int,
  options jsonb,
  server_version text,
  shared_buffers_bytes bigint,
  server_embedded boolean,
  host_name text,
  host_cpus int,
  host_memory_bytes bigint,
  source_file text,
  stored_at timestamptz not null default now()
);

create table pgload.sweep_runs (
  sweep_id text not null references pgload.sweeps on delete cascade,
  run_order int not null,
  scale int,
  clients int,
  rate float8,
  repeat int,
  status text,
  file text,
  error text,
  start_time timestamptz,
  duration_s float8,
  tps float8,
  p50_ms float8,
  p99_ms float8,
  max_ms float8,
  db_size_bytes bigint,
  cell jsonb,
  run_id bigint references pgload.runs on delete set null,
  primary key (sweep_id, run_order)
);

create table pgload.sweep_cells (
  sweep_id text not null references pgload.sweeps on delete cascade,
  cell_index int not null,
  scale int,
  clients int,
  rate float8,
  runs int,
  tps_median float8, tps_min float8, tps_max float8,
  p50_ms_median float8, p50_ms_min float8, p50_ms_max float8,
  p99_ms_median float8, p99_ms_min float8, p99_ms_max float8,
  max_ms_median float8, max_ms_min float8, max_ms_max float8,
  db_size_bytes bigint,
  cell jsonb,
  primary key (sweep_id, cell_index)
);`
  },
  {
    // scenario runs (run --scenarios): each scenario's figures, and its types' rows marked with it;
    // runs stored before keep their rows, their types' scenario read from the SCENARIO/TYPE names
    version: 2,
    sql: `
create table pgload.run_scenarios (
  run_id bigint not null references pgload.runs on delete cascade,
  scenario text not null,
  position int not null,
  workload text,
  start_s float8,
  end_s float8,
  clients int,
  connections int,
  tags jsonb,
  transactions bigint,
  failed bigint,
  skipped bigint,
  retried bigint,
  retries bigint,
  late bigint,
  rollbacks bigint,
  unfinished bigint,
  outcome_unknown bigint,
  tps float8,
  ${LATENCY},
  lag_p99_ms float8,
  tpmc float8,
  errors jsonb,
  primary key (run_id, scenario)
);
create index run_scenarios_name on pgload.run_scenarios (scenario, run_id);
alter table pgload.run_types add column scenario text;
update pgload.run_types t set scenario = split_part(t.txn_type, '/', 1)
  from pgload.runs r where r.run_id = t.run_id and r.workload = 'scenarios' and strpos(t.txn_type, '/') > 0;`
  }
]

/** The schema version this pgload writes. */
export const STORE_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version

// Any constant: the key of the advisory lock that serialises schema changes.
const SCHEMA_LOCK = 7_401_126

/**
 * Bring the results database's schema to STORE_VERSION (creating it on first use), in one
 * transaction under an advisory lock, so concurrent first uses create it once.
 * @param {import('../db/connection.js').PgConnection} conn
 * @returns {Promise<number>} the version the database was at before (0: new)
 */
export async function ensureSchema (conn) {
  // Up to date (every use but the first): nothing to lock or create, so a user without the
  // right to create schemas can still read and store.
  if (await schemaVersion(conn) === STORE_VERSION) return STORE_VERSION
  await conn.simpleQuery('begin')
  try {
    await conn.simpleQuery(`select pg_advisory_xact_lock(${SCHEMA_LOCK})`)
    await conn.simpleQuery(`create schema if not exists ${STORE_SCHEMA};
      create table if not exists ${STORE_SCHEMA}.schema_version (version int not null, applied_at timestamptz not null default now())`)
    const r = await conn.simpleQuery(`select coalesce(max(version), 0) from ${STORE_SCHEMA}.schema_version`)
    const current = Number(r.rows[0][0])
    if (current > STORE_VERSION) {
      throw new PgloadError(`the results database has schema version ${current}, newer than this pgload's (${STORE_VERSION})`, {
        code: 'STORE_VERSION', hint: 'use a newer pgload, or another database with --results-url'
      })
    }
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue
      await conn.simpleQuery(m.sql)
      await conn.simpleQuery(`insert into ${STORE_SCHEMA}.schema_version (version) values (${m.version})`)
    }
    await conn.simpleQuery('commit')
    return current
  } catch (err) {
    await rollback(conn)
    throw err
  }
}

/**
 * The schema version of the results database, 0 when it has none yet.
 * @param {import('../db/connection.js').PgConnection} conn
 * @returns {Promise<number>}
 */
export async function schemaVersion (conn) {
  const r = await conn.simpleQuery(`select to_regclass('${STORE_SCHEMA}.schema_version') is not null`)
  if (r.rows[0][0] !== 't') return 0
  const v = await conn.simpleQuery(`select coalesce(max(version), 0) from ${STORE_SCHEMA}.schema_version`)
  return Number(v.rows[0][0])
}

/**
 * Roll back the transaction open on a connection; a connection already lost has none.
 * @param {import('../db/connection.js').PgConnection} conn
 */
export async function rollback (conn) {
  try {
    await conn.simpleQuery('rollback')
  } catch { /* the connection is gone: so is its transaction */ }
}
