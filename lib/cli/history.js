// `pgload history`: the stored runs as a table on stdout, and a metric's trend as a chart (-o).

import { PgloadError } from '../errors.js'
import { createLogger } from '../log.js'
import { parseInteger, parseOutputPath } from '../options/parse.js'
import { rangeOf } from '../options/ranges.js'
import { withResultsStore } from '../store/connect.js'
import { queryHistory, formatHistory, historyMetric, HISTORY_DEFAULTS, HISTORY_METRICS } from '../store/history.js'
import { historyFormat } from '../store/history-chart.js'

/**
 * Options of `history` from argv, checked.
 * @param {any} argv
 */
export function historyOptionsFromArgv (argv) {
  const text = (v, flag) => {
    if (v === undefined) return null
    if (typeof v !== 'string' || v === '') throw new PgloadError(`${flag} needs a value`, { code: 'BAD_OPTION' })
    return v
  }
  const metric = historyMetric(argv.metric === undefined ? HISTORY_DEFAULTS.metric : String(argv.metric)).name
  const out = parseOutputPath(argv.out, '--out') ?? null
  if (out !== null) historyFormat(out)
  return {
    label: text(argv.label, '--label'),
    workload: text(argv.workload, '--workload'),
    scenario: text(argv.scenario, '--scenario'),
    metric,
    limit: argv.limit === undefined ? HISTORY_DEFAULTS.limit : parseInteger(argv.limit, '--limit', rangeOf('--limit')),
    out,
    resultsUrl: text(argv.resultsUrl, '--results-url')
  }
}

const STORE_HINT = 'store runs as they finish with pgload run ... --store, or store results files with pgload store FILE...'

/**
 * List the stored runs and chart the metric's trend.
 * @param {ReturnType<typeof historyOptionsFromArgv>} opts
 * @param {{ out?: { write(s: string): any }, err?: { write(s: string): any }, env?: Record<string, string|undefined>, log?: any }} [io]
 * @returns {Promise<import('../store/history.js').HistoryRun[]>}
 */
export async function historyCommand (opts, { out = process.stdout, err = process.stderr, env = process.env, log } = {}) {
  const runs = await withResultsStore({ resultsUrl: opts.resultsUrl, env, log }, (store) => queryHistory(store.conn, opts))
  const filters = [opts.label !== null && `label ${JSON.stringify(opts.label)}`, opts.workload !== null && `workload ${opts.workload}`,
    opts.scenario != null && `scenario ${opts.scenario}`].filter(Boolean)
  if (runs.length === 0) {
    const which = filters.length ? ` with ${filters.join(' and ')}` : ''
    if (opts.out) throw new PgloadError(`no stored runs${which}: nothing to chart`, { code: 'HISTORY_EMPTY', hint: STORE_HINT })
    err.write(`pgload: no stored runs${which}\nhint: ${STORE_HINT}\n`)
    return runs
  }
  const table = formatHistory(runs, opts.metric)
  out.write(table)
  if (opts.out) {
    const { writeHistoryChart } = await import('../store/history-chart.js')
    await writeHistoryChart(runs, opts.metric, opts.out, { table })
    err.write(`pgload: chart written to ${opts.out}\n`)
  }
  return runs
}

export const command = 'history'
export const describe = 'List the runs stored in the results database and chart a metric over time'

/** @param {import('yargs').Argv} y */
export function builder (y) {
  return y
    .option('label', { type: 'string', describe: 'only runs with this --label' })
    .option('workload', { type: 'string', describe: 'only runs of this workload (tpcb, script, tpcc)' })
    .option('scenario', { type: 'string', describe: 'one scenario of scenario runs (run --scenarios): its own figures; runs without it are left out' })
    .option('metric', { type: 'string', describe: `the charted figure: ${Object.keys(HISTORY_METRICS).join(', ')} [default: ${HISTORY_DEFAULTS.metric}]` })
    .option('limit', { type: 'string', describe: `the newest N runs [default: ${HISTORY_DEFAULTS.limit}]` })
    .option('out', { alias: 'o', type: 'string', describe: 'write the chart: FILE.html (interactive, offline), FILE.svg or FILE.png' })
    .option('results-url', { type: 'string', describe: 'the results database: libpq URI or key=value string [default: pgload_results on the embedded server]' })
    .example('$0 history --metric p99 -o p99.html', 'the stored runs\' p99 over time')
}

/** @param {any} argv */
export async function handler (argv) {
  await historyCommand(historyOptionsFromArgv(argv), { log: createLogger(argv) })
}

export default { command, describe, builder, handler }
