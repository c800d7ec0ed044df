// The TPC-C workload: schema and parallel loader (loader.js), the five transactions driven by
// the engine (workload.js) and the consistency conditions of clause 3.3.2 (checks.js).

import { loadTpcc, initOptionsFrom } from './loader.js'
import { createTpccWorkload, validateRunOptions } from './workload.js'
import { runChecks } from './checks.js'
import { rampUpS } from './ramp-up.js'
import { checkServerVersion, readMeta, TPCC_TABLES, META_TABLE } from './meta.js'
import { DEFAULTS } from './defaults.js'

export default {
  name: 'tpcc',
  describe: 'TPC-C: 10 spec-paced terminals per warehouse, tpmC, response-time limits, consistency checks',
  tables: [...TPCC_TABLES],
  metaTable: META_TABLE,
  initOptions: {
    warehouses: { alias: 'w', type: 'string', describe: 'warehouses to load (about 100 MB each) [default: 1]' },
    jobs: { alias: 'j', type: 'string', describe: 'parallel COPY connections [default: one per core, 2..8]' },
    force: { type: 'boolean', describe: 'drop and reload existing TPC-C tables (only those)' },
    'foreign-keys': { type: 'boolean', describe: 'add foreign keys between the TPC-C tables' },
    check: { type: 'boolean', describe: 'run the consistency checks after loading (--no-check to skip) [default: true]' },
    vacuum: { type: 'boolean', describe: 'VACUUM ANALYZE after loading (--no-vacuum: ANALYZE only) [default: true]' },
    seed: { type: 'string', describe: 'seed of the generated data (unsigned integer) [default: random]' }
  },
  // The run plan's defaults this workload overrides (lib/plan/defaults.js): TPC-C runs for a time.
  runDefaults: { durationS: DEFAULTS.runDurationS },
  // its terminals come from the warehouses, never from --clients
  fixedTerminals: {
    what: `${DEFAULTS.terminalsPerWarehouse} terminals per warehouse`,
    hint: `--warehouses N drives ${DEFAULTS.terminalsPerWarehouse} N terminals; --connections sets the connections they share`
  },
  runOptions: {
    warehouses: { alias: 'w', type: 'string', describe: 'tpcc: warehouses to drive, 10 terminals each [default: all loaded]' },
    wait: { type: 'boolean', describe: 'tpcc: keying and think times of the spec (--no-wait: none, unpaced) [default: true]' },
    'wait-scale': { type: 'string', describe: 'tpcc: multiply keying and think times, e.g. 0.1 [default: 1]' },
    mix: { type: 'string', describe: 'tpcc: percentages new-order,payment,order-status,delivery,stock-level [default: 45,43,4,4,4 as a 23-card deck]' },
    'allow-nonstandard-mix': { type: 'boolean', describe: 'tpcc: accept a --mix below the spec minimums' },
    delivery: { type: 'string', choices: ['deferred', 'inline'], describe: 'tpcc: Delivery queued to workers (deferred, clause 2.7.2) or run by the terminal [default: deferred when paced, inline with --no-wait]' }
  },

  /**
   * @param {{ conn: any, target: any, openConnection: Function, progress?: any, log?: any }} ctx
   * @param {{ warehouses?: number, jobs?: number, force?: boolean, foreignKeys?: boolean, check?: boolean, vacuum?: boolean, seed?: string }} opts
   */
  init (ctx, opts) {
    return loadTpcc(ctx, opts)
  },

  /**
   * Reject bad init options before any server is started or reached.
   * @param {object} opts the initOptions, camelCased
   */
  validateInitOptions (opts) {
    initOptionsFrom(opts)
    return opts
  },

  /**
   * Reject bad run options before any server is started or reached.
   * @param {object} opts the runOptions, camelCased
   */
  validateRunOptions (opts) {
    validateRunOptions(opts)
  },

  /**
   * The warm-up when --warmup is not given: spec-paced runs ramp up until every terminal has
   * finished its first transaction (ramp-up.js); unpaced runs need none.
   * @param {object} opts the runOptions, camelCased
   * @returns {{ warmupS: number, rampUp: true, reason: string } | null}
   */
  defaultWarmup (opts) {
    const { mix, standard, pace } = validateRunOptions(opts)
    if (!pace.paced) return null
    return { warmupS: rampUpS({ mix, standard, scale: pace.scale }), rampUp: true, reason: 'every terminal finishes its first transaction' }
  },

  createWorkload: createTpccWorkload,

  /**
   * All twelve consistency conditions (condition 11 only when no Delivery has run since the load).
   * @param {{ conn: any }} ctx
   * @returns {Promise<{ checks: import('./checks.js').CheckResult[], warehouses: number }>}
   */
  async verify (ctx) {
    await checkServerVersion(ctx.conn)
    const meta = await readMeta(ctx.conn)
    return { checks: await runChecks(ctx.conn), warehouses: meta.warehouses }
  }
}
