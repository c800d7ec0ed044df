// A worker thread played by a test (lib/engine/threaded-run.js's spawn): it records the commands
// the main thread sends and posts what the test says, on the test's clock.

import { EventEmitter } from 'node:events'
import { runOutcome } from '../../../lib/engine/run-outcome.js'
import { Recorder } from '../../../lib/metrics/recorder.js'

/** A worker the test plays: it records the commands it gets and posts what the test says. */
export class FakeWorker extends EventEmitter {
  constructor (data) {
    super()
    this.data = data
    this.commands = []
    setImmediate(() => this.post({ t: 'ready', initialConnectionMs: 1 }))
  }

  postMessage (m) { this.commands.push(m.t === 'stop' || m.t === 'abort' ? `${m.t}:${m.reason}` : m.t) }
  post (m) { this.emit('message', m) }
  terminate () { setImmediate(() => this.emit('exit', 0)) }

  /** The worker's run ends: its outcome, as thread-worker.js posts it. */
  done ({ abortReason = null, interrupted = false, grace = 0 } = {}) {
    const settings = this.settings
    const outcome = runOutcome({
      recorder: new Recorder(['q']),
      pool: { closedPids: [], connects: 0 },
      settings,
      status: { abortReason, interrupted, cancelled: { grace, abort: 0, timeout: 0 } },
      run: { endUs: 0, terminals: settings.range.count, abortedClients: 0, cpuWindow: null }
    })
    this.post({ t: 'done', outcome, exact: { types: [{ name: 'q', sumUs: 0, sumSqUs: 0, count: 0 }], unfinishedWait: null }, thread: {}, sections: null })
  }
}
