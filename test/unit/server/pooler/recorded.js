// SHOW answers of PgBouncer's admin console as the connection returns them (fields, rows of
// text): 1.18.0's, recorded during an 8-client run through a pool of 2, and one with a later
// version's extra columns in another order.

export const VERSION_1_18 = { fields: ['version'], rows: [['PgBouncer 1.18.0']] }

export const POOLS_1_18 = {
  fields: ['database', 'user', 'cl_active', 'cl_waiting', 'cl_active_cancel_req', 'cl_waiting_cancel_req', 'sv_active', 'sv_active_cancel', 'sv_being_canceled', 'sv_idle', 'sv_used', 'sv_tested', 'sv_login', 'maxwait', 'maxwait_us', 'pool_mode'],
  rows: [
    ['pgbouncer', 'pgbouncer', '1', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', 'statement'],
    ['postgres', 'postgres', '3', '7', '0', '0', '2', '0', '0', '0', '0', '0', '0', '0', '17579', 'transaction']
  ]
}

export const STATS_1_18 = {
  fields: ['database', 'total_xact_count', 'total_query_count', 'total_received', 'total_sent', 'total_xact_time', 'total_query_time', 'total_wait_time', 'avg_xact_count', 'avg_query_count', 'avg_recv', 'avg_sent', 'avg_xact_time', 'avg_query_time', 'avg_wait_time'],
  rows: [
    ['pgbouncer', '1', '1', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'],
    ['postgres', '5000', '35000', '0', '0', '0', '0', '20000000', '0', '0', '0', '0', '0', '0', '0']
  ]
}

/** A later version's answers: more columns, another order. */
export const POOLS_LATER = {
  fields: ['database', 'user', 'pool_mode', 'cl_waiting', 'cl_active', 'cl_active_cancel_req', 'cl_waiting_cancel_req', 'sv_idle', 'sv_active', 'sv_active_cancel', 'sv_being_canceled', 'sv_used', 'sv_tested', 'sv_login', 'maxwait_us', 'maxwait', 'load_balance_hosts'],
  rows: [['bench', 'app', 'session', '4', '20', '0', '0', '1', '19', '0', '0', '0', '0', '0', '500000', '2', null]]
}

export const STATS_LATER = {
  fields: ['database', 'total_server_assignment_count', 'total_wait_time', 'total_xact_count', 'total_query_count', 'total_client_parse_count'],
  rows: [['bench', '90', '1500', '80', '400', '0']]
}

export const DATABASES_1_18 = {
  fields: ['name', 'host', 'port', 'database', 'force_user', 'pool_size', 'min_pool_size', 'reserve_pool', 'pool_mode', 'max_connections', 'current_connections', 'paused', 'disabled'],
  rows: [
    ['pgbouncer', null, '6432', 'pgbouncer', 'pgbouncer', '2', '0', '0', 'statement', '0', '0', '0', '0'],
    ['postgres', '127.0.0.1', '5432', 'postgres', 'postgres', '2', '0', '0', null, '0', '2', '0', '0']
  ]
}

export const CONFIG_1_18 = {
  fields: ['key', 'value', 'default', 'changeable'],
  rows: [['pool_mode', 'transaction', 'session', 'yes'], ['default_pool_size', '2', '20', 'yes']]
}
