// The options of `pgload run` as yargs reads them (--help shows these texts), and the pgbench
// options it refuses with a reason instead of "Unknown argument". The options themselves are
// entries of lib/options/run-option-table.js.

import { RUN_OPTION_TABLE, yargsOption } from '../options/run-option-table.js'

/** @type {Record<string, import('yargs').Options>} */
export const RUN_OPTIONS = Object.fromEntries(Object.entries(RUN_OPTION_TABLE).map(([name, entry]) => [name, yargsOption(entry)]))

/**
 * pgbench options that `pgload run` refuses, each with its reason: pgbench's init-only options
 * ("cannot be used in benchmarking mode", as pgbench says) and features pgload does not have.
 */
export const INIT_ONLY = {
  initialize: { alias: 'i', type: 'boolean' },
  'init-steps': { alias: 'I', type: 'string' },
  fillfactor: { alias: 'F', type: 'string' },
  quiet: { alias: 'q', type: 'boolean' },
  'foreign-keys': { type: 'boolean' },
  'unlogged-tables': { type: 'boolean' },
  tablespace: { type: 'string' },
  'index-tablespace': { type: 'string' },
  partitions: { type: 'string' },
  'partition-method': { type: 'string' }
}
export const UNSUPPORTED = {
  debug: { type: 'boolean', reason: '--debug is not supported: use --verbose for pgload\'s debug log' }
}
/** Both, as hidden yargs options. */
export const REFUSED_OPTIONS = {
  ...INIT_ONLY,
  ...Object.fromEntries(Object.entries(UNSUPPORTED).map(([k, { reason, ...def }]) => [k, def]))
}
