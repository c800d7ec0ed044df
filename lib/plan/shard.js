// Which shard of a run this process is (--shard K/N, or Kubernetes' JOB_COMPLETION_INDEX with
// --shards N), the run's id that every shard of one command agrees on, and the seed all shards
// share when none is given. Shards are numbered from 0, as JOB_COMPLETION_INDEX is; shard 0 is
// the coordinator.

import { createHash } from 'node:crypto'
import { PgloadError } from '../errors.js'
import { parseDurationS, parseInteger } from '../options/parse.js'
import { rangeOf } from '../options/ranges.js'
import { seedAsInt64 } from '../random/seeding.js'
import { shownValue } from '../options/shown.js'

/** Seconds the shards wait for each other at the start, unless --shard-timeout says. */
export const DEFAULT_SHARD_TIMEOUT_S = 60
/** The most shards of one run. */
export const MAX_SHARDS = rangeOf('--shards').max
// a Kubernetes Job name (a DNS label, 63 characters) fits; no characters that need quoting anywhere
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/

/**
 * The shard of a run: `index` of `count` (0-based), the run's id, and how long to wait for the others.
 * @typedef {{ index: number, count: number, runId: string, runIdGiven: boolean, timeoutS: number }} ShardPlan
 */

/**
 * Plan options that differ between the shards of one command, or do not change what runs: left
 * out of the derived run id (the seed too, when it was not given: each process draws its own;
 * and where --log files go).
 */
const NOT_IN_RUN_ID = new Set(['planVersion', 'resultName', 'seedGiven', 'url', 'out', 'writeFile', 'command',
  'progressS', 'progressTimestamp', 'verboseErrors', 'serverStats', 'waitSamplingHz', 'shard'])

const bad = (message, hint) => new PgloadError(message, { code: 'BAD_OPTION', hint })

/**
 * The shard options of a run, checked; null when the run is not sharded.
 * @param {{ shard?: string, shards?: string|number, shardIndex?: string|number, runId?: string, shardTimeout?: string|number }} given
 *   shardIndex: JOB_COMPLETION_INDEX as the environment has it (read by the command line)
 * @param {Record<string, any>} plan the rest of the resolved plan (for the derived run id)
 * @returns {ShardPlan|null}
 */
export function resolveShard ({ shard, shards, shardIndex, runId, shardTimeout }, plan) {
  const count = shards === undefined ? undefined : parseInteger(shards, '--shards', { min: 1, max: MAX_SHARDS })
  let index
  if (shard !== undefined) {
    const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(String(shard))
    if (!m) throw bad(`--shard must be K/N, shard K (counted from 0) of N, got ${shownValue(shard)}`)
    const n = parseInteger(m[2], '--shard N', { min: 1, max: MAX_SHARDS })
    index = Number(m[1])
    if (index >= n) throw bad(`--shard ${shard}: shards are numbered 0 to ${n - 1}`)
    if (count !== undefined && count !== n) throw bad(`--shard ${shard} and --shards ${count} disagree`)
    return shardPlan(index, n, { runId, shardTimeout }, plan)
  }
  if (count === undefined) {
    if (runId !== undefined) throw bad('--run-id goes with --shard K/N or --shards N')
    if (shardTimeout !== undefined) throw bad('--shard-timeout goes with --shard K/N or --shards N')
    return null
  }
  if (shardIndex === undefined || shardIndex === '') {
    throw bad(`--shards ${count} needs --shard K/${count} or the environment variable JOB_COMPLETION_INDEX (set by a Kubernetes Indexed Job)`)
  }
  if (!/^\d+$/.test(String(shardIndex).trim())) throw bad(`JOB_COMPLETION_INDEX must be a shard number from 0, got ${shownValue(String(shardIndex))}`)
  index = Number(String(shardIndex).trim())
  if (index >= count) throw bad(`JOB_COMPLETION_INDEX ${index} is not a shard of --shards ${count}: shards are numbered 0 to ${count - 1}`)
  return shardPlan(index, count, { runId, shardTimeout }, plan)
}

function shardPlan (index, count, { runId, shardTimeout }, plan) {
  if (runId !== undefined && !RUN_ID.test(String(runId))) {
    throw bad(`--run-id must be 1 to 63 letters, digits, '.', '_' or '-' (starting with a letter or digit), got ${shownValue(String(runId))}`)
  }
  const timeoutS = shardTimeout === undefined ? DEFAULT_SHARD_TIMEOUT_S : parseDurationS(shardTimeout, '--shard-timeout', rangeOf('--shard-timeout'))
  if (!(timeoutS > 0)) throw bad(`--shard-timeout must be positive, got ${shownValue(shardTimeout)}`)
  return { index, count, runId: runId === undefined ? derivedRunId(plan, count) : String(runId), runIdGiven: runId !== undefined, timeoutS }
}

/**
 * The run id of a command when none is given: a digest of what the shards run, so every shard
 * of one command derives the same id without talking to the others.
 * @param {Record<string, any>} plan
 * @param {number} count
 */
export function derivedRunId (plan, count) {
  const what = { shards: count }
  for (const k of Object.keys(plan).sort()) {
    if (NOT_IN_RUN_ID.has(k) || (k === 'seed' && !plan.seedGiven)) continue
    what[k] = k === 'workloadOptions' ? { ...plan[k], logPrefix: undefined } : plan[k]
  }
  return `pgload-${sha256(stableJson(what)).slice(0, 12)}`
}

/**
 * The seed of a sharded run without --seed: from the run id, so all its shards draw the same
 * transactions' constants (TPC-C's run-time C values, a script's default_seed).
 * @param {string} runId
 * @returns {string} a signed 64-bit decimal, as plans hold seeds
 */
export function shardSeed (runId) {
  const digest = createHash('sha256').update(`pgload seed ${runId}`).digest()
  return seedAsInt64(digest.readBigUInt64BE(0)).toString()
}

/**
 * "shard K/N", as messages and application names say it.
 * @param {{ index: number, count: number }} shard
 */
export function shardName ({ index, count }) {
  return `shard ${index}/${count}`
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex')

/** JSON with object keys sorted at every level, so equal plans give equal text. */
function stableJson (value) {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  return `{${Object.keys(value).sort().filter((k) => value[k] !== undefined).map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`).join(',')}}`
}
