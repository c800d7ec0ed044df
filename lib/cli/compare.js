// `pgload compare A.json [A2.json ...] -- B.json [B2.json ...]`: is B better, worse or the same
// as A? Prints a table (or markdown / JSON); exit 99 on a regression with --fail-on-regression.

import { appendFile } from 'node:fs/promises'
import { PgloadError } from '../errors.js'
import { loadResults } from '../compare/input.js'
import { parseInteger, parseNumber, parseOutputPath, parsePercent } from '../options/parse.js'
import { rangeOf } from '../options/ranges.js'
import { compareRuns, COMPARE_DEFAULTS } from '../compare/verdict.js'
import { formatCompareText, formatCompareMarkdown } from '../compare/format.js'

/** Exit code when --fail-on-regression is given and a regression was found (k6's threshold code). */
export const REGRESSION_EXIT_CODE = 99

/** An optional integer option in its range (lib/options/ranges.js). */
function optionalInteger (v, flag) {
  return v === undefined ? undefined : parseInteger(v, flag, rangeOf(flag))
}

const TRAILING_BOOLEAN = { '--force': 'force', '--markdown': 'markdown', '--json': 'json', '--fail-on-regression': 'failOnRegression' }
const TRAILING_VALUE = { '--noise': 'noise', '--alpha': 'alpha', '--seed': 'seed', '--iterations': 'iterations', '--block': 'block', '--report': 'report' }

/**
 * Options written after `--` (yargs leaves them there with the B files): take them back.
 * @param {any} argv
 * @returns {any} argv with those options set and argv['--'] holding only files
 */
export function takeTrailingOptions (argv) {
  const rest = []
  const out = { ...argv }
  const after = (argv['--'] ?? []).map(String)
  for (let i = 0; i < after.length; i++) {
    const [flag, inline] = after[i].split(/=(.*)/s)
    if (TRAILING_BOOLEAN[flag] && inline === undefined) out[TRAILING_BOOLEAN[flag]] = true
    else if (TRAILING_VALUE[flag]) {
      const v = inline ?? after[++i]
      if (v === undefined) throw new PgloadError(`${flag} needs a value`)
      out[TRAILING_VALUE[flag]] = v
    } else if (flag.startsWith('--') && flag.length > 2) {
      throw new PgloadError(`compare: unknown option ${flag} after --`, { hint: 'options of compare: --noise --alpha --force --seed --iterations --block --markdown --json --fail-on-regression --report' })
    } else rest.push(after[i])
  }
  out['--'] = rest
  return out
}

/**
 * Split the file lists: `A... -- B...`, `--a A... --b B...`, or exactly two files `A B`.
 * @param {{ files?: string[], '--'?: string[], a?: string[], b?: string[] }} argv
 * @returns {{ a: string[], b: string[] }}
 */
export function splitSides (argv) {
  const pos = (argv.files ?? []).map(String)
  const after = (argv['--'] ?? []).map(String)
  const a = [...(argv.a ?? []).map(String)]
  const b = [...(argv.b ?? []).map(String)]
  if (after.length) {
    a.push(...pos)
    b.push(...after)
  } else if (a.length || b.length) {
    if (pos.length && !a.length) a.push(...pos)
    else if (pos.length && !b.length) b.push(...pos)
    else if (pos.length) throw new PgloadError(`compare: files ${pos.join(' ')} belong to neither side`, { hint: 'give them after --a / --b, or as A... -- B...' })
  } else if (pos.length === 2) {
    a.push(pos[0])
    b.push(pos[1])
  } else if (pos.length > 2) {
    throw new PgloadError(`compare: ${pos.length} files but no -- between the A and the B runs`, { hint: 'pgload compare A1.json A2.json -- B1.json B2.json' })
  }
  if (!a.length || !b.length) throw new PgloadError('compare needs results files for both sides', { hint: 'pgload compare A.json -- B.json (several runs per side are better)' })
  return { a, b }
}

/**
 * Options of `compare` from argv (validated).
 * @param {any} argv
 */
export function compareOptionsFromArgv (argv) {
  argv = takeTrailingOptions(argv)
  const { a, b } = splitSides(argv)
  const alpha = argv.alpha === undefined ? undefined : parseNumber(argv.alpha, '--alpha', rangeOf('--alpha'))
  if (argv.markdown && argv.json) throw new PgloadError('--markdown and --json exclude each other')
  const seed = optionalInteger(argv.seed, '--seed')
  return {
    a,
    b,
    noise: parsePercent(argv.noise, '--noise', rangeOf('--noise')),
    alpha,
    seed,
    iterations: optionalInteger(argv.iterations, '--iterations'),
    blockLength: optionalInteger(argv.block, '--block'),
    force: argv.force === true,
    format: argv.json ? 'json' : argv.markdown ? 'markdown' : 'text',
    report: parseOutputPath(argv.report, '--report'),
    failOnRegression: argv.failOnRegression === true
  }
}

/**
 * Run `compare` with plain options; writes to `out`, appends markdown to $GITHUB_STEP_SUMMARY.
 * @param {ReturnType<typeof compareOptionsFromArgv>} opts
 * @param {{ out?: { write(s: string): any }, env?: Record<string, string|undefined> }} [io]
 * @returns {Promise<object>} the verdict
 */
export async function compareCommand (opts, { out = process.stdout, env = process.env } = {}) {
  const as = await Promise.all(opts.a.map(f => loadResults(f)))
  const bs = await Promise.all(opts.b.map(f => loadResults(f)))
  const verdict = compareRuns(as, bs, opts)
  if (opts.format === 'json') out.write(JSON.stringify(verdict, null, 2) + '\n')
  else if (opts.format === 'markdown') out.write(formatCompareMarkdown(verdict))
  else out.write(formatCompareText(verdict))
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, formatCompareMarkdown(verdict) + '\n')
  if (opts.report) {
    // every run overlaid, one colour per run: A1.., B1..
    const { writeHtmlReport } = await import('../report/index.js')
    const names = [...opts.a.map((_, i) => `A${i + 1}`), ...opts.b.map((_, i) => `B${i + 1}`)]
    const file = await writeHtmlReport([...as, ...bs], opts.report, { names })
    ;(opts.format === 'text' ? process.stderr : out).write(opts.format === 'text' ? `report written to ${file}\n` : '')
  }
  if (opts.failOnRegression && verdict.regressions > 0) {
    throw new PgloadError(`${verdict.regressions} regression${verdict.regressions === 1 ? '' : 's'} of B against A beyond the ${(verdict.noise * 100).toFixed(1)} % noise band`, {
      code: 'REGRESSION', exitCode: REGRESSION_EXIT_CODE
    })
  }
  return verdict
}

export const command = 'compare [files..]'
export const describe = 'Compare runs: A.json [A2.json ...] -- B.json [B2.json ...]; verdict better / worse / ~ per metric'

/** @param {import('yargs').Argv} y */
export function builder (y) {
  return y
    .positional('files', { describe: 'results files of A, then -- and the results files of B', type: 'string', array: true })
    .option('a', { type: 'string', array: true, describe: 'results files of side A (baseline)' })
    .option('b', { type: 'string', array: true, describe: 'results files of side B (candidate)' })
    .option('noise', { type: 'string', describe: `percent: changes whose interval stays inside +/- this are never called [default: ${COMPARE_DEFAULTS.noise * 100}]` })
    .option('alpha', { type: 'string', describe: `significance level [default: ${COMPARE_DEFAULTS.alpha}]` })
    .option('force', { type: 'boolean', describe: 'compare runs that differ in workload, scale, clients or duration' })
    .option('seed', { type: 'string', describe: `bootstrap seed for single-run comparisons [default: ${COMPARE_DEFAULTS.seed}]` })
    .option('iterations', { type: 'string', describe: `bootstrap resamples for single-run comparisons [default: ${COMPARE_DEFAULTS.iterations}]` })
    .option('block', { type: 'string', describe: 'bootstrap block length in intervals [default: square root of the run length]' })
    .option('markdown', { type: 'boolean', describe: 'print GitHub markdown instead of the table' })
    .option('json', { type: 'boolean', describe: 'print the verdict as JSON' })
    .option('report', { type: 'string', describe: 'also write an HTML report with every run overlaid (A1.., B1..) to this file' })
    .option('fail-on-regression', { type: 'boolean', describe: `exit ${REGRESSION_EXIT_CODE} when B is worse than A on any metric` })
    .example('$0 compare a1.json a2.json a3.json a4.json a5.json -- b1.json b2.json b3.json b4.json b5.json', 'five runs per side')
    .example('$0 compare main.json branch.json --fail-on-regression', 'one run per side: a single-run estimate')
}

/** @param {any} argv */
export async function handler (argv) {
  await compareCommand(compareOptionsFromArgv(argv))
}

export default { command, describe, builder, handler }
