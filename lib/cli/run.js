// `pgload run`: turn argv into benchmark options, run, print progress and the summary.

import { readFile } from 'node:fs/promises'
import { hideBin } from 'yargs/helpers'
import { PgloadError, formatServerError } from '../errors.js'
import { parseDurationS, parseInteger, parseNumber, parseOutputPath } from '../options/parse.js'
import { parseDistribution } from '../options/distribution.js'
import { runBenchmark } from '../benchmark.js'
import { workloads, workloadNames, loadWorkload } from '../../workloads/index.js'
import { attachProgress } from '../output/run-progress.js'
import { formatSummary } from '../output/summary.js'
import { createLogger } from '../log.js'
import { writeResults } from '../results/write.js'
import { redact } from '../server/target.js'
import { PROTOCOLS } from '../db/connection.js'
import { formatServerStatsSummary } from '../server/stats-sampler.js'
import { TOOL_VERSION } from '../version.js'
import { checkScriptSet, parseDefine } from '../script/options.js'

/**
 * Defaults, each with its unit. Options not given on the command line take these values;
 * connection settings come from PG* variables first (lib/server/target.js).
 */
export const RUN_DEFAULTS = {
  clients: 1, // terminals (pgbench -c); TPC-C fixes 10 per warehouse
  transactionsPerClient: 10, // pgbench -t when neither -t nor -T is given (script workloads)
  workloadDurationS: { tpcc: 60 }, // seconds, workloads whose default is a duration
  protocol: 'prepared', // simple | extended | prepared
  driver: 'lean', // lean (pg-protocol on the socket) | pg (node-postgres Client.query)
  maxTries: 1, // tries per transaction (0 = unlimited)
  intervalS: 1, // seconds per entry of the time series
  warmupS: 0, // seconds excluded from all statistics
  graceS: 10 // seconds transactions in flight may take to finish once the run stops
}

/**
 * pgbench options that `pgload run` refuses, each with its reason: pgbench's init-only options
 * ("cannot be used in benchmarking mode", as pgbench says) and features pgload does not have.
 */
const INIT_ONLY = {
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
const UNSUPPORTED = {
  debug: { type: 'boolean', reason: '--debug is not supported: use --verbose for pgload\'s debug log' }
}
const REFUSED_OPTIONS = {
  ...INIT_ONLY,
  ...Object.fromEntries(Object.entries(UNSUPPORTED).map(([k, { reason, ...def }]) => [k, def]))
}
const DRIVERS = ['lean', 'pg']
const workloadModules = Object.fromEntries(await Promise.all(workloadNames.map(async (n) => [n, await loadWorkload(n)])))

/** @type {import('yargs').CommandModule} */
export const runCommand = {
  command: 'run [workload..]',
  describe: 'Run a benchmark: a built-in workload (tpcb, tpcc) or pgbench script files (file.sql[@weight])',
  builder (y) {
    y.positional('workload', { describe: `${workloadNames.join(', ')}, or script files (name.sql[@weight])`, type: 'string', array: true })
      .option('url', { type: 'string', describe: 'server to test: libpq URI or key=value string (default: PG* variables, else the embedded server)' })
      .option('clients', { alias: 'c', type: 'string', describe: 'simulated clients (terminals) [default: 1; tpcc: 10 per warehouse]' })
      .option('connections', { type: 'string', describe: 'database connections shared by the clients [default: one per client; at most 32 with think time]' })
      .option('duration', { alias: 'T', type: 'string', describe: 'measured duration: 30s, 10m, 1h' })
      .option('transactions', { alias: 't', type: 'string', describe: 'transactions per client (pgbench -t) [default: 10 when no duration]' })
      .option('rate', { alias: 'R', type: 'string', describe: 'target transactions per second, Poisson arrivals; latency counts from the scheduled time' })
      .option('latency-limit', { alias: 'L', type: 'string', describe: 'ms; with --rate, transactions already later than this are skipped; others above it are counted as late' })
      .option('think-time', { type: 'string', describe: 'think time after each transaction: fixed:MS, uniform:MIN-MAX, exp:MEAN[:CAP] (ms)' })
      .option('warmup', { type: 'string', describe: 'duration excluded from all statistics, before the measured duration' })
      .option('progress', { alias: 'P', type: 'string', describe: 'print a progress line every N seconds' })
      .option('seed', { alias: 'random-seed', type: 'string', describe: 'random seed: an unsigned integer, time or rand [default: time]' })
      .option('protocol', { alias: 'M', type: 'string', describe: 'query protocol: simple, extended, prepared [default: prepared]' })
      .option('connect', { alias: 'C', type: 'boolean', describe: 'open a new connection for every transaction (pgbench -C); its time counts in the latency' })
      .option('driver', { type: 'string', describe: 'run connections: lean (pgload\'s own protocol path, default) or pg (node-postgres)' })
      .option('max-tries', { type: 'string', describe: 'tries per transaction on serialization failures and deadlocks (0 = unlimited)' })
      .option('grace', { alias: 'graceful-stop', type: 'string', describe: 'once the run stops (end of --duration, Ctrl-C, SIGTERM), transactions in flight get this long to finish; then they are cancelled and counted as unfinished: 10s, 500ms, 0 [default: 10s]' })
      .option('transaction-timeout', { type: 'string', describe: 'cancel any transaction running longer than this, counted as failed (TRANSACTION_TIMEOUT): 5s, 500ms [default: none]' })
      .option('exit-on-abort', { type: 'boolean', describe: 'stop the whole run at the first aborted client or failed transaction' })
      .option('out', { alias: 'o', type: 'string', describe: 'results file [default: ./pgload-results/<UTC time>-<workload>.json]' })
      .option('label', { type: 'string', describe: 'name of the run in reports and comparisons, stored in the results file [default: the workload and the options that differ]' })
      .option('json', { type: 'boolean', describe: 'print the results document on stdout instead of the summary' })
      .option('report', { type: 'boolean', describe: 'write the HTML report next to the results file' })
      .option('threshold', { type: 'string', array: true, describe: "pass/fail criterion checked at the end, k6 syntax, e.g. 'latency: p(99) < 50ms' (exit 99 when one fails)" })
      .option('interval', { type: 'string', describe: 'seconds per entry of the time series [default: 1]' })
      // gone: it changed no 10-second run's tps or p99 beyond the noise; still accepted, as it asks for nothing now
      .option('jit-warmup', { type: 'boolean', hidden: true })
      .option('server-stats', { type: 'boolean', describe: 'sample server statistics during the run (--no-server-stats to disable) [default: true]' })
      .option('builtin', { alias: 'b', type: 'string', array: true, describe: 'pgbench built-in script name[@weight]: tpcb-like, simple-update, select-only; "list" lists them' })
      .option('file', { alias: 'f', type: 'string', array: true, describe: 'pgbench script file[@weight]' })
      .option('select-only', { alias: 'S', type: 'count', describe: 'same as -b select-only (each -S adds one script)' })
      .option('skip-some-updates', { alias: 'N', type: 'count', describe: 'same as -b simple-update (each -N adds one script)' })
      .option('define', { alias: 'D', type: 'string', array: true, describe: 'script variable name=value' })
      .option('scale', { alias: 's', type: 'string', describe: 'value of :scale for custom scripts (detected for the built-ins)' })
      .option('vacuum', { type: 'boolean', describe: 'vacuum pgbench_branches and pgbench_tellers and truncate pgbench_history before the run, as pgbench does (--no-vacuum to skip) [default: true]' })
      .option('n', { type: 'boolean', describe: 'same as --no-vacuum (pgbench -n)' })
      .option('report-per-command', { alias: 'r', type: 'boolean', describe: 'report latencies, failures and retries per script command' })
      .option('failures-detailed', { type: 'boolean', describe: 'report serialization and deadlock failures separately' })
      .option('verbose-errors', { type: 'boolean', describe: 'print every retried error' })
      .option('log', { alias: 'l', type: 'boolean', describe: 'write pgbench-format per-transaction logs' })
      .option('aggregate-interval', { type: 'string', describe: 'seconds; with --log, write pgbench-format aggregated lines instead' })
      .option('sampling-rate', { type: 'string', describe: 'fraction of transactions written to the --log file, 0 < r <= 1' })
      .option('log-prefix', { type: 'string', describe: 'prefix of --log files [default: pgbench_log]' })
      .option('show-script', { type: 'string', describe: 'print a built-in script and exit' })
      .option('jobs', { alias: 'j', type: 'string', describe: 'accepted for pgbench compatibility: pgload uses one event loop' })
      .option('host', { alias: 'h', type: 'string', describe: 'server host (pgbench -h); instead of --url' })
      .option('port', { alias: 'p', type: 'string', describe: 'server port (pgbench -p); instead of --url' })
      .option('username', { alias: 'U', type: 'string', describe: 'user name (pgbench -U); instead of --url' })
      .option('dbname', { alias: 'd', type: 'string', describe: 'database (pgbench -d); instead of --url' })
      .option('progress-timestamp', { type: 'boolean', describe: 'with --progress, show Unix time instead of the elapsed time' })
      .option('vacuum-all', { alias: 'v', type: 'boolean', describe: 'pgbench -v: also vacuum analyze pgbench_accounts before the run (ignored with -n, as pgbench does)' })
      .option('V', { type: 'boolean', describe: 'print pgload\'s version and exit (pgbench -V)' })
    // pgbench options pgload refuses with a clear message instead of "Unknown argument".
    for (const [name, def] of Object.entries(REFUSED_OPTIONS)) y.option(name, { ...def, hidden: true })
    for (const mod of Object.values(workloadModules)) {
      for (const [name, def] of Object.entries(mod?.runOptions ?? {})) y.option(name, def)
    }
    return y
  },
  async handler (argv) {
    if (argv.V) {
      process.stdout.write(`pgload ${TOOL_VERSION}\n`)
      return
    }
    const log = createLogger(argv)
    if (argv.builtin?.includes('list') || argv.showScript !== undefined) {
      const { listBuiltins, findBuiltin } = await import('../script/index.js')
      if (argv.showScript !== undefined) {
        const b = findBuiltin(argv.showScript)
        process.stderr.write(`-- ${b.name}: ${b.desc}\n${b.script}\n`)
      } else {
        process.stderr.write(listBuiltins())
      }
      return
    }
    const options = await runOptionsFromArgv(argv, { rawArgs: hideBin(process.argv) })
    let progress = null
    let interrupts = 0
    let terminated = false // SIGTERM: as the first Ctrl-C, and the exit status says so (143)
    const onSignal = (signal) => {
      interrupts++
      if (signal === 'SIGTERM') terminated = true
      if (!currentRun) {
        process.stderr.write('\npgload: interrupted before the run started\n')
        process.exit(signal === 'SIGTERM' ? 143 : 130)
      }
      if (interrupts === 1) {
        process.stderr.write('\npgload: stopping: finishing transactions in flight (Ctrl-C again to abort at once)\n')
        currentRun.stop('interrupted')
      } else {
        process.stderr.write('\npgload: aborting; writing what was measured\n')
        currentRun.interrupted = true
        currentRun.abort('interrupted')
      }
    }
    let currentRun = null
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    try {
      const { results, file, exitCode } = await runBenchmark(options, {
        log,
        onPhase (phase, info) {
          if (phase === 'seed') process.stderr.write(`pgload: setting random seed to ${info.seed}\n`)
          if (phase === 'connected') process.stderr.write(`pgload: ${info.embedded ? 'embedded ' : ''}PostgreSQL ${info.serverVersion.version} at ${info.target}\n`)
          if (phase === 'loading') process.stderr.write(`pgload: the ${info.workload} tables are missing in the embedded server: loading them first (pgload init ${info.workload})\n`)
          if (phase === 'loaded') process.stderr.write(`pgload: loaded in ${info.steps.reduce((t, s) => t + s.seconds, 0).toFixed(2)} s (${info.steps.map((s) => `${s.name} ${s.seconds.toFixed(2)} s`).join(', ')})\n`)
          if (phase === 'settled') process.stderr.write(`pgload: vacuumed${info.checkpointed ? ' and checkpointed' : `; CHECKPOINT refused (${info.checkpointRefused}): the load's dirty pages may be written during the run`} in ${info.settleS.toFixed(2)} s before the run\n`)
          if (phase === 'running') process.stderr.write(`pgload: running ${info.terminals} terminal${info.terminals === 1 ? '' : 's'} on ${info.connections} connection${info.connections === 1 ? '' : 's'}\n`)
        },
        onRun (run) {
          currentRun = run
          if (options.progressS > 0) progress = attachProgress(run, { everyS: options.progressS, ...(argv.progressTimestamp ? timestampedStderr() : {}) })
          run.on('client-abort', ({ error }) => process.stderr.write(`pgload: error: ${error.message}\n`))
          run.on('retryable-error', ({ terminalId, error, tries, maxTries, willRetry }) => {
            const where = error.commandIndex === undefined ? '' : ` in command ${error.commandIndex} (SQL) of script ${error.scriptIndex ?? 0}`
            process.stderr.write(`pgload: client ${terminalId} got an error${where}; ${formatServerError(error)}\n`)
            process.stderr.write(`pgload: client ${terminalId} ${willRetry ? 'repeats the transaction after the error' : 'ends the failed transaction'} (try ${tries}/${maxTries || 'unlimited'})\n`)
          })
          run.on('transaction-error', ({ terminalId, message }) => log.warn(`client ${terminalId}: ${message.split('\n')[0]}`))
          // as libpq's default notice processor: the server's text on stderr
          run.on('notice', (n) => process.stderr.write(`${formatServerError(n)}\n`))
          run.on('prepare-error', ({ error }) => process.stderr.write(`pgload: error: ${formatServerError(error)}\n`))
          let reported = false
          run.on('connection-error', ({ error }) => {
            if (!reported) process.stderr.write(`pgload: cannot reconnect to the server (${error.message.split('\n')[0]}); retrying for up to ${run.serverLostS} s\n`)
            reported = true
          })
          run.on('internal-error', (err) => process.stderr.write(`pgload: internal error: ${err.stack}\n`))
          run.on('cancelled', ({ reason, count, graceS }) => {
            if (reason === 'grace') process.stderr.write(`pgload: ${count} transaction${count === 1 ? '' : 's'} still running ${graceS} s after the end: cancelled\n`)
          })
        }
      })
      progress?.close()
      let thresholdsFailed = false
      if (options.thresholds.length) {
        const { evaluateThresholds } = await import('../compare/thresholds.js')
        results.thresholds = evaluateThresholds(results, options.thresholds)
        thresholdsFailed = results.thresholds.some((t) => !t.pass)
        if (file) await writeResults(file, results)
      }
      if (argv.json) {
        process.stdout.write(JSON.stringify(results, null, 1) + '\n')
      } else {
        process.stdout.write(formatSummary(results))
        const server = formatServerStatsSummary(results.serverStats, results.run)
        if (server) process.stdout.write('\n' + server + '\n')
        for (const t of results.thresholds ?? []) {
          process.stdout.write(`${t.pass ? '✓' : '✗'} ${t.expr}: ${t.actual === null ? 'no data' : `${t.actual}${t.unit ?? ''}`}${t.reason ? ` (${t.reason})` : ''}\n`)
        }
      }
      if (file) process.stderr.write(`results written to ${file}\n`)
      if (argv.report && file) {
        const { writeHtmlReport } = await import('../report/index.js')
        const html = await writeHtmlReport(results, file.replace(/\.json$/, '') + '.html')
        process.stderr.write(`report written to ${html}\n`)
      }
      if (exitCode === 2) {
        if (results.run.abortReason === 'connection-lost') process.stderr.write('pgload: error: the server could not be reached again: the run ended early\n')
        if (results.run.abortReason === 'exit-on-abort') process.stderr.write('pgload: error: Run was aborted due to an error in thread 0\n')
        process.stderr.write('pgload: error: Run was aborted; the above results are incomplete.\n')
        process.exitCode = 2
      } else if (thresholdsFailed) {
        process.stderr.write('pgload: a threshold failed\n')
        process.exitCode = 99
      } else if (results.run.interrupted) {
        process.stderr.write(`pgload: the run was ${terminated ? 'terminated' : 'interrupted'}; the results cover what was measured\n`)
        process.exitCode = terminated ? 143 : 130
      }
    } finally {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
  }
}

/**
 * Validate argv once and turn it into BenchmarkOptions.
 * @param {Record<string, any>} argv
 * @returns {Promise<import('../benchmark.js').BenchmarkOptions>}
 */
export async function runOptionsFromArgv (argv, { rawArgs } = {}) {
  const positional = (argv.workload ?? []).map(String)
  const specs = scriptSpecs(argv, rawArgs)
  const files = []
  let workload = 'tpcb'
  for (const p of positional) {
    if (Object.hasOwn(workloads, p)) {
      if (positional.length > 1 && p !== 'tpcb') throw new PgloadError(`workload ${p} cannot be combined with other workloads or scripts`, { code: 'BAD_OPTION' })
      workload = p
    } else if (/\.(sql|pgbench)(@[^@]*)?$/i.test(p) || p.includes('/') || p.includes('@')) {
      files.push(p)
    } else {
      throw new PgloadError(`unknown workload ${JSON.stringify(p)}: valid workloads are ${workloadNames.join(', ')}, or script files ending in .sql`, { code: 'BAD_OPTION' })
    }
  }
  for (const f of files) specs.push({ kind: 'file', spec: f })
  if (workload !== 'tpcb' && specs.length) throw new PgloadError(`--file and --builtin go with tpcb or script files, not with ${workload}`, { code: 'BAD_OPTION' })

  const scripts = []
  if (workload === 'tpcb') {
    const { splitWeight, findBuiltin } = await import('../script/index.js')
    for (const { kind, spec } of specs) {
      const { name, weight } = splitWeight(spec)
      if (kind === 'builtin') {
        scripts.push({ kind, name: findBuiltin(name).name, weight })
        continue
      }
      let bytes
      try {
        bytes = name === '-' ? await readStdin() : await readFile(name)
      } catch (err) {
        throw new PgloadError(`could not read script file ${JSON.stringify(name)}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`, { code: 'BAD_SCRIPT' })
      }
      let text
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
      } catch {
        throw new PgloadError(`script file ${JSON.stringify(name)} is not valid UTF-8`, { code: 'BAD_SCRIPT' })
      }
      scripts.push({ kind: 'file', name, weight, text })
    }
    if (scripts.length === 0) scripts.push({ kind: 'builtin', name: 'tpcb-like', weight: 1 })
    checkScriptSet(scripts)
  }
  const onlyBuiltins = scripts.every((s) => s.kind === 'builtin')
  const name = workload === 'tpcb' && !onlyBuiltins ? 'script' : workload

  // Values first, then combinations, in pgbench's order (it checks values while parsing).
  const clients = argv.clients === undefined ? RUN_DEFAULTS.clients : parseInteger(argv.clients, '--clients', { min: 1 })
  const durationS = argv.duration === undefined ? undefined : parseDurationS(argv.duration, '--duration')
  if (durationS !== undefined && durationS <= 0) throw new PgloadError(`--duration must be positive, got ${JSON.stringify(argv.duration)}`, { code: 'BAD_OPTION' })
  let transactionsPerClient = argv.transactions === undefined ? undefined : parseInteger(argv.transactions, '--transactions', { min: 1 })
  const scale = argv.scale === undefined ? undefined : parseInteger(argv.scale, '--scale', { min: 1 })
  const samplingRate = argv.samplingRate === undefined ? undefined : parseSamplingRate(argv.samplingRate)
  const aggregateIntervalS = argv.aggregateInterval === undefined ? undefined : parseInteger(argv.aggregateInterval, '--aggregate-interval', { min: 1 })
  refuseOptions(argv)
  if (durationS !== undefined && transactionsPerClient !== undefined) throw new PgloadError('specify either a number of transactions (--transactions/-t) or a duration (--duration/-T), not both', { code: 'BAD_OPTION' })
  checkLogOptions(argv, { samplingRate, aggregateIntervalS, durationS })
  if (argv.progressTimestamp && argv.progress === undefined) throw new PgloadError('--progress-timestamp is allowed only under --progress', { code: 'BAD_OPTION' })
  let finalDurationS = durationS
  if (durationS === undefined && transactionsPerClient === undefined) {
    const d = RUN_DEFAULTS.workloadDurationS[workload]
    if (d) finalDurationS = d
    else transactionsPerClient = RUN_DEFAULTS.transactionsPerClient
  }
  const rate = argv.rate === undefined ? 0 : parseNumber(argv.rate, '--rate', { min: 0, exclusiveMin: true })
  const latencyLimitMs = argv.latencyLimit === undefined ? 0 : parseNumber(argv.latencyLimit, '--latency-limit', { min: 0, exclusiveMin: true })
  if (latencyLimitMs > 0 && rate === 0) throw new PgloadError('--latency-limit needs --rate: the limit is measured against the schedule that --rate sets', { code: 'BAD_OPTION' })
  if (argv.thinkTime !== undefined) parseDistribution(argv.thinkTime, '--think-time')
  if (argv.thinkTime !== undefined && rate > 0) throw new PgloadError('--think-time and --rate cannot be combined: --rate already sets when each transaction starts', { code: 'BAD_OPTION' })
  const protocol = argv.protocol ?? RUN_DEFAULTS.protocol
  if (!PROTOCOLS.includes(protocol)) throw new PgloadError(`--protocol must be one of ${PROTOCOLS.join(', ')}, got ${JSON.stringify(protocol)}`, { code: 'BAD_OPTION' })
  if (scripts.some((s) => s.kind === 'file')) {
    // Script mistakes are reported before anything connects.
    const { compileScript } = await import('../script/index.js')
    for (const s of scripts) if (s.kind === 'file') compileScript({ name: s.name, file: s.name, text: s.text, weight: s.weight }, { protocol })
  }
  const driver = argv.driver ?? RUN_DEFAULTS.driver
  if (!DRIVERS.includes(driver)) throw new PgloadError(`--driver must be one of ${DRIVERS.join(', ')}, got ${JSON.stringify(driver)}`, { code: 'BAD_OPTION' })
  const maxTries = argv.maxTries === undefined ? RUN_DEFAULTS.maxTries : parseInteger(argv.maxTries, '--max-tries', { min: 0 })
  if (maxTries === 0 && !latencyLimitMs && finalDurationS === undefined) throw new PgloadError('an unlimited number of transaction tries (--max-tries 0) needs --latency-limit or --duration', { code: 'BAD_OPTION' })
  const connections = argv.connections === undefined ? undefined : parseInteger(argv.connections, '--connections', { min: 1 })
  const progressS = argv.progress === undefined ? 0 : parseInteger(argv.progress, '--progress', { min: 1 })
  const warmupS = argv.warmup === undefined ? RUN_DEFAULTS.warmupS : parseDurationS(argv.warmup, '--warmup')
  const intervalS = argv.interval === undefined ? RUN_DEFAULTS.intervalS : parseNumber(argv.interval, '--interval', { min: 0, exclusiveMin: true })
  const graceS = argv.grace === undefined ? RUN_DEFAULTS.graceS : parseDurationS(argv.grace, '--grace')
  const transactionTimeoutS = argv.transactionTimeout === undefined ? 0 : parseDurationS(argv.transactionTimeout, '--transaction-timeout')
  if (argv.transactionTimeout !== undefined && transactionTimeoutS <= 0) throw new PgloadError(`--transaction-timeout must be positive, got ${JSON.stringify(argv.transactionTimeout)}`, { code: 'BAD_OPTION' })
  if (argv.jobs !== undefined) parseInteger(argv.jobs, '--jobs', { min: 1 })

  const define = {}
  for (const d of argv.define ?? []) {
    const [name, value] = parseDefine(d)
    define[name] = value
  }

  const workloadOptions = {}
  for (const key of Object.keys(workloadModules[workload]?.runOptions ?? {})) {
    const camel = key.replace(/-([a-z])/g, (_, c) => c.toUpperCase())
    if (argv[camel] !== undefined) workloadOptions[camel] = argv[camel]
  }
  Object.assign(workloadOptions, {
    define,
    scale,
    noVacuum: argv.vacuum === false || Boolean(argv.n),
    vacuumAccounts: Boolean(argv.vacuumAll),
    reportPerCommand: Boolean(argv.reportPerCommand),
    verboseErrors: Boolean(argv.verboseErrors),
    failuresDetailed: Boolean(argv.failuresDetailed),
    log: Boolean(argv.log),
    aggregateIntervalS,
    logPrefix: argv.logPrefix,
    samplingRate,
    maxTries
  })

  return {
    workload: name === 'script' ? 'tpcb' : workload,
    resultName: name,
    scripts,
    url: connectionUrl(argv),
    clients,
    connections,
    durationS: finalDurationS,
    transactionsPerClient,
    rate,
    latencyLimitMs,
    thinkTime: argv.thinkTime,
    warmupS,
    intervalS,
    progressS,
    seed: argv.seed,
    protocol,
    driver,
    maxTries,
    exitOnAbort: Boolean(argv.exitOnAbort),
    graceS,
    transactionTimeoutS: transactionTimeoutS || undefined,
    connect: Boolean(argv.connect),
    verboseErrors: Boolean(argv.verboseErrors),
    failuresDetailed: Boolean(argv.failuresDetailed),
    serverStats: argv.serverStats !== false,
    out: parseOutputPath(argv.out, '--out'),
    label: runLabel(argv.label),
    thresholds: await validThresholds(argv.threshold ?? []),
    command: ['pgload', ...process.argv.slice(2)].map(redact).join(' '),
    workloadOptions
  }
}

/**
 * The --label text: one line, not empty, so that legends and tables stay readable.
 * @param {unknown} label
 * @returns {string|undefined}
 */
export function runLabel (label) {
  if (label === undefined) return undefined
  const text = Array.isArray(label) ? label.at(-1) : label
  if (typeof text !== 'string' || text.trim() === '' || /[\r\n]/.test(text) || text.length > 80) {
    throw new PgloadError(`--label must be one line of 1 to 80 characters, got ${JSON.stringify(text)}`, { code: 'BAD_OPTION' })
  }
  return text.trim()
}

const SHORT_WITH_VALUE = new Set('bcdfhjopstwDIFMPRLTU')

/**
 * The scripts of -b, -f, -S and -N in command-line order, as pgbench keeps them (the order
 * numbers the scripts and decides which one a random draw picks). yargs groups each flag's
 * values; rawArgs, when given, restores their order.
 * @param {Record<string, any>} argv
 * @param {string[]} [rawArgs] the arguments after the program name
 * @returns {{ kind: 'builtin'|'file', spec: string }[]}
 */
export function scriptSpecs (argv, rawArgs) {
  const queues = {
    b: (argv.builtin ?? []).map((spec) => ({ kind: 'builtin', spec })),
    S: Array.from({ length: Number(argv.selectOnly ?? 0) }, () => ({ kind: 'builtin', spec: 'select-only' })),
    N: Array.from({ length: Number(argv.skipSomeUpdates ?? 0) }, () => ({ kind: 'builtin', spec: 'simple-update' })),
    f: (argv.file ?? []).map((spec) => ({ kind: 'file', spec }))
  }
  const grouped = [...queues.b, ...queues.S, ...queues.N, ...queues.f]
  const order = rawArgs ? scriptFlagOrder(rawArgs) : null
  if (!order || order.length !== grouped.length) return grouped
  const out = []
  for (const k of order) {
    const next = queues[k].shift()
    if (!next) return grouped // not what yargs saw: keep yargs' grouping
    out.push(next)
  }
  return out
}

/** Which of b, f, S, N each script-adding argument is, in order. */
function scriptFlagOrder (rawArgs) {
  const LONG = { '--builtin': 'b', '--file': 'f', '--select-only': 'S', '--skip-some-updates': 'N' }
  const order = []
  for (let i = 0; i < rawArgs.length; i++) {
    const a = rawArgs[i]
    if (a === '--') break
    if (a.startsWith('--')) {
      const name = a.split('=')[0]
      if (LONG[name]) order.push(LONG[name])
      if ((name === '--builtin' || name === '--file') && !a.includes('=')) i++
      continue
    }
    if (!/^-[A-Za-z]/.test(a)) continue
    for (let j = 1; j < a.length; j++) {
      const c = a[j]
      if ('bfSN'.includes(c)) order.push(c)
      if (SHORT_WITH_VALUE.has(c)) {
        if (j === a.length - 1) i++ // the value is the next argument
        break
      }
    }
  }
  return order
}

/**
 * --url, or pgbench's -h/-p/-U/-d as a key=value connection string (PG* variables fill the rest).
 * @param {Record<string, any>} argv
 * @returns {string|undefined}
 */
export function connectionUrl (argv) {
  const parts = Object.entries({ host: argv.host, port: argv.port, user: argv.username, dbname: argv.dbname }).filter(([, v]) => v !== undefined)
  if (parts.length === 0) return argv.url
  if (argv.url !== undefined) throw new PgloadError(`give either --url or -h/-p/-U/-d, not both (got --url and --${parts[0][0] === 'user' ? 'username' : parts[0][0]})`, { code: 'BAD_OPTION' })
  if (argv.port !== undefined) parseInteger(argv.port, '--port', { min: 1, max: 65535 })
  return parts.map(([k, v]) => `${k}='${String(v).replace(/[\\']/g, (c) => '\\' + c)}'`).join(' ')
}

/** pgbench's init-only options ("cannot be used in benchmarking mode") and what pgload does not have. */
function refuseOptions (argv) {
  // pgbench checks the value of -F while parsing, before the mode
  if (argv.fillfactor !== undefined) parseInteger(argv.fillfactor, '--fillfactor', { min: 10, max: 100 })
  for (const name of Object.keys(INIT_ONLY)) {
    const camel = name.replace(/-([a-z])/g, (_, c) => c.toUpperCase())
    if (argv[camel] === undefined) continue
    const flag = INIT_ONLY[name].alias ? `-${INIT_ONLY[name].alias}/--${name}` : `--${name}`
    throw new PgloadError(`${flag} is an initialization option: it cannot be used in benchmarking mode`, { code: 'BAD_OPTION', hint: name === 'initialize' ? 'pgbench -i is pgload init tpcb' : 'give it to pgload init tpcb' })
  }
  for (const [name, { reason }] of Object.entries(UNSUPPORTED)) if (argv[name] !== undefined) throw new PgloadError(reason, { code: 'BAD_OPTION' })
}

/** pgbench's rules for --log, --sampling-rate, --aggregate-interval and --log-prefix. */
function checkLogOptions (argv, { samplingRate, aggregateIntervalS, durationS }) {
  const bad = (msg) => new PgloadError(msg, { code: 'BAD_OPTION' })
  if (samplingRate !== undefined && !argv.log) throw bad('--sampling-rate needs --log')
  if (samplingRate !== undefined && aggregateIntervalS !== undefined) throw bad('--sampling-rate and --aggregate-interval cannot be used at the same time')
  if (aggregateIntervalS !== undefined && !argv.log) throw bad('--aggregate-interval needs --log')
  if (argv.logPrefix !== undefined && !argv.log) throw bad('--log-prefix needs --log')
  if (aggregateIntervalS !== undefined && durationS !== undefined) {
    if (aggregateIntervalS > durationS) throw bad(`--aggregate-interval (${aggregateIntervalS} s) must not be higher than --duration (${durationS} s)`)
    if (durationS % aggregateIntervalS !== 0) throw bad(`--duration (${durationS} s) must be a multiple of --aggregate-interval (${aggregateIntervalS} s)`)
  }
}

/** process.stderr for attachProgress, with the elapsed time replaced by Unix time (pgbench --progress-timestamp). */
function timestampedStderr () {
  const stream = {
    isTTY: Boolean(process.stderr.isTTY),
    write: (s) => process.stderr.write(s.replace(/progress: [\d.]+ s/, `progress: ${(Date.now() / 1000).toFixed(3)} s`))
  }
  return { stream, isTTY: stream.isTTY }
}

function parseSamplingRate (v) {
  const r = parseNumber(v, '--sampling-rate', { min: 0, exclusiveMin: true })
  if (r > 1) throw new PgloadError(`--sampling-rate must be in (0, 1], got ${JSON.stringify(v)}`, { code: 'BAD_OPTION' })
  return r
}

async function validThresholds (list) {
  if (list.length === 0) return []
  const { parseThreshold } = await import('../compare/thresholds.js')
  for (const t of list) {
    const parsed = parseThreshold(t) // throws with the column of the mistake
    if (parsed.relative !== null) throw new PgloadError(`--threshold '${t}': a relative threshold needs a baseline; check it after the run with pgload check RESULT.json --baseline BASE.json`, { code: 'BAD_OPTION' })
  }
  return list
}

async function readStdin () {
  const chunks = []
  for await (const c of process.stdin) chunks.push(c)
  return Buffer.concat(chunks)
}
