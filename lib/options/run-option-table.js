// The one table of `pgload run`'s options: each entry is an option's flags and type, the plan key
// it fills, its default (in the plan's units), what --help shows as its default, its help text, and
// how `capacity` treats it. The yargs options (lib/cli/run-options.js), the plan's DEFAULTS
// (lib/plan/defaults.js), the plan input from argv (lib/cli/run-argv.js) and capacity's taken and
// refused lists are built from it: adding an option is one entry here plus its use. The ranges of
// numeric options are in ranges.js, one table beside this one.

/**
 * @typedef {object} RunOptionEntry
 * @property {'string'|'boolean'|'count'} type
 * @property {string|string[]} [alias]
 * @property {boolean} [array]
 * @property {boolean} [hidden]
 * @property {string} [plan] the run plan's key the option fills (lib/plan/resolve.js), when it maps to one
 * @property {string|number|boolean} [default] the plan's default, in its units (DEFAULTS)
 * @property {string|true} [shown] what --help shows as the default: text, or true for `default` itself
 * @property {'refused'|'no'} [capacity] refused: capacity says why it does not take it; no: not one of capacity's options
 * @property {string} [describe] the help text, without its default
 */

/** @type {Readonly<Record<string, RunOptionEntry>>} */
export const RUN_OPTION_TABLE = Object.freeze({
  url: { type: 'string', plan: 'url', describe: 'server to test: libpq URI or key=value string (default: PG* variables, else the embedded server)' },
  clients: { alias: 'c', type: 'string', plan: 'clients', default: 1, shown: '1; tpcc: 10 per warehouse', describe: 'simulated clients (terminals)' },
  connections: { type: 'string', plan: 'connections', shown: 'one per client; at most 32 with think time', describe: 'database connections shared by the clients' },
  duration: { alias: 'T', type: 'string', plan: 'durationS', shown: 'none: -t 10; tpcc, chbench: 60s', capacity: 'refused', describe: 'measured duration: 30s, 10m, 1h' },
  transactions: { alias: 't', type: 'string', plan: 'transactionsPerClient', default: 10, shown: '10 when no duration', capacity: 'refused', describe: 'transactions per client (pgbench -t)' },
  rate: { alias: 'R', type: 'string', plan: 'rate', default: 0, capacity: 'refused', describe: 'target transactions per second, Poisson arrivals; latency counts from the scheduled time' },
  'latency-limit': { alias: 'L', type: 'string', plan: 'latencyLimitMs', default: 0, capacity: 'refused', describe: 'ms; with --rate, transactions already later than this are skipped; others above it are counted as late' },
  stages: { type: 'string', plan: 'stages', capacity: 'refused', describe: 'load profile of arrival rates, k6 syntax DUR:RATE,...: the rate ramps linearly to each target (e.g. 30s:500,2m:5000,30s:0); the run lasts their sum' },
  'max-queue': { type: 'string', plan: 'maxQueue', default: 1000, shown: true, describe: 'with --stages: arrivals that may wait for a free terminal; more are dropped and counted' },
  'clients-stages': { type: 'string', plan: 'clientsStages', capacity: 'refused', describe: 'closed-model profile DUR:N,...: N active terminals from each stage\'s start, N~ ramping to N over the stage (e.g. 1m:8,1m:16,2m:64~)' },
  ramp: { type: 'string', plan: 'rampS', capacity: 'refused', describe: 'closed model: start the terminals evenly over this long (e.g. 2m), each then after its own keying time' },
  'think-time': { type: 'string', plan: 'thinkTime', shown: 'none', capacity: 'refused', describe: 'think time after each transaction: fixed:MS, uniform:MIN-MAX, exp:MEAN[:CAP] (ms)' },
  warmup: { type: 'string', plan: 'warmupS', default: 0, shown: '0; spec-paced tpcc and chbench ramp up first, --warmup 0 opts out', capacity: 'refused', describe: 'duration excluded from all statistics, before the measured duration' },
  progress: { alias: 'P', type: 'string', plan: 'progressS', default: 0, shown: 'off', capacity: 'no', describe: 'print a progress line every N seconds' },
  seed: { alias: 'random-seed', type: 'string', plan: 'seed', default: 'time', shown: true, describe: 'random seed: an unsigned integer, time or rand' },
  protocol: { alias: 'M', type: 'string', plan: 'protocol', default: 'prepared', shown: true, describe: 'query protocol: simple, extended, prepared' },
  connect: { alias: 'C', type: 'boolean', plan: 'connect', default: false, capacity: 'refused', describe: 'open a new connection for every transaction (pgbench -C); its time counts in the latency' },
  driver: { type: 'string', plan: 'driver', default: 'lean', describe: 'run connections: lean (pgload\'s own protocol path, default) or pg (node-postgres)' },
  'max-tries': { type: 'string', plan: 'maxTries', default: 1, shown: true, describe: 'tries per transaction on serialization failures and deadlocks (0 = unlimited)' },
  failover: { type: 'boolean', plan: 'failover', default: false, capacity: 'refused', describe: 'measure a failover or switchover during the run: the outage, the recovery of the throughput and, for tpcb-like, simple-update and TPC-C, the RPO check of every acknowledged commit on the server the run ends on (README: Through a failover); --reconnect-window defaults to 60s' },
  trigger: { type: 'string', plan: 'trigger', capacity: 'refused', describe: 'a shell command run at --trigger-at during the run, e.g. a switchover (patronictl switchover, pg_ctl promote); the run does not wait for it, its results record when it ran and how it ended' },
  'trigger-at': { type: 'string', plan: 'triggerAtS', shown: 'a third of --duration', capacity: 'refused', describe: 'with --trigger: when, in the measured window: 30s, 2m' },
  'reconnect-window': { type: 'string', plan: 'reconnectWindowS', default: 10, shown: '10s; 60s with --failover', describe: 'while no connection can be re-opened (a restart, a failover), the run goes on retrying every 0.5 s (following target_session_attrs to a new primary) for this long, then ends early with its results (exit 2): 10s, 2m, 0' },
  target: { type: 'string', array: true, plan: 'routeTargets', capacity: 'refused', describe: 'a server for --route by name: NAME=URL (libpq URI or key=value string), e.g. replicas=\'postgres://standby/db\' (repeatable)' },
  route: { type: 'string', array: true, plan: 'routes', capacity: 'refused', describe: 'run a transaction type on its own server: TYPE=NAME (a --target) or TYPE=URL, TYPE a script (its file name) or a TPC-C type, e.g. reads.sql=replicas, stock-level=\'host=standby target_session_attrs=standby\' (repeatable; README: Routing to standbys)' },
  staleness: { type: 'boolean', plan: 'staleness', default: false, capacity: 'refused', describe: 'with --route: writers stamp a marker in table pgload_staleness after each commit and routed reads check it: how far behind each read was, and read-your-writes violations' },
  grace: { alias: 'graceful-stop', type: 'string', plan: 'graceS', default: 10, shown: true, describe: 'once the run stops (end of --duration, Ctrl-C, SIGTERM), transactions in flight get this long to finish; then they are cancelled and counted as unfinished: 10s, 500ms, 0' },
  'transaction-timeout': { type: 'string', plan: 'transactionTimeoutS', default: 0, shown: 'none', describe: 'cancel any transaction running longer than this, counted as failed (TRANSACTION_TIMEOUT): 5s, 500ms' },
  'exit-on-abort': { type: 'boolean', plan: 'exitOnAbort', default: false, describe: 'stop the whole run at the first aborted client or the first transaction failed by an error other than a serialization failure or deadlock (those are retried within --max-tries and never stop it)' },
  scenarios: { type: 'string', capacity: 'no', describe: 'run several loads at once from a YAML or JSON file: each scenario its own workload, load model, start and duration within the run (README, "Several loads in one run")' },
  out: { alias: 'o', type: 'string', plan: 'out', shown: './pgload-results/<UTC time>-<workload>.json', describe: 'results file' },
  label: { type: 'string', plan: 'label', shown: 'the workload and the options that differ', describe: 'name of the run in reports and comparisons, stored in the results file' },
  json: { type: 'boolean', capacity: 'no', describe: 'print the results document on stdout instead of the summary' },
  report: { type: 'boolean', describe: 'write the HTML report next to the results file' },
  threshold: { type: 'string', array: true, plan: 'thresholds', capacity: 'refused', describe: 'pass/fail criterion checked at the end, k6 syntax, e.g. \'latency: p(99) < 50ms\' (exit 99 when one fails)' },
  store: { type: 'boolean', plan: 'store', default: false, describe: 'store the run in the results database once its file is written (docs/results-database.md)' },
  'results-url': { type: 'string', plan: 'resultsUrl', shown: 'pgload_results on the embedded server', describe: 'with --store, the results database: libpq URI or key=value string' },
  interval: { type: 'string', plan: 'intervalS', default: 1, shown: '1s', describe: 'length of each entry of the time series: seconds or a duration, 500ms, 2s' },
  'jit-warmup': { type: 'boolean', hidden: true },
  cold: { type: 'boolean', plan: 'cold', default: false, capacity: 'refused', describe: 'cold start: restart the server before the measured run (the embedded one itself, others with --restart-command) and, as root on the server\'s machine, drop the OS page cache; measured from the start unless --warmup is given' },
  'restart-command': { type: 'string', plan: 'restartCommand', capacity: 'no', describe: 'with --cold: shell command that restarts a server that is not the embedded one, e.g. \'sudo systemctl restart postgresql\'' },
  'keep-page-cache': { type: 'boolean', plan: 'keepPageCache', default: false, capacity: 'no', describe: 'with --cold: restart only, leave the OS page cache as it is' },
  'pooler-admin': { type: 'string', plan: 'poolerAdmin', shown: 'found on --url\'s host and port', capacity: 'no', describe: 'the PgBouncer admin console to read each interval (SHOW POOLS, SHOW STATS): libpq URI or key=value string, database pgbouncer unless it names another; off: none' },
  'wait-sampling': { type: 'string', plan: 'waitSamplingHz', default: 50, shown: true, describe: 'samples per second of the wait events of the run\'s own backends (pg_stat_activity) during the measured window, or off' },
  'explain-slowest': { type: 'string', plan: 'explainSlowest', default: 0, shown: 'off', capacity: 'no', describe: 'after the measured window, replay the N slowest transactions of each type under EXPLAIN (ANALYZE, BUFFERS) inside a transaction that is rolled back, and keep their plans' },
  'server-stats': { type: 'boolean', plan: 'serverStats', default: true, shown: true, describe: 'sample server statistics during the run (--no-server-stats to disable)' },
  'server-host-stats': { type: 'boolean', plan: 'serverHostStats', shown: 'on for the embedded server, else off', describe: 'with the server statistics: the server host\'s CPU (user, system, iowait, steal) and its data directory\'s disk per sample, from /proc (Linux); only when the server runs on this machine, else said why' },
  builtin: { alias: 'b', type: 'string', array: true, describe: 'pgbench built-in script name[@weight]: tpcb-like, simple-update, select-only; "list" lists them' },
  file: { alias: 'f', type: 'string', array: true, describe: 'pgbench script file[@weight]' },
  'select-only': { alias: 'S', type: 'count', describe: 'same as -b select-only (each -S adds one script)' },
  'skip-some-updates': { alias: 'N', type: 'count', describe: 'same as -b simple-update (each -N adds one script)' },
  define: { alias: 'D', type: 'string', array: true, describe: 'script variable name=value' },
  scale: { alias: 's', type: 'string', describe: 'tpcb: load pgbench\'s tables at this scale when they are missing (e.g. on the embedded server), else use the loaded scale with pgbench\'s warning; scripts: the value of :scale (detected from pgbench_branches when not given)' },
  vacuum: { type: 'boolean', shown: 'true', describe: 'vacuum pgbench_branches and pgbench_tellers and truncate pgbench_history before the run, as pgbench does (--no-vacuum to skip)' },
  n: { type: 'boolean', describe: 'same as --no-vacuum (pgbench -n)' },
  'report-per-command': { alias: 'r', type: 'boolean', describe: 'report latencies, failures and retries per script command' },
  'failures-detailed': { type: 'boolean', plan: 'failuresDetailed', default: false, describe: 'report serialization and deadlock failures separately' },
  'verbose-errors': { type: 'boolean', plan: 'verboseErrors', default: false, describe: 'print every retried error' },
  log: { alias: 'l', type: 'boolean', capacity: 'no', describe: 'write pgbench-format per-transaction logs' },
  'aggregate-interval': { type: 'string', capacity: 'no', describe: 'seconds; with --log, write pgbench-format aggregated lines instead' },
  'sampling-rate': { type: 'string', capacity: 'no', describe: 'fraction of transactions written to the --log file, 0 < r <= 1' },
  'log-prefix': { type: 'string', shown: 'pgbench_log', capacity: 'no', describe: 'prefix of --log files' },
  'show-script': { type: 'string', capacity: 'no', describe: 'print a built-in script and exit' },
  shard: { type: 'string', plan: 'shard', capacity: 'refused', describe: 'run shard K of N of one run spread over several machines or processes (K counted from 0; shard 0 coordinates): 0/4 .. 3/4 (docs/shards.md)' },
  shards: { type: 'string', plan: 'shards', capacity: 'refused', describe: 'the run has N shards; this one is K = $JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) unless --shard says' },
  'run-id': { type: 'string', plan: 'runId', shown: 'derived from the command', capacity: 'no', describe: 'with --shard(s): the id all shards of one run share; two sharded runs of the same command at once need different ones' },
  'shard-timeout': { type: 'string', plan: 'shardTimeout', shown: '60s', capacity: 'no', describe: 'with --shard(s): how long the shards wait for each other at the start, then fail: 60s, 5m' },
  jobs: { alias: ['j', 'threads'], type: 'string', plan: 'jobs', default: 1, shown: true, capacity: 'refused', describe: 'worker threads, each with its own event loop, connections and part of the terminals' },
  host: { alias: 'h', type: 'string', describe: 'server host (pgbench -h); instead of --url' },
  port: { alias: 'p', type: 'string', describe: 'server port (pgbench -p); instead of --url' },
  username: { alias: 'U', type: 'string', describe: 'user name (pgbench -U); instead of --url' },
  dbname: { alias: 'd', type: 'string', describe: 'database (pgbench -d); instead of --url' },
  'progress-server': { type: 'string', plan: 'progressServer', shown: 'on', describe: 'with --progress: the server\'s side of each period on a second line (commits, WAL, blocks, cache hits, backends, waits): on or off' },
  dashboard: { type: 'string', plan: 'dashboard', capacity: 'no', describe: 'serve a live dashboard of the run (the report\'s charts, growing) at HOST:PORT, then the final report [default address: 127.0.0.1:5665]' },
  'dashboard-out': { type: 'string', plan: 'dashboardOut', capacity: 'no', describe: 'with --dashboard: also save the final page to this HTML file' },
  'dashboard-keep': { type: 'string', shown: 'forever when stdout is a terminal and CI is not set, else 0', capacity: 'no', describe: 'with --dashboard: how long the final report stays served once the results are written: a duration, 0, or forever (until Ctrl-C)' },
  metrics: { type: 'string', plan: 'metrics', capacity: 'no', describe: 'serve Prometheus metrics at http://HOST:PORT/metrics during the run (docs/live.md)' },
  'metrics-push': { type: 'string', plan: 'metricsPush', capacity: 'no', describe: 'push the same metrics to a Prometheus remote-write receiver at each interval and at the end: http://HOST:9090/api/v1/write (user:password@ for basic auth; docs/live.md)' },
  'metrics-push-header': { type: 'string', plan: 'metricsPushHeaders', capacity: 'no', describe: 'with --metrics-push: a header sent with each push, \'Name: value\' (repeatable), e.g. \'Authorization: Bearer TOKEN\'' },
  'progress-timestamp': { type: 'boolean', plan: 'progressTimestamp', describe: 'with --progress, show Unix time instead of the elapsed time' },
  'vacuum-all': { alias: 'v', type: 'boolean', describe: 'pgbench -v: also vacuum analyze pgbench_accounts before the run (ignored with -n, as pgbench does)' }
})

/**
 * Defaults of a run that no option sets: a library plan may give them.
 * @type {Readonly<Record<string, any>>}
 */
export const PLAN_ONLY_DEFAULTS = Object.freeze({
  writeFile: true // write the results document (to `out`, else ./pgload-results/<time>-<workload>.json)
})

/** Units of the plan keys whose shown default needs one. */
const SHOWN_UNIT = { graceS: 's', reconnectWindowS: 's' }

/**
 * The yargs definition of an entry: its help text ends with its default, from the table.
 * @param {RunOptionEntry} entry
 * @returns {import('yargs').Options}
 */
export function yargsOption (entry) {
  const { plan, default: value, shown, capacity, ...def } = entry
  if (shown === undefined) return def
  const text = shown === true ? `${value}${SHOWN_UNIT[plan] ?? ''}` : shown
  return { ...def, describe: `${def.describe ?? ''} [default: ${text}]`.trimStart() }
}

/**
 * The plan's defaults from the table (every entry with a plan key and a default) and those no option sets.
 * @returns {Record<string, any>}
 */
export function planDefaults () {
  const out = {}
  for (const entry of Object.values(RUN_OPTION_TABLE)) {
    if (entry.plan !== undefined && entry.default !== undefined) out[entry.plan] = entry.default
  }
  return { ...out, ...PLAN_ONLY_DEFAULTS }
}

/**
 * The options whose value goes into the plan input under its plan key, as yargs names them (camelCase): [argv key, plan key].
 * @returns {[string, string][]}
 */
export function planKeys () {
  return Object.entries(RUN_OPTION_TABLE)
    .filter(([, e]) => e.plan !== undefined)
    .map(([name, e]) => [name.replace(/-(\w)/g, (_, c) => c.toUpperCase()), e.plan])
}

/**
 * capacity's view of the run options: those it takes as they are, and those it refuses.
 * @returns {{ taken: string[], refused: string[] }}
 */
export function capacityOptionNames () {
  const entries = Object.entries(RUN_OPTION_TABLE)
  return {
    taken: entries.filter(([, e]) => e.capacity === undefined).map(([n]) => n),
    refused: entries.filter(([, e]) => e.capacity === 'refused').map(([n]) => n)
  }
}
