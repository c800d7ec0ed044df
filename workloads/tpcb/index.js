// pgbench's TPC-B-like workload: tables and loader (init.js, schema.sql), built-in and custom
// scripts (run.js).

import { initTpcb, TABLES } from './init.js'
import { createTpcbWorkload } from './run.js'
import { parseInteger } from '../../lib/options/parse.js'
import { rangeOf } from '../../lib/options/ranges.js'

export default {
  name: 'tpcb',
  describe: 'pgbench TPC-B-like workloads (tpcb-like, simple-update, select-only)',
  tables: TABLES,
  initOptions: {
    scale: { alias: 's', type: 'string', describe: 'scale factor: 1 branch, 10 tellers, 100,000 accounts each (default 1)' },
    fillfactor: { alias: 'F', type: 'string', describe: 'fillfactor of the tables, 10..100 (default 100)' },
    force: { type: 'boolean', describe: 'drop and re-create existing pgbench_* tables (only those)' },
    'unlogged-tables': { type: 'boolean', describe: 'create unlogged tables' },
    'foreign-keys': { type: 'boolean', describe: 'add foreign keys between the tables' },
    vacuum: { type: 'boolean', describe: 'vacuum analyze after loading (--no-vacuum to skip)' }
  },
  /**
   * @param {object} ctx see docs/architecture.md
   * @param {{ scale?: number, fillfactor?: number, force?: boolean, unloggedTables?: boolean,
   *   foreignKeys?: boolean, vacuum?: boolean }} opts the initOptions above, camelCased
   */
  init (ctx, opts) {
    return initTpcb(ctx, {
      scale: opts.scale,
      fillfactor: opts.fillfactor,
      force: opts.force,
      unlogged: opts.unloggedTables ?? opts.unlogged,
      foreignKeys: opts.foreignKeys,
      noVacuum: opts.noVacuum ?? (opts.vacuum === false)
    })
  },
  createWorkload: createTpcbWorkload,

  /**
   * Check the init options before anything connects; numbers as typed become numbers.
   * @param {Record<string, any>} opts
   */
  validateInitOptions (opts) {
    const out = { ...opts }
    if (opts.scale !== undefined) out.scale = parseInteger(opts.scale, '--scale', rangeOf('--scale'))
    if (opts.fillfactor !== undefined) out.fillfactor = parseInteger(opts.fillfactor, '--fillfactor', rangeOf('--fillfactor'))
    return out
  }
}
