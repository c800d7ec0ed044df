// A runner's main thread on a CPU and runnable but waiting for one, from the kernel's scheduler
// accounting (Linux /proc/<pid>/task/<pid>/schedstat), sampled while it runs. Client and server
// share the development machine's cores: a runner that waits for a CPU longer than it runs is
// held back by its CPU share, and its tps then follows its CPU per transaction.

import { readFileSync } from 'node:fs'
import { sampleThreadSched } from '../../lib/metrics/thread-schedstat.js'

/** @typedef {{ ms: number, onCpuNs: number, waitNs: number }} SchedPoint */

/**
 * Samples the first child of `parentPid` (the program bash runs) every `everyMs`.
 * @param {number} parentPid
 * @param {{ everyMs?: number }} [opts]
 */
export function sampleChildSched (parentPid, { everyMs = 100 } = {}) {
  const t0 = performance.now()
  /** @type {SchedPoint[]} */
  const points = []
  let pid
  const timer = setInterval(() => {
    pid ??= childPids(parentPid)[0]
    if (pid === undefined) return
    const s = sampleThreadSched(`/proc/${pid}/task/${pid}/schedstat`)
    if (s !== null) points.push({ ms: s.wallNs / 1e6 - t0, onCpuNs: s.onCpuNs, waitNs: s.waitNs })
  }, everyMs)
  timer.unref()
  return {
    points,
    stop () { clearInterval(timer) }
  }
}

/**
 * The processes `pid` has forked and that still run (Linux; empty elsewhere).
 * @param {number} pid
 * @returns {number[]}
 */
export function childPids (pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/**
 * The runner's time on a CPU and waiting for one per transaction, between the first sample at or
 * after `fromMs` and the last at or before `toMs` (ms after the start), with the transactions in
 * between taken as `tps` times that window (the run's steady seconds).
 * @param {SchedPoint[]} points
 * @param {{ fromMs: number, toMs: number, tps: number }} window
 * @returns {{ onCpuUsPerTxn: number, cpuWaitUsPerTxn: number, onCpuShare: number, cpuWaitShare: number } | null}
 */
export function schedPerTxn (points, { fromMs, toMs, tps }) {
  const a = points.find((p) => p.ms >= fromMs)
  const b = points.findLast((p) => p.ms <= toMs)
  if (!a || !b || !(b.ms - a.ms >= 1000) || !(tps > 0)) return null
  const wallNs = (b.ms - a.ms) * 1e6
  const txns = tps * (b.ms - a.ms) / 1000
  const onCpu = b.onCpuNs - a.onCpuNs
  const wait = b.waitNs - a.waitNs
  return {
    onCpuUsPerTxn: onCpu / 1000 / txns,
    cpuWaitUsPerTxn: wait / 1000 / txns,
    onCpuShare: onCpu / wallNs,
    cpuWaitShare: wait / wallNs
  }
}
