// The options of `pgload run` as yargs reads them (--help shows these texts), and the pgbench
// options it refuses with a reason instead of "Unknown argument".

/** @type {Record<string, import('yargs').Options>} */
export const RUN_OPTIONS = {
  url: { type: 'string', describe: 'server to test: libpq URI or key=value string (default: PG* variables, else the embedded server)' },
  clients: { alias: 'c', type: 'string', describe: 'simulated clients (terminals) [default: 1; tpcc: 10 per warehouse]' },
  connections: { type: 'string', describe: 'database connections shared by the clients [default: one per client; at most 32 with think time]' },
  duration: { alias: 'T', type: 'string', describe: 'measured duration: 30s, 10m, 1h' },
  transactions: { alias: 't', type: 'string', describe: 'transactions per client (pgbench -t) [default: 10 when no duration]' },
  rate: { alias: 'R', type: 'string', describe: 'target transactions per second, Poisson arrivals; latency counts from the scheduled time' },
  'latency-limit': { alias: 'L', type: 'string', describe: 'ms; with --rate, transactions already later than this are skipped; others above it are counted as late' },
  stages: { type: 'string', describe: 'load profile of arrival rates, k6 syntax DUR:RATE,...: the rate ramps linearly to each target (e.g. 30s:500,2m:5000,30s:0); the run lasts their sum' },
  'max-queue': { type: 'string', describe: 'with --stages: arrivals that may wait for a free terminal; more are dropped and counted [default: 1000]' },
  'clients-stages': { type: 'string', describe: 'closed-model profile DUR:N,...: N active terminals from each stage\'s start, N~ ramping to N over the stage (e.g. 1m:8,1m:16,2m:64~)' },
  ramp: { type: 'string', describe: 'closed model: start the terminals evenly over this long (e.g. 2m), each then after its own keying time' },
  'think-time': { type: 'string', describe: 'think time after each transaction: fixed:MS, uniform:MIN-MAX, exp:MEAN[:CAP] (ms)' },
  warmup: { type: 'string', describe: 'duration excluded from all statistics, before the measured duration' },
  progress: { alias: 'P', type: 'string', describe: 'print a progress line every N seconds' },
  seed: { alias: 'random-seed', type: 'string', describe: 'random seed: an unsigned integer, time or rand [default: time]' },
  protocol: { alias: 'M', type: 'string', describe: 'query protocol: simple, extended, prepared [default: prepared]' },
  connect: { alias: 'C', type: 'boolean', describe: 'open a new connection for every transaction (pgbench -C); its time counts in the latency' },
  driver: { type: 'string', describe: 'run connections: lean (pgload\'s own protocol path, default) or pg (node-postgres)' },
  'max-tries': { type: 'string', describe: 'tries per transaction on serialization failures and deadlocks (0 = unlimited)' },
  grace: { alias: 'graceful-stop', type: 'string', describe: 'once the run stops (end of --duration, Ctrl-C, SIGTERM), transactions in flight get this long to finish; then they are cancelled and counted as unfinished: 10s, 500ms, 0 [default: 10s]' },
  'transaction-timeout': { type: 'string', describe: 'cancel any transaction running longer than this, counted as failed (TRANSACTION_TIMEOUT): 5s, 500ms [default: none]' },
  'exit-on-abort': { type: 'boolean', describe: 'stop the whole run at the first aborted client or failed transaction' },
  out: { alias: 'o', type: 'string', describe: 'results file [default: ./pgload-results/<UTC time>-<workload>.json]' },
  label: { type: 'string', describe: 'name of the run in reports and comparisons, stored in the results file [default: the workload and the options that differ]' },
  json: { type: 'boolean', describe: 'print the results document on stdout instead of the summary' },
  report: { type: 'boolean', describe: 'write the HTML report next to the results file' },
  threshold: { type: 'string', array: true, describe: "pass/fail criterion checked at the end, k6 syntax, e.g. 'latency: p(99) < 50ms' (exit 99 when one fails)" },
  store: { type: 'boolean', describe: 'store the run in the results database once its file is written (docs/results-database.md)' },
  'results-url': { type: 'string', describe: 'with --store, the results database: libpq URI or key=value string [default: pgload_results on the embedded server]' },
  interval: { type: 'string', describe: 'seconds per entry of the time series [default: 1]' },
  // gone: it changed no 10-second run's tps or p99 beyond the noise; still accepted, as it asks for nothing now
  'jit-warmup': { type: 'boolean', hidden: true },
  cold: { type: 'boolean', describe: 'cold start: restart the server before the measured run (the embedded one itself, others with --restart-command) and, as root on the server\'s machine, drop the OS page cache; measured from the start unless --warmup is given' },
  'restart-command': { type: 'string', describe: 'with --cold: shell command that restarts a server that is not the embedded one, e.g. \'sudo systemctl restart postgresql\'' },
  'keep-page-cache': { type: 'boolean', describe: 'with --cold: restart only, leave the OS page cache as it is' },
  'server-stats': { type: 'boolean', describe: 'sample server statistics during the run (--no-server-stats to disable) [default: true]' },
  builtin: { alias: 'b', type: 'string', array: true, describe: 'pgbench built-in script name[@weight]: tpcb-like, simple-update, select-only; "list" lists them' },
  file: { alias: 'f', type: 'string', array: true, describe: 'pgbench script file[@weight]' },
  'select-only': { alias: 'S', type: 'count', describe: 'same as -b select-only (each -S adds one script)' },
  'skip-some-updates': { alias: 'N', type: 'count', describe: 'same as -b simple-update (each -N adds one script)' },
  define: { alias: 'D', type: 'string', array: true, describe: 'script variable name=value' },
  scale: { alias: 's', type: 'string', describe: 'value of :scale for custom scripts (detected for the built-ins)' },
  vacuum: { type: 'boolean', describe: 'vacuum pgbench_branches and pgbench_tellers and truncate pgbench_history before the run, as pgbench does (--no-vacuum to skip) [default: true]' },
  n: { type: 'boolean', describe: 'same as --no-vacuum (pgbench -n)' },
  'report-per-command': { alias: 'r', type: 'boolean', describe: 'report latencies, failures and retries per script command' },
  'failures-detailed': { type: 'boolean', describe: 'report serialization and deadlock failures separately' },
  'verbose-errors': { type: 'boolean', describe: 'print every retried error' },
  log: { alias: 'l', type: 'boolean', describe: 'write pgbench-format per-transaction logs' },
  'aggregate-interval': { type: 'string', describe: 'seconds; with --log, write pgbench-format aggregated lines instead' },
  'sampling-rate': { type: 'string', describe: 'fraction of transactions written to the --log file, 0 < r <= 1' },
  'log-prefix': { type: 'string', describe: 'prefix of --log files [default: pgbench_log]' },
  'show-script': { type: 'string', describe: 'print a built-in script and exit' },
  shard: { type: 'string', describe: 'run shard K of N of one run spread over several machines or processes (K counted from 0; shard 0 coordinates): 0/4 .. 3/4 (docs/shards.md)' },
  shards: { type: 'string', describe: 'the run has N shards; this one is K = $JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) unless --shard says' },
  'run-id': { type: 'string', describe: 'with --shard(s): the id all shards of one run share; two sharded runs of the same command at once need different ones [default: derived from the command]' },
  'shard-timeout': { type: 'string', describe: 'with --shard(s): how long the shards wait for each other at the start, then fail: 60s, 5m [default: 60s]' },
  jobs: { alias: ['j', 'threads'], type: 'string', describe: 'worker threads, each with its own event loop, connections and part of the terminals [default: 1]' },
  host: { alias: 'h', type: 'string', describe: 'server host (pgbench -h); instead of --url' },
  port: { alias: 'p', type: 'string', describe: 'server port (pgbench -p); instead of --url' },
  username: { alias: 'U', type: 'string', describe: 'user name (pgbench -U); instead of --url' },
  dbname: { alias: 'd', type: 'string', describe: 'database (pgbench -d); instead of --url' },
  'progress-server': { type: 'string', describe: 'with --progress: the server\'s side of each period on a second line (commits, WAL, blocks, cache hits, backends, waits): on or off [default: on]' },
  dashboard: { type: 'string', describe: 'serve a live dashboard of the run (the report\'s charts, growing) at HOST:PORT, then the final report [default address: 127.0.0.1:5665]' },
  'dashboard-out': { type: 'string', describe: 'with --dashboard: also save the final page to this HTML file' },
  'dashboard-keep': { type: 'string', describe: 'with --dashboard: how long the final report stays served once the results are written: a duration, 0, or forever (until Ctrl-C) [default: forever when stdout is a terminal and CI is not set, else 0]' },
  metrics: { type: 'string', describe: 'serve Prometheus metrics at http://HOST:PORT/metrics during the run (docs/live.md)' },
  'metrics-push': { type: 'string', describe: 'push the same metrics to a Prometheus remote-write receiver at each interval and at the end: http://HOST:9090/api/v1/write (user:password@ for basic auth; docs/live.md)' },
  'metrics-push-header': { type: 'string', describe: "with --metrics-push: a header sent with each push, 'Name: value' (repeatable), e.g. 'Authorization: Bearer TOKEN'" },
  'progress-timestamp': { type: 'boolean', describe: 'with --progress, show Unix time instead of the elapsed time' },
  'vacuum-all': { alias: 'v', type: 'boolean', describe: 'pgbench -v: also vacuum analyze pgbench_accounts before the run (ignored with -n, as pgbench does)' },
}

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
