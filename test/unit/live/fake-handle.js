// A run handle played by a test, and interval payloads as Run emits them (from a real recorder).

import { EventEmitter } from 'node:events'
import { Recorder } from '../../../lib/metrics/recorder.js'

// EventEmitter's own fields, which its methods read on the handle
const EMITTER = new Set(['_events', '_eventsCount', '_maxListeners'])
const HANDLE = new Set(['on', 'off', 'once', 'emit', 'removeListener', 'addListener', 'listenerCount', 'status', 'settings',
  'terminalCount', 'poolSize', 'execute', 'stop', 'abort', 'terminalStates', 'progressText'])

/** A run handle whose other members (recorder, opts, workload ...) throw when read. */
export function strictHandle ({ settings, terminalCount = 4, poolSize = 2 }) {
  const run = new EventEmitter()
  Object.assign(run, { settings, terminalCount, poolSize, recorder: {}, opts: {}, workload: {} })
  run.status = Object.freeze({ state: 'starting', reason: null })
  return new Proxy(run, {
    get (target, key, receiver) {
      if (typeof key === 'symbol' || HANDLE.has(key) || EMITTER.has(key)) return Reflect.get(target, key, receiver)
      throw new Error(`the live view read run.${key}, which is not the run handle's`)
    }
  })
}

/** One interval payload as Run emits it, from a real recorder. */
export function intervalEvent (index, fill, types = ['a', 'b']) {
  const rec = new Recorder(types)
  fill(rec)
  const byType = {}
  const interval = rec.closeInterval(index + 1, 1, byType)
  return {
    index,
    elapsedS: index + 1,
    lengthS: 1,
    final: false,
    interval,
    types: byType,
    connections: { size: 2, active: 1, waiting: 3 },
    terminals: { total: 4, keying: 0, thinking: 0, running: 1, waiting: 3, finished: 0 }
  }
}
