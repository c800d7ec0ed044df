// CH-benCHmark: TPC-C's tables and terminals plus supplier, nation and region and analytic
// streams running the benchmark's 22 queries, to measure what analytics cost the transactions.

import tpcc from '../tpcc/index.js'
import { loadChbench, CH_TABLES } from './loader.js'
import { createChbenchWorkload, streamsOf, queriesOf, DEFAULT_STREAMS } from './workload.js'

export default {
  name: 'chbench',
  describe: 'CH-benCHmark: TPC-C plus supplier, nation and region and the 22 analytic queries',
  tables: [...tpcc.tables, ...CH_TABLES],
  initOptions: { ...tpcc.initOptions },
  runDefaults: tpcc.runDefaults,
  fixedTerminals: {
    what: `${tpcc.fixedTerminals.what}, plus one per analytic stream`,
    hint: `${tpcc.fixedTerminals.hint}; --streams K adds the analytic streams`
  },
  // worker threads and shards cut the terminals by whole warehouses; the streams belong to none
  oneThread: 'its TPC-C terminals and analytic streams run in one thread and one process',
  runOptions: {
    ...tpcc.runOptions,
    streams: { type: 'string', describe: `chbench: analytic streams, each running the 22 queries in its own order, again and again [default: ${DEFAULT_STREAMS}]` },
    queries: { type: 'string', describe: 'chbench: the queries a stream runs, e.g. q16,q19 [default: all 22]' },
    tpcc: { type: 'boolean', describe: 'chbench: the TPC-C terminals beside the streams (--no-tpcc: the streams alone, on data that holds still: every answer checked) [default: true]' }
  },

  /**
   * @param {{ conn: any, target: any, openConnection: Function, progress?: any, log?: any, onStep?: (name: string) => void }} ctx
   * @param {Record<string, any>} opts the initOptions, camelCased
   */
  init (ctx, opts) {
    return loadChbench(ctx, opts)
  },

  /** @param {object} opts the initOptions, camelCased */
  validateInitOptions (opts) {
    return tpcc.validateInitOptions(opts)
  },

  /** @param {object} opts the runOptions, camelCased */
  validateRunOptions (opts) {
    streamsOf(opts)
    queriesOf(opts)
    tpcc.validateRunOptions(opts)
  },

  /** @param {object} opts the runOptions, camelCased */
  defaultWarmup (opts) {
    // the streams alone need no ramp-up of paced terminals
    return opts.tpcc === false ? null : tpcc.defaultWarmup(opts)
  },

  createWorkload: createChbenchWorkload,

  /** TPC-C's twelve consistency conditions: the analytic streams write nothing. */
  verify (ctx) {
    return tpcc.verify(ctx)
  }
}
