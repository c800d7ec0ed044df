// The report's section "Slowest transactions, replayed" (the results' `slowest`, --explain-slowest):
// per type each replayed transaction's latency, and per statement its SQL, parameters and plan as
// EXPLAIN's text tree, or why it was not replayed.

import { escapeHtml as h } from './escape.js'
import { planText } from '../explain/plan-shape.js'
import { plural } from '../format/plural.js'

/**
 * @param {any} doc a results document
 * @param {string|null} label the run's label when the report has several
 * @returns {string} the section's markup; '' when the run has none
 */
export function slowestHtml (doc, label) {
  const s = doc.slowest
  if (!s) return ''
  const title = `<h2>Slowest transactions, replayed${label ? ` (${h(label)})` : ''}</h2>`
  if (s.available === false) return `${title}\n<p class="note">Not replayed: ${h(s.reason)}</p>`
  const which = s.perType === 1 ? 'The slowest transaction' : `The ${s.perType} slowest transactions`
  const intro = `<p class="note">${which} of each type, replayed after the run under EXPLAIN (${h(s.explain)}) in a transaction that was rolled back.</p>`
  const types = Object.entries(s.types ?? {}).map(([name, list]) =>
    `<h3>${h(name)}</h3>\n${list.map((t, i) => transactionHtml(t, i)).join('\n')}`)
  return [title, intro, ...types].join('\n')
}

function transactionHtml (t, i) {
  const statements = t.statements.map((st) => {
    const params = st.parameters.length > 0 ? ` <span class="note">with ${h(st.parameters.map((v) => v === null ? 'NULL' : v).join(', '))}</span>` : ''
    // a script's statement by its line; a TPC-C transaction's in the order it ran
    const head = `<p>${st.line !== undefined ? `line ${st.line}` : `statement ${st.command + 1}`}: <code>${h(st.sql)}</code>${params}</p>`
    if (!st.plan) return `${head}\n<p class="note">not replayed: ${h(st.reason ?? '')}</p>`
    return `${head}\n<details><summary>${h(st.topNode)}: ${st.totalMs} ms</summary><pre>${h(planText(st.plan))}</pre></details>`
  })
  const waits = t.waits ? `<p class="note">waits sampled in it: ${t.waits.events.map((e) => `${h(e.event)} ${e.samples}`).join(', ')} (${plural(t.waits.samples, 'sample')}, about ${t.waits.sampledMs} ms)</p>\n` : ''
  return `<h4>${i + 1}. ${t.latencyMs} ms</h4>\n${waits}${statements.join('\n')}`
}
