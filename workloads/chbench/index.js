// CH-benCHmark: TPC-C's tables and terminals plus supplier, nation and region and analytic
// streams running the benchmark's 22 queries, to measure what analytics cost the transactions.

import tpcc from '../tpcc/index.js'
import { loadChbench, CH_TABLES } from './loader.js'

export default {
  name: 'chbench',
  describe: 'CH-benCHmark: TPC-C plus supplier, nation and region and the 22 analytic queries',
  tables: [...tpcc.tables, ...CH_TABLES],
  initOptions: { ...tpcc.initOptions },

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
  }
}
