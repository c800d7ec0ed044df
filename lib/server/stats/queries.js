// The SQL the stats sampler runs, chosen by server version (13..18): views and columns moved
// between releases (pg_stat_wal 14+, pg_stat_io 16+, pg_stat_force_next_flush 15+, pg_stat_checkpointer 17+).
// Every statement carries the marker comment so pg_stat_statements readings can leave it out.

import { quoteLiteral } from '../../db/connection.js'

/** Marker inside every sampler statement (kept by pg_stat_statements in the query text). */
export const MARKER = '/* pgload-stats */'

/**
 * The per-version statements, each returning one result. Names are stable: the sampler probes
 * each one at start and leaves out (and reports as missing) those the server or role refuses.
 * @param {number} versionNum server_version_num, e.g. 150004
 * @param {string[]} tableOids oids (as text) of the workload's tables that exist
 */
export function statQueries (versionNum, tableOids = []) {
  const q = {}
  q.database = `SELECT ${MARKER} ${DATABASE_COLUMNS}, extract(epoch from clock_timestamp())::text AS server_epoch
    FROM pg_stat_database WHERE datname = current_database()`
  q.walLsn = `SELECT ${MARKER} pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS wal_lsn`
  if (versionNum >= 140000) {
    q.wal = `SELECT ${MARKER} wal_records, wal_fpi, wal_bytes::text FROM pg_stat_wal`
  }
  q.checkpoints = checkpointsQuery(versionNum)
  if (versionNum >= 160000) {
    // rows that never moved are left out: most of the view's rows stay at zero
    q.io = `SELECT ${MARKER} backend_type, object, context, reads, writes, extends, fsyncs,
      read_time, write_time, extend_time, fsync_time FROM pg_stat_io
      WHERE coalesce(reads, 0) + coalesce(writes, 0) + coalesce(extends, 0) + coalesce(fsyncs, 0) > 0`
  }
  q.control = `SELECT ${MARKER} pg_wal_lsn_diff(checkpoint_lsn, '0/0')::text AS checkpoint_lsn,
    extract(epoch from checkpoint_time)::text AS checkpoint_epoch FROM pg_control_checkpoint()`
  // the backends but this reader and the wait sampler's (lib/waits), which are pgload's own
  q.activity = `SELECT ${MARKER} backend_type, state, wait_event_type, wait_event,
    coalesce(datname = current_database(), false) AS here, count(*)::text AS n
    FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND application_name IS DISTINCT FROM 'pgload-waits'
    GROUP BY 1, 2, 3, 4, 5`
  if (tableOids.length > 0) {
    const list = oidList(tableOids)
    // Progress views join pg_stat_activity: the costliest statement, so the sampler sends it
    // only when the activity reading shows an autovacuum worker.
    q.autovacuum = `SELECT ${MARKER} 'autovacuum' AS kind, p.relid::text FROM pg_stat_progress_vacuum p
      JOIN pg_stat_activity a ON a.pid = p.pid WHERE a.backend_type = 'autovacuum worker' AND p.relid IN (${list})
      UNION ALL SELECT 'autoanalyze', p.relid::text FROM pg_stat_progress_analyze p
      JOIN pg_stat_activity a ON a.pid = p.pid WHERE a.backend_type = 'autovacuum worker' AND p.relid IN (${list})`
    // The counter functions directly: pg_stat_user_tables would also join pg_class and pg_index.
    q.tableCounts = `SELECT ${MARKER} t.relid::text, pg_stat_get_autovacuum_count(t.relid), pg_stat_get_autoanalyze_count(t.relid)
      FROM unnest(ARRAY[${list}]::oid[]) AS t(relid)`
  }
  return q
}

const DATABASE_COLUMNS = 'xact_commit, xact_rollback, blks_read, blks_hit, tup_returned, tup_fetched, ' +
  'tup_inserted, tup_updated, tup_deleted, temp_files, temp_bytes, deadlocks, conflicts'

/**
 * Checkpoint counters as (timed, requested, done, buffers_written, buffers_clean).
 * 17 moved checkpoints out of pg_stat_bgwriter into pg_stat_checkpointer; 18 added num_done.
 * @param {number} versionNum
 */
export function checkpointsQuery (versionNum) {
  if (versionNum >= 180000) {
    return `SELECT ${MARKER} c.num_timed AS timed, c.num_requested AS requested, c.num_done AS done,
      c.buffers_written, b.buffers_clean FROM pg_stat_checkpointer c, pg_stat_bgwriter b`
  }
  if (versionNum >= 170000) {
    return `SELECT ${MARKER} c.num_timed AS timed, c.num_requested AS requested, NULL::bigint AS done,
      c.buffers_written, b.buffers_clean FROM pg_stat_checkpointer c, pg_stat_bgwriter b`
  }
  return `SELECT ${MARKER} checkpoints_timed AS timed, checkpoints_req AS requested, NULL::bigint AS done,
    buffers_checkpoint AS buffers_written, buffers_clean FROM pg_stat_bgwriter`
}

/**
 * Workload tables -> oid, with their full counters and sizes (start and end of the window only:
 * the size functions take a lock, bounded by the sampler's lock_timeout).
 * @param {string[]} tables names as the workload gives them (resolved through search_path)
 */
export function resolveTablesQuery (tables) {
  const arr = `ARRAY[${tables.map(quoteLiteral).join(', ')}]::text[]`
  return `SELECT ${MARKER} t.name, to_regclass(t.name)::oid::text AS oid FROM unnest(${arr}) AS t(name)`
}

/**
 * Full per-table statistics for the given oids.
 * @param {string[]} tableOids
 */
export function tableStatsQuery (tableOids) {
  const list = oidList(tableOids)
  return `SELECT ${MARKER} s.relid::text AS relid, s.seq_scan, s.idx_scan, s.n_tup_ins, s.n_tup_upd, s.n_tup_del,
    s.n_tup_hot_upd, s.n_live_tup, s.n_dead_tup, s.autovacuum_count, s.autoanalyze_count,
    io.heap_blks_read, io.heap_blks_hit,
    pg_table_size(s.relid)::text AS size_bytes, pg_indexes_size(s.relid)::text AS indexes_size_bytes
    FROM pg_stat_user_tables s LEFT JOIN pg_statio_user_tables io ON io.relid = s.relid
    WHERE s.relid IN (${list})`
}

/** What the connected role may read: superuser, pg_read_all_stats, pg_read_all_settings. */
export const PRIVILEGES_QUERY = `SELECT ${MARKER} current_setting('server_version_num') AS version_num,
  current_setting('server_version') AS version,
  (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
  pg_has_role(current_user, 'pg_read_all_stats', 'USAGE') AS read_all_stats,
  pg_has_role(current_user, 'pg_read_all_settings', 'USAGE') AS read_all_settings,
  pg_is_in_recovery() AS in_recovery`

/** Flush this backend's pending statistics at the end of the current transaction (15+). */
export const FORCE_FLUSH = `SELECT ${MARKER} pg_stat_force_next_flush()`

// Oids come from the server as text; only digits may reach the SQL.
function oidList (oids) {
  for (const o of oids) if (!/^\d+$/.test(o)) throw new TypeError(`not an oid: ${o}`)
  return oids.join(', ')
}
