// One thread's own CPU time (process.cpuUsage counts every thread of the process): Node's
// process.threadCpuUsage where it exists (Node 23.9 and later), else the kernel's accounting of
// the thread (Linux /proc/thread-self/schedstat, on-CPU time without the user/kernel split).

import { sampleThreadSched } from '../metrics/thread-schedstat.js'

/**
 * @typedef {{ userUs: number|null, systemUs: number|null, cpuUs: number }} ThreadCpu
 */

/** @returns {ThreadCpu|null} the calling thread's CPU so far; null where neither source exists */
export function threadCpu () {
  if (typeof process.threadCpuUsage === 'function') {
    const u = process.threadCpuUsage()
    return { userUs: u.user, systemUs: u.system, cpuUs: u.user + u.system }
  }
  const s = sampleThreadSched()
  return s ? { userUs: null, systemUs: null, cpuUs: s.onCpuNs / 1000 } : null
}

/**
 * The calling thread's CPU since `start`.
 * @param {ThreadCpu|null} start
 * @returns {ThreadCpu|null}
 */
export function threadCpuSince (start) {
  const now = threadCpu()
  if (!start || !now) return null
  const diff = (k) => now[k] === null || start[k] === null ? null : Math.max(0, now[k] - start[k])
  return { userUs: diff('userUs'), systemUs: diff('systemUs'), cpuUs: Math.max(0, now.cpuUs - start.cpuUs) }
}
