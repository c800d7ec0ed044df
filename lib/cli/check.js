// `pgload check RESULT.json [--baseline BASE.json] --threshold EXPR ...`: a CI gate.
// Exit codes: 0 all pass, 99 a threshold failed, 1 bad expression or file, 2 the run had errors.

import { appendFile, writeFile } from 'node:fs/promises'
import { PgloadError } from '../errors.js'
import { loadResults } from '../compare/input.js'
import { parseOutputPath } from '../options/parse.js'
import { parseThreshold, evaluateThresholds } from '../compare/thresholds/evaluate.js'
import { formatCheckText, formatCheckMarkdown, thresholdTally } from '../compare/format.js'
import { junitXml } from '../compare/thresholds/junit.js'
import { isStoredBaseline, parseStoredBaseline, loadStoredBaseline, describeStoredBaseline } from '../store/baseline.js'

/** Exit codes of `check` (and of `run --threshold`), as k6 for a failed threshold. */
export const CHECK_EXIT_CODES = {
  pass: 0, // every threshold passed
  usage: 1, // bad expression, unreadable or invalid results file
  runErrors: 2, // the results record an aborted run (clients aborted, --exit-on-abort)
  thresholdFailed: 99 // at least one threshold failed
}

/**
 * Options of `check` from argv (validated; expressions parsed so syntax errors come first).
 * @param {any} argv
 */
export function checkOptionsFromArgv (argv) {
  const exprs = [argv.threshold ?? []].flat().map(String)
  if (exprs.length === 0) throw new PgloadError('check needs at least one --threshold', { hint: "e.g. --threshold 'p(99) < 50ms'" })
  if (argv.markdown && argv.json) throw new PgloadError('--markdown and --json exclude each other')
  const baseline = argv.baseline === undefined ? null : String(argv.baseline)
  const thresholds = exprs.map(parseThreshold)
  const storedBaseline = baseline !== null && isStoredBaseline(baseline) ? storedBaselineOf(baseline, thresholds) : null
  if (argv.resultsUrl !== undefined && !storedBaseline) throw new PgloadError('--results-url goes with --baseline stored:LABEL[:N]')
  return {
    file: String(argv.file),
    baseline,
    storedBaseline,
    resultsUrl: argv.resultsUrl === undefined ? null : String(argv.resultsUrl),
    thresholds,
    allowEmpty: argv.allowEmpty === true,
    junit: parseOutputPath(argv.junit, '--junit') ?? null,
    format: argv.json ? 'json' : argv.markdown ? 'markdown' : 'text'
  }
}

/**
 * Run `check` with plain options; writes the result table to `out`, JUnit to opts.junit and
 * markdown to $GITHUB_STEP_SUMMARY when set. Throws with exitCode 99 / 2 after reporting.
 * @param {ReturnType<typeof checkOptionsFromArgv>} opts
 * @param {{ out?: { write(s: string): any }, err?: { write(s: string): any }, env?: Record<string, string|undefined> }} [io]
 * @returns {Promise<object[]>} the threshold results
 */
export async function checkCommand (opts, { out = process.stdout, err = process.stderr, env = process.env } = {}) {
  const results = await loadResults(opts.file)
  const baseline = opts.baseline === null ? null : await loadBaseline(opts, { out: opts.format === 'json' ? err : out, env })
  const evaluated = evaluateThresholds(results, opts.thresholds, { baseline, allowEmpty: opts.allowEmpty })
  if (opts.format === 'json') out.write(JSON.stringify(evaluated, null, 2) + '\n')
  else if (opts.format === 'markdown') out.write(formatCheckMarkdown(evaluated))
  else out.write(formatCheckText(evaluated))
  if (opts.junit) {
    try {
      await writeFile(opts.junit, junitXml(evaluated, { file: opts.file.split(/[\\/]/).pop() }))
    } catch (err) {
      throw new PgloadError(`--junit ${opts.junit}: cannot write (${err.code ?? err.message})`, { cause: err })
    }
  }
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, formatCheckMarkdown(evaluated) + '\n')
  if (results.run.aborted === true) {
    throw new PgloadError(`${opts.file}: the run was aborted (client errors); its figures are incomplete`, {
      code: 'RUN_ABORTED', exitCode: CHECK_EXIT_CODES.runErrors
    })
  }
  if (evaluated.some((r) => !r.pass)) {
    // the table's last line says it on stdout; --json's stdout is the JSON alone, so stderr does
    throw new PgloadError(thresholdTally(evaluated), {
      code: 'THRESHOLD_FAILED', exitCode: CHECK_EXIT_CODES.thresholdFailed, reported: opts.format !== 'json'
    })
  }
  return evaluated
}

/** `stored:LABEL[:N]` parsed, and the thresholds checked against what stored runs keep. */
function storedBaselineOf (baseline, thresholds) {
  const which = parseStoredBaseline(baseline)
  for (const t of thresholds) {
    // stored runs keep whole-run figures: the worst window or a per-interval tps is not among them
    if (t.relative !== null && (t.windowS !== null || (t.metric === 'tps' && t.agg !== 'rate' && t.agg !== 'avg'))) {
      throw new PgloadError(`--threshold '${t.expr}': a stored baseline holds whole-run figures; give a results file as --baseline for thresholds over windows or intervals`, { code: 'BAD_OPTION' })
    }
  }
  return which
}

/**
 * The baseline: a results file, or the median of stored runs (`stored:LABEL[:N]`), whose runs
 * are named on `out` before the table.
 */
async function loadBaseline (opts, { out, env }) {
  if (!opts.storedBaseline) return loadResults(opts.baseline)
  const { withResultsStore } = await import('../store/connect.js')
  const stored = await withResultsStore({ resultsUrl: opts.resultsUrl, env }, (store) => loadStoredBaseline(store.conn, opts.storedBaseline))
  out.write(describeStoredBaseline(stored) + '\n')
  Object.defineProperty(stored.doc, 'file', { value: opts.baseline, enumerable: false })
  return stored.doc
}

export const command = 'check <file>'
export const describe = 'Check a results file against thresholds (k6 syntax), for CI: exit 99 when one fails'

/** @param {import('yargs').Argv} y */
export function builder (y) {
  return y
    .positional('file', { describe: 'results file of the run to check', type: 'string' })
    .option('threshold', { type: 'string', array: true, describe: "repeatable: [stage(N):] [metric[{txn:name}]:] agg [window] op value, e.g. 'p(99) < 50ms', 'tps > -5%', 'p(99)[30s] < 80ms', 'stage(2): p(99) < 20ms'" })
    .option('baseline', { type: 'string', describe: 'what relative thresholds (+10%, -5%) refer to: a results file, or stored:LABEL[:N], the median of the last N (default 5) stored runs with that label' })
    .option('results-url', { type: 'string', describe: 'with --baseline stored:..., the results database [default: pgload_results on the embedded server]' })
    .option('allow-empty', { type: 'boolean', describe: 'pass thresholds whose metric has no data (default: they fail)' })
    .option('junit', { type: 'string', describe: 'write a JUnit XML report (one test case per threshold) to this file' })
    .option('markdown', { type: 'boolean', describe: 'print GitHub markdown instead of the table' })
    .option('json', { type: 'boolean', describe: 'print the threshold results as JSON' })
    .example("$0 check new.json --threshold 'p(99) < 50ms' --threshold 'failed: rate < 0.1%'", 'absolute limits')
    .example("$0 check new.json --baseline main.json --threshold 'p(99) < +10%' --threshold 'tps > -5%'", 'relative to a baseline')
    .example("$0 check new.json --baseline stored:main:5 --threshold 'p(99) < +10%'", 'relative to the median of the last 5 stored runs labelled main')
    .epilogue('exit codes: 0 all thresholds pass, 99 a threshold failed, 1 bad expression or file, 2 the run had errors')
}

/** @param {any} argv */
export async function handler (argv) {
  await checkCommand(checkOptionsFromArgv(argv))
}

export default { command, describe, builder, handler }
