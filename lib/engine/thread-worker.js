// The body of one worker thread of a threaded run (lib/engine/threaded-run.js): it rebuilds the
// workload from its source (the plan), runs its part of the terminals in a plain Run on its own
// event loop and connections, and reports to the main thread once per interval, never per
// transaction. Commands from the main thread: go (the common start), stop, abort.

import { parentPort, workerData } from 'node:worker_threads'
import { performance } from 'node:perf_hooks'
import { Run } from './run.js'
import { ActivitySlots } from './activity-slots.js'
import { sendableError } from './thread-messages.js'
import { receivedSettings } from '../plan/engine-settings.js'
import { threadCpu, threadCpuSince } from './thread-cpu.js'
import { silentLogger } from '../log.js'
import { afterRunLimit } from './after-run.js'

// events of the Run passed on as they are (their errors made sendable)
const FORWARDED = ['notice', 'terminal-aborted', 'server-lost', 'transaction-error', 'connection-error', 'reconnected', 'retryable-error', 'prepare-error', 'cancelled']

const post = (m) => parentPort.postMessage(m)

async function main () {
  const { source, part, seed, settings, activity } = workerData
  const log = silentLogger
  const { buildPart } = await import(source.module)
  const built = await buildPart(source.data, { thread: part, log })
  let go
  const started = new Promise((resolve) => { go = resolve })
  const run = new Run(built.workload, receivedSettings(settings), {
    openConnection: built.openConnection,
    routeOpeners: built.routeOpeners,
    seed,
    seeds: built.seeds,
    part,
    log,
    // what each connection runs, in this worker's range of the run's shared slots (the wait sampler)
    activity: activity ? ActivitySlots.over(activity) : undefined,
    // ready once the pool is open; the main thread gives every worker one start time
    async startGate () {
      post({ t: 'ready', initialConnectionMs: run.initialConnectionMs })
      const epochUs = await started
      return epochUs === null ? undefined : epochUs - performance.timeOrigin * 1000
    }
  })
  parentPort.on('message', (m) => {
    if (m.t === 'go') go(m.epochUs)
    else if (m.t === 'stop') { run.stop(m.reason); go(null) } else if (m.t === 'abort') {
      run.abort(m.reason)
      go(null)
    }
  })
  const cpu = wireEvents(run)
  const outcome = await run.execute()
  const sections = await partSections(built.workload, run)
  post({ t: 'done', outcome, exact: run.recorder.exactSums(), thread: threadFigures(run, outcome, cpu.start), sections })
}

/** The workload's own sections of this part, bounded as the main thread's afterRun; none after Ctrl-C twice. */
async function partSections (workload, run) {
  const status = run.status
  if (!workload.partSections || status.hurried) return null
  const limit = afterRunLimit(run, status.cancelled.grace > 0)
  try {
    return await limit.within(workload.partSections())
  } finally {
    limit.done()
  }
}

/**
 * Pass the run's events to the main thread.
 * @param {Run} run
 * @returns {{ start: any }} this thread's CPU reading when the measured window opened
 */
function wireEvents (run) {
  for (const name of FORWARDED) {
    run.on(name, (e) => post({ t: 'event', name, e: sendableEvent(e) }))
  }
  const cpu = { start: null }
  run.on('internal-error', (err) => post({ t: 'event', name: 'internal-error', e: sendableError(err) }))
  run.on('stopping', ({ reason }) => post({ t: 'stopping', reason }))
  run.on('aborting', ({ reason }) => post({ t: 'aborting', reason }))
  run.on('measuring', () => {
    cpu.start = threadCpu()
    post({ t: 'measuring' })
  })
  // one message per interval (its counts and encoded histograms, the connections and terminals
  // in use), never per transaction
  run.on('warmup-tick', (e) => post({ t: 'warmup-tick', e }))
  run.on('interval', (e) => post({ t: 'interval', e }))
  return cpu
}

/** @param {any} e an event's payload: its `error` made sendable */
function sendableEvent (e) {
  if (!e || typeof e !== 'object') return e
  const out = { ...e }
  if (e.error) out.error = sendableError(e.error)
  if (e.statement) out.statement = { id: e.statement.id, name: e.statement.name, text: e.statement.text }
  return out
}

/**
 * This thread's CPU and event-loop utilisation over its measured window.
 * @param {Run} run @param {any} outcome @param {any} cpuStart the thread's CPU when it opened
 */
function threadFigures (run, outcome, cpuStart) {
  const cpu = cpuStart ? threadCpuSince(cpuStart) : null
  return {
    terminals: run.terminalCount,
    firstTerminal: run.terminalRange.first,
    connections: run.poolSize,
    transactions: outcome.summary.transactions,
    cpuUs: cpu?.cpuUs ?? null,
    userUs: cpu?.userUs ?? null,
    systemUs: cpu?.systemUs ?? null,
    eventLoopUtilization: outcome.client?.eventLoopUtilization ?? null,
    onCpuShare: outcome.client?.onCpuShare ?? null,
    cpuWaitShare: outcome.client?.cpuWaitShare ?? null,
    cpuWaitUs: outcome.client?.cpuWaitUsPerTxn != null ? outcome.client.cpuWaitUsPerTxn * (outcome.summary.transactions + outcome.summary.failed) : null
  }
}

main().catch((err) => {
  // the main thread ends the run with what was measured, in one line
  post({ t: 'crash', error: sendableError(err) })
  process.exitCode = 1
})
