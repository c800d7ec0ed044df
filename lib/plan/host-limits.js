// What this machine allows a run: worker threads in proportion to its cores, and sockets within
// the open-file limit, as pgbench refuses more clients than its open-file limit holds. Checked
// when the plan is resolved, before anything connects.

import os from 'node:os'
import { readFileSync } from 'node:fs'
import { PgloadError } from '../errors.js'

/** Threads past a few per core only take turns on the cores, each with its own heap and event loop. */
export const JOBS_PER_CORE = 4
/** The most threads on any machine: the main thread's messages from each cost it time every interval. */
export const MAX_JOBS = 256
// Descriptors a run holds besides its connections: Node's own (about 20: stdio, libuv's epoll,
// signal and event pipes), files written, the dashboard; and each worker thread's event loop (about 4).
const FD_BASE = 64
const FD_PER_THREAD = 4

/**
 * @typedef {object} HostLimits
 * @property {number} cores os.availableParallelism()
 * @property {number} openFiles the soft RLIMIT_NOFILE; Infinity where it cannot be read
 */

/**
 * This machine's limits.
 * @param {{ readLimits?: () => string }} [io] injected by tests
 * @returns {HostLimits}
 */
export function hostLimits ({ readLimits = () => readFileSync('/proc/self/limits', 'utf8') } = {}) {
  let openFiles = Infinity
  try {
    openFiles = openFileLimit(readLimits())
  } catch { /* not Linux: Node has no getrlimit; the connections fail one by one with EMFILE instead */ }
  return { cores: os.availableParallelism(), openFiles }
}

/**
 * The soft limit of open files from /proc/self/limits text.
 * @param {string} text
 * @returns {number} Infinity when unlimited or not found
 */
export function openFileLimit (text) {
  const m = /^Max open files\s+(\d+|unlimited)\s/m.exec(text)
  return m && m[1] !== 'unlimited' ? Number(m[1]) : Infinity
}

/**
 * The most worker threads (-j) on a machine with `cores` cores.
 * @param {number} cores
 * @returns {number}
 */
export function maxJobs (cores) {
  return Math.max(1, Math.min(MAX_JOBS, JOBS_PER_CORE * cores))
}

/**
 * Refuse -j past maxJobs.
 * @param {number} jobs
 * @param {HostLimits} limits
 */
export function checkJobs (jobs, limits) {
  const most = maxJobs(limits.cores)
  if (jobs > most) {
    throw new PgloadError(`--jobs must be an integer in 1..${most} on this machine (${JOBS_PER_CORE} per core, ${limits.cores} cores, at most ${MAX_JOBS}), got ${jobs}`,
      { code: 'BAD_OPTION', hint: 'more threads than that only take turns on the cores; spread a bigger run over machines with --shards' })
  }
}

/**
 * Refuse a run whose sockets would not fit in the open-file limit, as pgbench does ("need at
 * least N open files"): connections fail one by one with EMFILE otherwise, mid-run.
 * @param {{ sockets: number, flag: string, jobs: number }} run sockets: the connections open at once; flag: what set them
 * @param {HostLimits} limits
 */
export function checkOpenFiles ({ sockets, flag, jobs }, limits) {
  const need = sockets + FD_BASE + FD_PER_THREAD * jobs
  if (need > limits.openFiles) {
    throw new PgloadError(`${flag} ${sockets} needs at least ${need} open files, but the limit is ${limits.openFiles}`,
      { code: 'BAD_OPTION', hint: `use fewer ${flag === '--clients' ? 'clients (or --connections)' : 'connections'}, or raise the limit (ulimit -n ${need})` })
  }
}
