// The options of `pgload capacity` that are its own: the limit (--until), how long each step is
// held and settles, the search's start, growth, precision and bounds, the behind margin. Checked
// once, before anything connects; each error is one line naming the flag.

import { PgloadError } from '../errors.js'
import { parseDurationS, parseNumber, parseInteger, parsePercent } from '../options/parse.js'
import { rangeOf } from '../options/ranges.js'
import { parseThreshold } from '../compare/thresholds/parser.js'

/** Defaults of `pgload capacity`, each with its unit. */
export const CAPACITY_DEFAULTS = Object.freeze({
  stepS: 30, // seconds each step is measured
  settleS: 5, // seconds after each rate change that are not judged (queues drain or fill)
  startRate: 100, // arrivals per second of the first step
  growth: 2, // factor between geometric steps
  precision: 0.1, // stop when the lowest rate that failed is within this of the highest that held
  behindMargin: 0.05, // a step fails when it achieves less than 95 % of its offered rate
  maxRate: Infinity, // no step above this rate
  maxSteps: 20 // no more steps than this
})

// metrics whose value a step can give: per-interval data (no TPC-C whole-run figures)
const STEP_METRICS = new Set(['latency', 'lag', 'tps', 'failed', 'skipped'])

const BOUNDS = { settleS: 0 }

/**
 * @param {Record<string, any>} argv as yargs parsed it (camel-case keys)
 * @returns {import('./controller.js').CapacitySettings & { intervalS: number }}
 */
export function capacitySettingsFromArgv (argv) {
  const exprs = [argv.until ?? []].flat().map(String)
  if (exprs.length === 0) throw new PgloadError("capacity needs --until, the limit each step must keep, e.g. --until 'p(99) < 20ms'", { code: 'BAD_OPTION' })
  const until = exprs.map((e) => {
    const t = untilThreshold(e)
    if (t.relative !== null) throw new PgloadError(`--until '${e}': a relative limit needs a baseline; give an absolute one (p(99) < 20ms)`, { code: 'BAD_OPTION' })
    if (!STEP_METRICS.has(t.metric)) throw new PgloadError(`--until '${e}': ${t.metric} is a whole-run figure; a step is judged on latency, lag, tps, failed or skipped`, { code: 'BAD_OPTION' })
    if (t.stage !== undefined && t.stage !== null) throw new PgloadError(`--until '${e}': each step is judged on its own; leave out stage(N)`, { code: 'BAD_OPTION' })
    return t
  })
  const d = CAPACITY_DEFAULTS
  const stepS = argv.step === undefined ? d.stepS : parseDurationS(argv.step, '--step', rangeOf('--step'))
  const settleS = argv.settle === undefined ? Math.min(d.settleS, stepS) : parseDurationS(argv.settle, '--settle', rangeOf('--settle'))
  const intervalS = argv.interval === undefined ? 1 : parseDurationS(argv.interval, '--interval', rangeOf('--interval'))
  if (!(stepS >= 2 * intervalS)) throw new PgloadError(`--step must be at least 2 intervals (${2 * intervalS} s), got ${argv.step}`, { code: 'BAD_OPTION' })
  if (!(settleS >= BOUNDS.settleS)) throw new PgloadError(`--settle must be >= 0, got ${argv.settle}`, { code: 'BAD_OPTION' })
  const startRate = argv.startRate === undefined ? d.startRate : parseNumber(argv.startRate, '--start-rate', rangeOf('--start-rate'))
  const maxRate = argv.maxRate === undefined ? d.maxRate : parseNumber(argv.maxRate, '--max-rate', rangeOf('--max-rate'))
  if (maxRate < startRate) throw new PgloadError(`--max-rate (${maxRate}) is below --start-rate (${startRate})`, { code: 'BAD_OPTION' })
  const growth = argv.growth === undefined ? d.growth : parseNumber(argv.growth, '--growth', rangeOf('--growth'))
  const precision = argv.precision === undefined ? d.precision : percentOption(argv.precision, '--precision')
  const behindMargin = argv.behind === undefined ? d.behindMargin : percentOption(argv.behind, '--behind')
  const maxSteps = argv.maxSteps === undefined ? d.maxSteps : parseInteger(argv.maxSteps, '--max-steps', rangeOf('--max-steps'))
  return {
    stepS,
    settleS,
    intervalS,
    until,
    behindMargin,
    search: { startRate, growth, precision, maxRate, maxSteps }
  }
}

/** The threshold parser's error, naming --until. */
function untilThreshold (expr) {
  try {
    return parseThreshold(expr)
  } catch (err) {
    if (typeof err?.message === 'string') err.message = err.message.replace(/^--threshold /, '--until ')
    throw err
  }
}

function percentOption (v, flag) {
  const f = parsePercent(v, flag)
  if (!(f > 0 && f < 1)) throw new PgloadError(`${flag} must be a percentage between 0 and 100, got ${v}`, { code: 'BAD_OPTION' })
  return f
}

/** Run options that mean nothing for `capacity` (it sets the rate and length itself). */
export const CAPACITY_REFUSED = {
  rate: 'capacity sets the arrival rate itself: give --start-rate',
  duration: 'capacity runs until it has its answer: give --step (and --max-steps)',
  transactions: 'capacity runs until it has its answer: give --step (and --max-steps)',
  warmup: 'each step settles for --settle before it is measured',
  jobs: 'capacity drives one thread (-j 1): each step begins on the interval edge its thread just closed',
  threads: 'capacity drives one thread (-j 1): each step begins on the interval edge its thread just closed',
  stages: 'capacity makes its own stages, one per step',
  clientsStages: 'capacity offers arrivals at a rate (open model); its stages are its steps',
  ramp: 'capacity offers arrivals at a rate (open model)',
  shard: 'capacity runs on one machine',
  shards: 'capacity runs on one machine',
  threshold: 'give the limit as --until',
  latencyLimit: 'a step fails on --until and on falling behind; skipped transactions would hide the backlog',
  thinkTime: 'capacity offers arrivals at a rate (open model)',
  connect: 'capacity keeps one set of connections',
  cold: 'capacity keeps one set of connections on a running server'
}
