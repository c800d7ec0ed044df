// A workload for worker-thread tests, rebuilt in each worker (lib/engine/threaded-run.js,
// PartSource): no server; each transaction draws two parameters from its terminal's generator and
// notes (terminal, type, parameters), which the worker hands back as its `trace` section.

import { fakeConnection } from './fake-run.js'

/**
 * The transaction types and where they note what they ran.
 * @param {[string, number][]} types [name, weight]
 * @param {any[]} trace
 * @param {{ answerMs?: number }} [opts] answerMs: each transaction takes this long (a timer)
 */
export function traceTypes (types, trace, { answerMs = 0 } = {}) {
  return types.map(([name, weight]) => ({
    name,
    weight,
    async run (ctx) {
      trace.push([ctx.terminalId, name, ctx.random.int(1, 1000000), ctx.random.int(1, 1000)])
      if (answerMs > 0) await new Promise((resolve) => setTimeout(resolve, answerMs))
    }
  }))
}

/**
 * @param {{ types: [string, number][], answerMs?: number, crash?: { thread: number, afterMs: number }, block?: { thread: number, afterMs: number } }} data
 * @param {{ thread: number }} ctx
 */
export async function buildPart (data, { thread }) {
  const trace = []
  if (data.crash?.thread === thread) {
    // a failure outside any transaction: an exception no one catches
    setTimeout(() => { throw new Error('simulated failure') }, data.crash.afterMs)
  }
  if (data.block?.thread === thread) {
    // an event loop that never comes back: the thread reports nothing more
    setTimeout(() => { for (;;); }, data.block.afterMs)
  }
  let pid = thread * 1000
  return {
    workload: { name: 'trace', transactions: traceTypes(data.types, trace, data), partSections: async () => ({ trace }) },
    openConnection: async () => fakeConnection(++pid)
  }
}

/** @param {any[]} trace @returns {Map<number, any[]>} each terminal's transactions, in its order */
export function byTerminal (trace) {
  const m = new Map()
  for (const [id, ...rest] of trace) {
    if (!m.has(id)) m.set(id, [])
    m.get(id).push(rest)
  }
  return m
}
