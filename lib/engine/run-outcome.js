// What a run measured, as execute() resolves it: the recorder's summary and series, the client's
// CPU over the measured window (process.cpuUsage, event-loop utilisation, the thread's time on a
// CPU and waiting for one), the pool's connect figures and the cancels.

import { performance } from 'node:perf_hooks'
import { sampleThreadSched, threadSchedShares } from '../metrics/thread-schedstat.js'

/** The client's counters at the opening of the measured window. */
export function startCpuWindow () {
  return { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization(), sched: sampleThreadSched() }
}

/**
 * The client's CPU over the measured window, per transaction.
 * @param {ReturnType<typeof startCpuWindow>|null} start null: the window never opened
 * @param {number} txns transactions and failures
 */
export function clientFigures (start, txns) {
  if (!start) return { cpuUsPerTxn: null, eventLoopUtilization: null }
  const cpu = process.cpuUsage(start.cpu)
  const elu = performance.eventLoopUtilization(start.elu)
  const sched = threadSchedShares(start.sched, sampleThreadSched())
  const perTxn = (us) => txns > 0 ? Math.round(us / txns * 100) / 100 : null
  return {
    cpuUs: cpu.user + cpu.system,
    cpuUsPerTxn: perTxn(cpu.user + cpu.system),
    // the kernel's share is mostly the sockets' (send, receive, poll): the driver's own
    // work is the user share
    userUsPerTxn: perTxn(cpu.user),
    systemUsPerTxn: perTxn(cpu.system),
    eventLoopUtilization: Math.round(elu.utilization * 1000) / 1000,
    // the driver's thread (Linux): on a CPU, and runnable but waiting for one
    onCpuShare: sched && Math.round(sched.onCpuShare * 1000) / 1000,
    cpuWaitShare: sched && Math.round(sched.cpuWaitShare * 1000) / 1000,
    cpuWaitUsPerTxn: sched && perTxn(sched.cpuWaitUs)
  }
}

/**
 * The outcome of a plain run.
 * @param {object} p
 * @param {import('../metrics/recorder.js').Recorder} p.recorder
 * @param {import('./pool.js').ConnectionPool} p.pool
 * @param {import('../plan/engine-settings.js').EngineSettings} p.settings
 * @param {import('./run-handle.js').RunStatus} p.status
 * @param {{ startTime?: Date, measureStartUs?: number, endUs: number, initialConnectionMs?: number,
 *   terminals: number, abortedClients: number, cpuWindow: ReturnType<typeof startCpuWindow>|null }} p.run
 * @param {import('./slowest-keeper.js').SlowestKeeper|null} [p.slowest] the slowest transactions kept (--explain-slowest)
 */
export function runOutcome ({ recorder, pool, settings, status, run, slowest = null }) {
  const measuredUs = run.measureStartUs !== undefined ? Math.max(0, run.endUs - run.measureStartUs) : 0
  const durationS = measuredUs / 1e6
  const { summary, transactions } = recorder.summarize(durationS)
  summary.initialConnectionMs = Math.round((run.initialConnectionMs ?? 0) * 1000) / 1000
  if (settings.connectPerTransaction) {
    // pgbench -C: connect time per transaction (included in each transaction's latency here)
    summary.averageConnectionMs = pool.connects > 0 ? Math.round(pool.connectUs / pool.connects) / 1000 : null
  }
  return {
    startTime: run.startTime?.toISOString() ?? new Date().toISOString(),
    endTime: new Date().toISOString(),
    durationS: Math.round(durationS * 1000) / 1000,
    terminals: run.terminals,
    connections: settings.connections,
    paced: settings.paced,
    aborted: run.abortedClients > 0 || (status.abortReason !== null && status.abortReason !== 'interrupted'),
    abortedClients: run.abortedClients,
    abortReason: status.abortReason,
    interrupted: status.interrupted,
    graceS: settings.graceUs / 1e6,
    cancelled: { ...status.cancelled },
    summary,
    transactions,
    intervals: recorder.intervals,
    ...(recorder.stageWindows ? { stages: recorder.stageWindows.entries } : {}),
    client: clientFigures(run.cpuWindow, summary.transactions + summary.failed),
    backendPids: pool.closedPids,
    ...(slowest !== null ? { slowest: slowest.entries() } : {})
  }
}
