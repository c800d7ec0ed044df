// The driver thread's share of a CPU, from the kernel's scheduler accounting (Linux
// /proc/thread-self/schedstat: nanoseconds on a CPU, nanoseconds runnable but waiting for one).
// When client and server share a machine's CPUs, the single-threaded driver can spend more time
// waiting for a CPU than on one: its throughput is then set by its CPU share, whatever the
// server could do. CPU time does not show that, and event-loop utilisation counts the wait
// after a wake-up as idle (it happens inside epoll_wait), so neither can tell it apart.

import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'

const PATH = '/proc/thread-self/schedstat'

/**
 * @typedef {object} SchedSample
 * @property {number} onCpuNs time on a CPU
 * @property {number} waitNs time runnable, waiting for a CPU
 * @property {number} wallNs performance.now() at the sample, in nanoseconds
 */

/**
 * Read a thread's accounting: by default the calling thread's.
 * @param {string} [path] another schedstat file (/proc/<pid>/task/<tid>/schedstat)
 * @returns {SchedSample|null} null where the kernel does not provide it
 */
export function sampleThreadSched (path = PATH) {
  let text
  try {
    text = readFileSync(path, 'latin1')
  } catch {
    return null
  }
  const [onCpu, wait] = text.trim().split(/\s+/)
  const onCpuNs = Number(onCpu)
  const waitNs = Number(wait)
  if (!Number.isFinite(onCpuNs) || !Number.isFinite(waitNs)) return null
  return { onCpuNs, waitNs, wallNs: performance.now() * 1e6 }
}

/**
 * Shares of the wall time between two samples: on a CPU, and runnable but waiting for one.
 * @param {SchedSample|null} from
 * @param {SchedSample|null} to
 * @returns {{ onCpuShare: number, cpuWaitShare: number, cpuWaitUs: number } | null} null without both samples
 */
export function threadSchedShares (from, to) {
  if (from === null || to === null) return null
  const wall = to.wallNs - from.wallNs
  if (!(wall > 0)) return null
  const onCpu = Math.max(0, to.onCpuNs - from.onCpuNs)
  const wait = Math.max(0, to.waitNs - from.waitNs)
  return {
    onCpuShare: Math.min(1, onCpu / wall),
    cpuWaitShare: Math.min(1, wait / wall),
    cpuWaitUs: wait / 1000
  }
}
