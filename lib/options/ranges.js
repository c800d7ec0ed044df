// The one table of the ranges numeric options accept, each with why it ends there: a value
// outside them is a typing mistake or a unit mix-up, refused before anything is dropped or
// connected (a scale of 100 billion would drop the tables and then never finish loading).

/** pgbench keeps -s, -t and the like in a C int. */
export const INT32_MAX = 2147483647
/** Longest timer Node arms: setTimeout takes a signed 32-bit count of ms (about 24.8 days). */
export const TIMER_MAX_S = Math.floor(INT32_MAX / 1000)
/** No run lasts longer: a year of intervals is already half a million series entries. */
export const YEAR_S = 365 * 24 * 3600

/**
 * @typedef {{ min: number, max: number, exclusiveMin?: boolean, why: string }} OptionRange
 *   min and max inclusive unless exclusiveMin; why: where the bound comes from (README's tables)
 */

/** @type {Record<string, OptionRange>} keyed by flag */
export const RANGES = Object.freeze({
  '--scale': { min: 1, max: INT32_MAX, why: 'pgbench -s: a C int' },
  '--fillfactor': { min: 10, max: 100, why: 'PostgreSQL\'s fillfactor of tables' },
  '--warehouses': { min: 1, max: 100000, why: 'about 100 MB each: 100,000 is 10 TB, beyond one server' },
  '--init-jobs': { min: 1, max: 64, why: 'init tpcc -j: COPY connections of a load: more only queue on the server\'s locks and disks' },
  '--clients': { min: 1, max: 1000000, why: 'a terminal holds about 2 KiB of heap: a million is 2 GiB' },
  '--jobs': { min: 1, max: 256, why: 'threads: also at most 4 per core (lib/plan/host-limits.js)' },
  '--connections': { min: 1, max: 1000000, why: 'each is a socket: also checked against the open-file limit' },
  '--transactions': { min: 1, max: INT32_MAX, why: 'pgbench -t: a C int' },
  '--rate': { min: 0, exclusiveMin: true, max: 10000000, why: 'ten times what the fastest servers commit per second' },
  '--latency-limit': { min: 0, exclusiveMin: true, max: 3600000, why: 'ms; latencies are recorded up to 1 hour' },
  '--duration': { min: 0, exclusiveMin: true, max: YEAR_S, why: 'seconds: a year' },
  '--warmup': { min: 0, max: YEAR_S, why: 'seconds: a year' },
  '--ramp': { min: 0, max: YEAR_S, why: 'seconds: a year' },
  '--stages': { min: 0, exclusiveMin: true, max: YEAR_S, why: 'seconds per stage: a year' },
  '--clients-stages': { min: 0, exclusiveMin: true, max: YEAR_S, why: 'seconds per stage: a year' },
  '--think-time': { min: 0, max: INT32_MAX, why: 'ms; each wait is a timer: setTimeout\'s 2^31-1 ms (24.8 days)' },
  '--noise': { min: 0, max: 100, why: 'percent: a band wider than the values means nothing' },
  '--grace': { min: 0, max: TIMER_MAX_S, why: 'seconds; a timer: setTimeout\'s 2^31-1 ms (24.8 days)' },
  '--trigger-at': { min: 0, max: TIMER_MAX_S, why: 'seconds; a timer: setTimeout\'s 2^31-1 ms (24.8 days)' },
  '--reconnect-window': { min: 0, max: TIMER_MAX_S, why: 'seconds; a timer: setTimeout\'s 2^31-1 ms (24.8 days)' },
  '--transaction-timeout': { min: 0, exclusiveMin: true, max: TIMER_MAX_S, why: 'seconds; a timer: setTimeout\'s 2^31-1 ms (24.8 days)' },
  '--shard-timeout': { min: 0, exclusiveMin: true, max: TIMER_MAX_S, why: 'seconds; a timer: setTimeout\'s 2^31-1 ms (24.8 days)' },
  '--progress': { min: 1, max: YEAR_S, why: 'seconds; a year' },
  '--interval': { min: 0.01, max: 3600, why: 'seconds; 10 ms is the timer\'s resolution, an hour the longest useful series step' },
  '--wait-sampling': { min: 1, max: 200, why: 'samples per second: each is a read of pg_stat_activity; 5 ms apart is already as fine as one read lasts under load' },
  '--explain-slowest': { min: 1, max: 100, why: 'transactions per type, each replayed statement by statement after the run' },
  '--aggregate-interval': { min: 1, max: YEAR_S, why: 'seconds; at most --duration anyway' },
  '--max-tries': { min: 0, max: INT32_MAX, why: 'pgbench --max-tries: a C int' },
  '--max-queue': { min: 0, max: 10000000, why: 'each waiting arrival holds memory' },
  '--port': { min: 1, max: 65535, why: 'TCP ports' },
  '--shards': { min: 1, max: 1000, why: 'shards meet at one barrier on the server' },
  '--wait-scale': { min: 0, exclusiveMin: true, max: 1000, why: 'a multiplier of TPC-C\'s keying and think times' },
  '--streams': { min: 0, max: 1000, why: 'CH-benCHmark\'s analytic streams, one connection each' },
  // capacity
  '--step': { min: 0, exclusiveMin: true, max: YEAR_S, why: 'seconds: a year' },
  '--settle': { min: 0, max: YEAR_S, why: 'seconds: a year' },
  '--start-rate': { min: 0, exclusiveMin: true, max: 10000000, why: 'as --rate' },
  '--max-rate': { min: 0, exclusiveMin: true, max: 10000000, why: 'as --rate' },
  '--growth': { min: 1, exclusiveMin: true, max: 1000, why: 'a factor between steps' },
  '--max-steps': { min: 1, max: 10000, why: 'each step lasts --step' },
  // sweep, ab, compare, history
  '--repeat': { min: 1, max: 1000, why: 'runs per cell, each a whole run' },
  '--rounds': { min: 1, max: 1000, why: 'runs per side, each a whole run' },
  '--iterations': { min: 1, max: 1000000, why: 'bootstrap resamples: a million already takes minutes' },
  '--block': { min: 1, max: 1000000, why: 'intervals per bootstrap block: at most the run\'s intervals' },
  '--alpha': { min: 0, exclusiveMin: true, max: 0.5, why: 'a significance level' },
  '--seed': { min: 0, max: Number.MAX_SAFE_INTEGER, why: 'compare and ab: an integer JavaScript holds exactly (run --seed: any unsigned 64-bit integer)' },
  '--limit': { min: 1, max: 1000000, why: 'runs read from the results database at once' }
})

/**
 * The range of a flag.
 * @param {string} flag e.g. '--scale'
 * @returns {OptionRange}
 */
export function rangeOf (flag) {
  const range = RANGES[flag]
  if (!range) throw new TypeError(`no range for ${flag}`)
  return range
}

/**
 * The range as an error names it: `1..2147483647`, `> 0 and <= 10000000`.
 * @param {{ min?: number, max?: number, exclusiveMin?: boolean }} range
 * @returns {string}
 */
export function rangeText ({ min = -Infinity, max = Infinity, exclusiveMin = false }) {
  if (max === Infinity) return `${exclusiveMin ? '>' : '>='} ${min}`
  if (!exclusiveMin && min !== -Infinity) return `in ${min}..${max}`
  return min === -Infinity ? `<= ${max}` : `> ${min} and <= ${max}`
}
