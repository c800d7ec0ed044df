// A server that answers the sampler's statements from counters the test moves. Every query of
// the sampler counts as one committed transaction, as the real server does.
export function fakeServer ({ versionNum = '180004', refuse = [], superuser = 't', logCheckpoints = 'on' } = {}) {
  const s = {
    commits: 1000n,
    reads: 50n,
    hits: 5000n,
    wal: 1_000_000n,
    ckptLsn: 500n,
    ckptEpoch: 100,
    epoch: 200,
    requested: 0n,
    buffers: 0n,
    idx: 7n,
    ioReads: 40n,
    activity: [['client backend', 'active', null, null, 't', '3'], ['client backend', 'idle', 'Client', 'ClientRead', 't', '2'],
      ['client backend', 'active', 'Lock', 'transactionid', 't', '1'], ['checkpointer', null, 'Activity', 'CheckpointerMain', 'f', '1']],
    queries: 0,
    closed: false,
    hold: null,
    broken: false,
    alive: new Set() // backend pids still listed in pg_stat_activity
  }
  const answer = (text) => {
    for (const r of refuse) if (text.includes(r)) { const e = new Error(`permission denied for ${r}`); e.code = '42501'; throw e }
    if (s.failNext && text.includes(s.failNext.match)) {
      const e = new Error(s.failNext.message)
      e.code = s.failNext.code
      if (--s.failNext.times <= 0) s.failNext = null
      throw e
    }
    if (text.includes('AS version_num')) return res(['version_num', 'version', 'superuser', 'read_all_stats', 'read_all_settings', 'in_recovery'], [[versionNum, '18.4', superuser, 'f', 'f', 'f']])
    if (text.startsWith('SET')) return res([], [])
    if (text.includes('to_regclass(t.name)::oid')) return res(['name', 'oid'], [['acc', '16384'], ['gone', null]])
    if (text.includes('FROM pg_stat_database')) {
      return res(['xact_commit', 'xact_rollback', 'blks_read', 'blks_hit', 'tup_returned', 'tup_fetched', 'tup_inserted', 'tup_updated', 'tup_deleted', 'temp_files', 'temp_bytes', 'deadlocks', 'conflicts', 'server_epoch'],
        [[String(s.commits), '0', String(s.reads), String(s.hits), '0', '0', '0', '0', '0', '0', '0', '0', '0', String(s.epoch)]])
    }
    if (text.includes('pg_current_wal_lsn')) return res(['wal_lsn'], [[String(s.wal)]])
    if (text.includes('FROM pg_stat_wal')) return res(['wal_records', 'wal_fpi', 'wal_bytes'], [['10', '0', '100']])
    if (text.includes('pg_stat_checkpointer') || text.includes('FROM pg_stat_bgwriter')) return res(['timed', 'requested', 'done', 'buffers_written', 'buffers_clean'], [['0', String(s.requested), '0', String(s.buffers), '0']])
    if (text.includes('FROM pg_stat_io')) {
      return res(['backend_type', 'object', 'context', 'reads', 'writes', 'extends', 'fsyncs', 'read_time', 'write_time', 'extend_time', 'fsync_time'],
        [['client backend', 'relation', 'normal', String(s.ioReads), '2', '0', null, '0', '0', '0', null]])
    }
    if (text.includes('pg_control_checkpoint')) return res(['checkpoint_lsn', 'checkpoint_epoch'], [[String(s.ckptLsn), String(s.ckptEpoch)]])
    if (text.includes('FROM pg_stat_activity WHERE pid IN')) {
      const listed = text.slice(text.indexOf('IN (') + 4, text.lastIndexOf(')')).split(',').map(Number)
      return res(['n'], [[String(listed.filter(p => s.alive.has(p)).length)]])
    }
    if (text.includes('GROUP BY 1, 2, 3, 4, 5')) return res(['backend_type', 'state', 'wait_event_type', 'wait_event', 'here', 'n'], s.activity)
    if (text.includes('pg_stat_progress_vacuum')) return res(['kind', 'relid'], [])
    if (text.includes('pg_stat_get_autovacuum_count')) return res(['relid', 'av', 'aa'], [['16384', '0', '0']])
    if (text.includes('pg_table_size(s.relid)')) {
      return res(['relid', 'seq_scan', 'idx_scan', 'n_tup_ins', 'n_tup_upd', 'n_tup_del', 'n_tup_hot_upd', 'n_live_tup', 'n_dead_tup', 'autovacuum_count', 'autoanalyze_count', 'heap_blks_read', 'heap_blks_hit', 'size_bytes', 'indexes_size_bytes'],
        [['16384', '1', String(s.idx), '0', '0', '0', '0', '10', '3', '0', '0', '0', '0', '8192', '16384']])
    }
    if (text.includes('pg_stat_force_next_flush')) return res(['x'], [['']])
    if (text.includes("current_setting('log_checkpoints')")) return res(['log_checkpoints', 'lc_messages', 'log_line_prefix'], [[logCheckpoints, 'C', '%m [%p] ']])
    if (text.includes('s::timestamptz')) {
      // the server converts its log's stamps (UTC here) to epochs
      const stamps = [...text.matchAll(/'([^']+) UTC'/g)].map(m => m[1])
      return res(['epoch'], stamps.map(st => [String(Date.parse(st.replace(' ', 'T') + 'Z') / 1000)]))
    }
    if (text.includes('FROM pg_extension')) return res(['nspname', 'extversion'], [])
    if (text.includes("current_setting('data_directory')")) return res(['data_directory', 'port', 'started'], [['/srv/pg', '5432', '1764320000']])
    throw new Error('unexpected statement: ' + text.slice(0, 60))
  }
  const conn = {
    lastResults: [],
    get broken () { return s.broken },
    async simpleQuery (text) {
      if (s.broken) { const e = new Error('connection to server lost'); e.code = 'CONNECTION_LOST'; throw e }
      if (s.hold) await s.hold
      s.queries++
      const list = text.split(';\n').map(answer)
      s.commits++ // this query's own transaction
      conn.lastResults = list
      return list[list.length - 1]
    },
    async close () { s.closed = true }
  }
  s.conn = conn
  return s
}

function res (fields, rows) { return { command: 'SELECT', rowCount: rows.length, fields, rows } }

export function clock () {
  const c = { ms: 0, now: () => c.ms }
  return c
}
