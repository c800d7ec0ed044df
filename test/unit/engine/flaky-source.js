// A workload for staged-run tests on one or more threads (lib/engine/threaded-run.js, PartSource):
// each transaction takes `answerMs`, and between two wall-clock times the server is "restarting":
// transactions fail as a restart fails them, the first ones with their COMMIT in flight (outcome
// unknown), the rest with 57P01 (admin_shutdown).

import { fakeConnection } from './fake-run.js'

/**
 * @param {{ answerMs: number, downFromMs: number, downToMs: number }} data epoch ms of the restart
 * @returns {any[]} the workload's transaction types
 */
export function flakyTypes ({ answerMs, downFromMs, downToMs }) {
  let unknown = 0
  return [{
    name: 'q',
    weight: 1,
    async run () {
      await new Promise((resolve) => setTimeout(resolve, answerMs))
      const now = Date.now()
      if (now < downFromMs || now >= downToMs) return
      const err = new Error('terminating connection due to administrator command')
      err.code = '57P01'
      if (unknown++ < 3) { err.code = 'CONNECTION_LOST'; err.outcomeUnknown = true }
      throw err
    }
  }]
}

/** @param {any} data @param {{ thread: number }} ctx */
export async function buildPart (data, { thread }) {
  let pid = thread * 1000
  return { workload: { name: 'flaky', transactions: flakyTypes(data) }, openConnection: async () => fakeConnection(++pid) }
}
