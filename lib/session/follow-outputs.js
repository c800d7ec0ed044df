// One run's events to the outputs: start once the handle exists, then every interval and stage.
// The server statistics sampler is handed only to outputs that say they need it.

import { callOutputsNow } from './output.js'

/**
 * @param {import('../engine/run-handle.js').RunHandle} run
 * @param {import('./output.js').Output[]} outputs
 * @param {{ plan: any, types?: string[], sampler?: any }} extras
 * @param {(line: string) => void} warn
 * @returns {{ context: import('./output.js').OutputContext, stop(): void }}
 */
export function followOutputs (run, outputs, { plan, types = [], sampler = null }, warn) {
  const context = { plan, run, types, sampler: null, file: null }
  const withSampler = { ...context, sampler }
  const contexts = new Map(outputs.map((o) => [o, o.needs?.sampler ? withSampler : context]))
  const contextOf = (o) => contexts.get(o)
  callOutputsNow(outputs, 'start', (o) => [contextOf(o)], warn)
  const each = (method) => (e) => callOutputsNow(outputs, method, (o) => [e, contextOf(o)], warn)
  const onInterval = each('interval')
  const onStage = each('stage')
  run.on('interval', onInterval)
  run.on('stage', onStage)
  let stopped = false
  return {
    context,
    stop () {
      if (stopped) return
      stopped = true
      run.off('interval', onInterval)
      run.off('stage', onStage)
    }
  }
}
