// The one table of run defaults, and the precedence rule that applies it: an option given by
// the caller (command line or library) > the config layer > the workload's own defaults > DEFAULTS.

/**
 * Defaults of a run, each with its unit. The workload modules may override any of them with
 * their `runDefaults` (TPC-C runs for a duration); connection settings come from the PG*
 * variables when the run connects (lib/server/target/resolve-target.js), so they are not here.
 */
export const DEFAULTS = Object.freeze({
  clients: 1, // terminals (pgbench -c); a workload may fix its own number (TPC-C: 10 per warehouse)
  transactionsPerClient: 10, // pgbench -t when neither a count nor a duration is given
  rate: 0, // target transactions per second for the whole run; 0 = as fast as the clients go
  latencyLimitMs: 0, // pgbench -L; 0 = none
  warmupS: 0, // seconds excluded from all statistics, before the measured duration
  intervalS: 1, // seconds per entry of the time series
  jobs: 1, // worker threads (-j), each with its own event loop, connections and terminals
  progressS: 0, // seconds between progress lines; 0 = none
  seed: 'time', // random seed: an unsigned integer, `time` or `rand`
  protocol: 'prepared', // simple | extended | prepared
  driver: 'lean', // lean (pgload's protocol path on the socket) | pg (node-postgres)
  maxTries: 1, // tries per transaction on serialization failures and deadlocks; 0 = unlimited
  graceS: 10, // seconds transactions in flight may take to finish once the run stops
  transactionTimeoutS: 0, // seconds after which a running transaction is cancelled; 0 = never
  serverLostS: 10, // seconds without any connection re-opened before the run ends (not an option; a library plan may set it)
  exitOnAbort: false, // stop the whole run at the first aborted client or failed transaction
  connect: false, // pgbench -C: a new connection for every transaction
  verboseErrors: false, // report every retried error
  failuresDetailed: false, // count serialization failures and deadlocks apart
  serverStats: true, // sample server statistics during the run
  store: false, // store the run in the results database after its file is written
  cold: false, // restart the server (and drop the OS page cache where allowed) before the measured run
  keepPageCache: false, // with cold: restart only, leave the OS page cache as it is
  writeFile: true // write the results document (to `out`, else ./pgload-results/<time>-<workload>.json)
})

/** The options that set how long a run lasts: one layer decides both, never a mix of layers. */
const LENGTH = ['durationS', 'transactionsPerClient']

/**
 * The precedence rule: an option's value comes from the first layer that gives it (neither
 * undefined nor null; `rate: 0` is a value), else it is not given and DEFAULTS applies. The
 * length of the run (a duration or a count per client) comes from one layer as a pair.
 * @param {(Record<string, any>|undefined)[]} layers highest first: input, config, workload defaults
 * @returns {(key: string) => any} the given value of an option, or undefined
 */
export function precedence (layers) {
  const has = (layer, key) => layer?.[key] !== undefined && layer?.[key] !== null
  const lengthLayer = layers.find((l) => LENGTH.some((k) => has(l, k)))
  return (key) => {
    const layer = LENGTH.includes(key) ? lengthLayer : layers.find((l) => has(l, key))
    return has(layer, key) ? layer[key] : undefined
  }
}
