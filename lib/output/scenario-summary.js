// The summary's blocks of a scenario run (`pgload run --scenarios`): after the totals, one block
// per scenario with its workload, load model, window, throughput, latency and failures.

import { formatWaitsSummary } from './waits-summary.js'

const f1 = (v) => v === null || v === undefined ? '-' : v.toFixed(1)
const f3 = (v) => v === null || v === undefined ? '-' : v.toFixed(3)

/**
 * @param {any} results a results document
 * @returns {string} '' for a run without scenarios
 */
export function formatScenarios (results) {
  const scenarios = results.scenarios
  if (!scenarios || typeof scenarios !== 'object') return ''
  const blocks = []
  for (const [name, s] of Object.entries(scenarios)) {
    const sum = s.summary
    const l = sum.latencyMs ?? {}
    const all = sum.transactions + sum.failed + (sum.skipped ?? 0)
    const failedPct = all > 0 ? (100 * sum.failed / all).toFixed(3) : '0.000'
    const tags = Object.entries(s.tags ?? {}).map(([k, v]) => `${k}=${v}`).join(', ')
    blocks.push([
      `scenario ${name}: ${s.workload}, ${loadModel(s)}, ${f1(s.startS)}-${f1(s.endS)} s${tags ? ` [${tags}]` : ''}`,
      `  transactions: ${sum.transactions} (${f3(sum.tps)} tps), failed: ${sum.failed} (${failedPct}%)`,
      `  latency p50 ${f3(l.p50)} ms, p95 ${f3(l.p95)} ms, p99 ${f3(l.p99)} ms`,
      // where its transactions spent their time on the server, indented under the scenario
      ...(s.waits ? formatWaitsSummary(s.waits).split('\n').map((line) => `  ${line}`) : [])
    ].join('\n'))
  }
  return blocks.join('\n')
}

/** The scenario's load model in a few words, from its recorded options. */
function loadModel (s) {
  const o = s.options ?? {}
  const clients = `${s.clients} client${s.clients === 1 ? '' : 's'}`
  if (o.stages) return `open model, stages ${o.stages.map((st) => `${st.durationS}s:${st.target}`).join(',')}, ${clients}`
  if (o.rate) return `open model, ${o.rate} tps, ${clients}`
  if (o.clientsStages) return `closed model, clients stages, up to ${clients}`
  const think = o.thinkTime ? `, think time ${o.thinkTime}` : ''
  if (o.transactionsPerClient) return `closed model, ${clients} x ${o.transactionsPerClient} transactions${think}`
  return `closed model, ${clients}${think}`
}
