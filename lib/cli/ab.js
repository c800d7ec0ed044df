// `pgload ab --a 'name=value,...' --b 'name=value,...' [--rounds 5] -- run <workload> [run options]`:
// interleaved runs under two sets of server settings (or two servers), then the compare verdict.

import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import yargs from 'yargs'
import { hideBin } from 'yargs/helpers'
import { PgloadError } from '../errors.js'
import { recordedCommand, openLineEnd } from './interrupts.js'
import { RunSession } from '../session/run-session.js'
import { interruptedError } from '../session/interrupts.js'
import { AbRunner, AB_DEFAULTS, defaultAbDir } from '../orchestration/ab/runner.js'
import { parseSettingList } from '../orchestration/ab/settings.js'
import { compareRuns, significanceOutOfReach } from '../compare/verdict.js'
import { formatCompareText, formatCompareMarkdown } from '../compare/format.js'
import { REGRESSION_EXIT_CODE } from './compare.js'
import { parseInteger, parseNumber, parsePercent } from '../options/parse.js'
import { rangeOf } from '../options/ranges.js'
import { parseOutputPath } from '../options/parse.js'
import { coldLine } from '../output/run-messages.js'
import { shownValue } from '../options/shown.js'
import { redact } from '../server/target/resolve-target.js'

const ORDERS = ['abba', 'random']

/**
 * The run plan of the `run ...` part after `--`, parsed with the run command's own options.
 * @param {string[]} rest
 * @param {{ command?: string }} [opts] the command line on record (default: the run part)
 * @returns {Promise<Readonly<import('../plan/resolve.js').RunPlan>>}
 */
export async function runOptionsFromRest (rest, { command } = {}) {
  if (rest[0] !== 'run') {
    throw new PgloadError('ab needs the benchmark after --: pgload ab --a ... --b ... -- run <workload> [run options]', { code: 'USAGE' })
  }
  const { runCommand, runPlanFromArgv } = await import('./run.js')
  let captured = null
  await yargs(rest)
    .command(runCommand.command, runCommand.describe, runCommand.builder, (argv) => { captured = argv })
    .strictOptions()
    .parserConfiguration({ 'boolean-negation': true })
    .exitProcess(false)
    .fail((msg, err) => { throw err ?? new PgloadError(`ab: in the run options: ${msg}`) })
    .parseAsync()
  if (!captured) throw new PgloadError('ab: could not read the run options after --')
  for (const flag of ['out', 'json', 'report']) {
    if (captured[flag] !== undefined) throw new PgloadError(`ab: --${flag} cannot be given to the runs; ab writes every result to --out-dir`)
  }
  if (captured.threshold !== undefined) throw new PgloadError('ab: --threshold cannot be given to the runs', { hint: 'check the results afterwards: pgload check <out-dir>/NN-B.json --threshold ...' })
  return runPlanFromArgv(captured, { rawArgs: rest.slice(1), command })
}

/**
 * Options of `ab` from argv (validated).
 * @param {any} argv
 */
export async function abOptionsFromArgv (argv) {
  const rounds = argv.rounds === undefined ? AB_DEFAULTS.rounds : parseInteger(argv.rounds, '--rounds', rangeOf('--rounds'))
  const order = argv.order ?? AB_DEFAULTS.order
  if (!ORDERS.includes(order)) throw new PgloadError(`--order must be abba or random, got ${shownValue(order)}`)
  const seed = argv.seed === undefined ? AB_DEFAULTS.seed : parseInteger(argv.seed, '--seed', rangeOf('--seed'))
  if ((argv.aUrl === undefined) !== (argv.bUrl === undefined)) throw new PgloadError('--a-url and --b-url go together')
  const a = parseSettingList(argv.a, '--a')
  const b = parseSettingList(argv.b, '--b')
  const aa = argv.aa === true
  checkSides(argv, { a, b, aa })
  const runOptions = await runOptionsFromRest((argv['--'] ?? []).map(String), { command: recordedCommand(hideBin(process.argv)) })
  if (runOptions.url !== undefined && argv.aUrl !== undefined) throw new PgloadError('give the servers either with --a-url/--b-url or with --url in the run options, not both')
  return {
    a,
    b,
    aUrl: argv.aUrl,
    bUrl: argv.bUrl,
    rounds,
    order,
    seed,
    restartCommand: argv.restartCommand,
    outDir: parseOutputPath(argv.outDir, '--out-dir', 'directory') ?? defaultAbDir(),
    runOptions,
    compare: { noise: parsePercent(argv.noise, '--noise', rangeOf('--noise')), alpha: argv.alpha === undefined ? undefined : parseNumber(argv.alpha, '--alpha', rangeOf('--alpha')), seed },
    aa,
    format: argv.json ? 'json' : argv.markdown ? 'markdown' : 'text',
    report: argv.report === true,
    failOnRegression: argv.failOnRegression === true
  }
}

/**
 * Both sides are said, or --aa asks for an A/A test: a missing --a or --b would otherwise run that
 * side with the server as it is, an A/A test of the other side's settings without a word.
 */
function checkSides (argv, { a, b, aa }) {
  if (aa) {
    if (argv.a !== undefined || argv.b !== undefined || argv.aUrl !== undefined) {
      throw new PgloadError('--aa runs both sides with the server as it is: give it without --a, --b, --a-url or --b-url', { code: 'BAD_OPTION' })
    }
    return
  }
  if (argv.aUrl !== undefined) return
  if (argv.a === undefined && argv.b === undefined) {
    throw new PgloadError('ab needs --a and --b settings (name=value,...), or --a-url and --b-url', { code: 'BAD_OPTION', hint: 'or --aa for an A/A test: both sides alike, the noise between identical runs' })
  }
  const missing = argv.a === undefined ? '--a' : argv.b === undefined ? '--b' : null
  if (missing) {
    throw new PgloadError(`ab needs both --a and --b: without ${missing} its side would run with the server's settings as they are`, {
      code: 'BAD_OPTION', hint: `give ${missing} '' to compare against the server as it is, or --aa for an A/A test`
    })
  }
  if (!a.length && !b.length) throw new PgloadError('--a and --b are both empty: that is an A/A test; ask for it with --aa', { code: 'BAD_OPTION' })
}

/**
 * What ab says before it runs anything: an A/A test is one, and rounds too few for the verdict's
 * test to ever reach significance (the rule compare applies afterwards).
 * @param {Awaited<ReturnType<typeof abOptionsFromArgv>>} opts
 * @param {{ write(s: string): any }} err
 */
function sayUpFront (opts, err) {
  if (opts.aa) err.write('pgload ab: an A/A test (--aa): both sides run with the server\'s settings as they are; the verdict is the noise between identical runs\n')
  const outOfReach = significanceOutOfReach(opts.rounds, opts.rounds, opts.compare.alpha)
  if (outOfReach) err.write(`pgload ab: warning: --rounds ${opts.rounds}: ${outOfReach}\n`)
}

/**
 * Run an A/B experiment and print the verdict. Human progress goes to `err`, the verdict to `out`.
 * @param {Awaited<ReturnType<typeof abOptionsFromArgv>>} opts
 * @param {{ out?: { write(s: string): any }, err?: { write(s: string): any }, env?: Record<string, string|undefined>,
 *   log?: any, signals?: boolean, runBenchmark?: Function }} [io]
 */
export async function abCommand (opts, { out = process.stdout, err = process.stderr, env = process.env, log, signals = true, runBenchmark } = {}) {
  sayUpFront(opts, err)
  let runner = null
  // the one interrupt policy; ab's effect of it: the current run and the rounds stop, the settings are restored
  const session = new RunSession({
    signals,
    err,
    log,
    env,
    runBenchmark,
    onInterrupt ({ count }) {
      // before any setting is changed (the servers being reached), the session ends ab at once
      if (!runner.changing) return false
      err.write(openLineEnd(err) + (count === 1
        ? 'pgload ab: stopping after the current run, then restoring the settings (Ctrl-C again to abort the run at once)\n'
        : 'pgload ab: aborting the current run; restoring the settings\n'))
      runner.interrupt(count > 1)
      return true
    }
  })
  runner = new AbRunner({ ...opts, env, log, runBenchmark: (plan, hooks) => session.run(plan, { env: hooks.env, onRun: hooks.onRun }), onEvent: (name, info) => reportAbEvent(err, name, info) })
  let outcome
  try {
    outcome = await session.guard(runner.run())
  } finally {
    await session.close()
  }
  if (!outcome.restored) {
    throw new PgloadError('the original server settings could not all be restored (see above)', { code: 'AB_RESTORE', exitCode: 2 })
  }
  if (opts.runOptions.store) {
    const { storeWrittenFiles } = await import('./store.js')
    await storeWrittenFiles(outcome.runs.map((r) => r.file).filter(Boolean), opts.runOptions, { err, env, log })
  }
  if (outcome.interrupted) {
    err.write(`pgload ab: interrupted after ${outcome.runs.length} of ${outcome.sequence.length} runs; settings restored; results in ${opts.outDir}\n`)
    throw interruptedError('interrupted', session)
  }
  const as = outcome.runs.filter(r => r.side === 'A').map(r => withFile(r))
  const bs = outcome.runs.filter(r => r.side === 'B').map(r => withFile(r))
  const verdict = compareRuns(as, bs, { ...opts.compare, force: true })
  await writeFile(join(opts.outDir, 'compare.json'), JSON.stringify(verdict, null, 2) + '\n')
  if (opts.format === 'json') out.write(JSON.stringify(verdict, null, 2) + '\n')
  else if (opts.format === 'markdown') out.write(formatCompareMarkdown(verdict))
  else out.write(formatCompareText(verdict))
  if (opts.report) {
    // every run overlaid, one colour per run, named as its file (01-A, 02-B, ..., lib/orchestration/ab/runner.js):
    // a cold run's ramp-up against the other side's
    const { writeHtmlReport } = await import('../report/index.js')
    const { verdictHtml } = await import('../report/verdict-html.js')
    const intro = verdictHtml(verdict, { a: sideText(opts, 'a'), b: sideText(opts, 'b') })
    const file = await writeHtmlReport([...as, ...bs], join(opts.outDir, 'report.html'), { intro, title: 'pgload ab: B against A' })
    err.write(`pgload ab: report written to ${file}\n`)
  }
  err.write(`pgload ab: results of all ${outcome.runs.length} runs and compare.json in ${opts.outDir}\n`)
  if (outcome.runs.some(r => r.exitCode === 2)) throw new PgloadError('some runs had errors (see their results)', { code: 'RUN_ERRORS', exitCode: 2 })
  if (opts.failOnRegression && verdict.regressions > 0) {
    throw new PgloadError(`${verdict.regressions} regression${verdict.regressions === 1 ? '' : 's'} of B against A`, { code: 'REGRESSION', exitCode: REGRESSION_EXIT_CODE })
  }
  return { outcome, verdict }
}

/** What a side is, for the report: its settings, its server, or the server as it is. */
function sideText (opts, side) {
  const settings = opts[side].map((v) => `${v.name}=${v.value}`).join(', ')
  const url = side === 'a' ? opts.aUrl : opts.bUrl
  return [settings, url === undefined ? '' : `server ${redact(url)}`].filter(Boolean).join(' on ') || 'the server\'s settings as they are'
}

function withFile (r) {
  Object.defineProperty(r.results, 'file', { value: r.file ?? `${r.side}.json`, enumerable: false, configurable: true })
  return r.results
}

/**
 * Write the progress line(s) of one runner event (lib/orchestration/ab/runner.js) to `err`.
 * @param {{ write(s: string): any }} err @param {string} name @param {any} info
 */
export function reportAbEvent (err, name, info) {
  switch (name) {
    case 'plan':
      for (const s of info.servers) {
        const server = `pgload ab: server ${s.label}${s.embedded ? ' (embedded)' : ''}`
        if (s.plan.length === 0) err.write(`${server}: its settings as they are, none changed\n`)
        else err.write(`${server}:\n`)
        for (const p of s.plan) err.write(`  ${p.name} (context ${p.context}, now ${s.originals[p.name]}): ${p.how}\n`)
      }
      err.write(`pgload ab: order ${info.sequence.join(' ')}\n`)
      break
    case 'restart':
      err.write(`pgload ab: restarting the server${info.side === 'restore' ? ' to restore the settings' : ` for ${info.side}`}\n`)
      break
    case 'verified':
      // nothing set, nothing to verify: say so rather than claim a check that did not happen
      if (Object.keys(info.settings).length === 0) err.write(`pgload ab: ${info.side}: the server's settings as they are (none set, none to verify)\n`)
      else err.write(`pgload ab: ${info.side}: ${Object.entries(info.settings).map(([k, v]) => `${k}=${v}`).join(', ')} verified with SHOW\n`)
      break
    case 'run':
      err.write(`pgload ab: run ${info.index + 1}/${info.total} (${info.side}) -> ${info.file}\n`)
      break
    case 'done': {
      const s = info.results.summary
      const cold = info.results.run.cold
      const steady = cold ? `, steady ${s.steadyState?.timeS === null || s.steadyState?.timeS === undefined ? 'never' : `from ${s.steadyState.timeS} s`}` : ''
      err.write(`pgload ab: ${info.side}: ${s.tps} tps, p99 ${s.latencyMs?.p99 ?? '-'} ms${steady}\n`)
      if (cold) err.write(`pgload ab: ${info.side}: ${coldLine(cold)}\n`)
      break
    }
    case 'restored':
      err.write(`pgload ab: restored on ${info.server}: ${Object.entries(info.settings).map(([k, v]) => `${k}=${v}`).join(', ')}\n`)
      break
    case 'restore-failed':
      for (const p of info.problems) err.write(`pgload ab: could not restore ${p}\n`)
      break
  }
}

export const command = 'ab'
export const describe = "A/B test server settings: --a 'name=value,...' --b 'name=value,...' -- run <workload> [run options]"

/** @param {import('yargs').Argv} y */
export function builder (y) {
  return y
    .option('a', { type: 'string', describe: "settings of A: 'name=value,...' (values with commas in single quotes)" })
    .option('b', { type: 'string', describe: "settings of B: 'name=value,...'" })
    .option('a-url', { type: 'string', describe: 'server of A (compare two servers); with --b-url' })
    .option('b-url', { type: 'string', describe: 'server of B' })
    .option('aa', { type: 'boolean', describe: 'an A/A test: both sides with the server\'s settings as they are (the noise floor); without --a, --b' })
    .option('rounds', { type: 'string', describe: `runs per side [default: ${AB_DEFAULTS.rounds}]` })
    .option('order', { type: 'string', describe: `abba (A B B A A B ...) or random (seeded, each round AB or BA) [default: ${AB_DEFAULTS.order}]` })
    .option('seed', { type: 'string', describe: `seed of the random order and of the compare bootstrap [default: ${AB_DEFAULTS.seed}]` })
    .option('restart-command', { type: 'string', describe: 'shell command that restarts a server that is not the embedded one (for restart-only settings, and before every run with run --cold); PGLOAD_AB_SIDE is set' })
    .option('out-dir', { type: 'string', describe: 'directory for the results of every run and compare.json [default: pgload-results/ab-<UTC time>]' })
    .option('noise', { type: 'string', describe: 'compare: noise band in percent [default: 2]' })
    .option('alpha', { type: 'string', describe: 'compare: significance level [default: 0.05]' })
    .option('markdown', { type: 'boolean', describe: 'print the verdict as GitHub markdown' })
    .option('json', { type: 'boolean', describe: 'print the verdict as JSON' })
    .option('report', { type: 'boolean', describe: 'also write report.html to --out-dir: every run overlaid and named as its file (01-A, 02-B, ...), throughput from the start with each time to steady state' })
    .option('fail-on-regression', { type: 'boolean', describe: `exit ${REGRESSION_EXIT_CODE} when B is worse than A` })
    .example("$0 ab --a 'work_mem=4MB' --b 'work_mem=64MB' -- run tpcb --clients 8 --duration 60s", 'a session setting')
    .example("$0 ab --a 'shared_buffers=128MB' --b 'shared_buffers=1GB' --rounds 5 -- run tpcb -c 8 -T 2m", 'a restart-only setting on the embedded server')
    .example("$0 ab --a 'pg_prewarm.autoprewarm=off' --b 'pg_prewarm.autoprewarm=on' --report -- run tpcb -S -c 4 -T 60s --cold", 'ramp-up after a restart (docs/cold-starts.md)')
}

/** @param {any} argv */
export async function handler (argv) {
  const { createLogger } = await import('../log.js')
  await abCommand(await abOptionsFromArgv(argv), { log: createLogger(argv) })
}

export default { command, describe, builder, handler }
