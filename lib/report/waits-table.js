// The report's "Where the time went" section (the results' `waits` section): per transaction
// type the top wait events with their share of its sampled server time, the server time and the
// time outside the server per transaction, and the line on a latency spike with its cause, the
// figures the summary's waits block prints.

import { escapeHtml as h } from './escape.js'
import { formatPerTransaction } from '../output/per-transaction.js'
import { spikesOf, spikeLine } from '../waits/latency-spikes.js'

const TOP = 3
const isNum = (v) => typeof v === 'number' && Number.isFinite(v)

/**
 * @param {any} doc a results document
 * @returns {string} the section's HTML; '' for a run without the wait sampler
 */
export function waitsSectionHtml (doc) {
  const w = doc.waits
  if (!w) return ''
  const heading = '<h3>Where the time went</h3>'
  if (w.available === false) return `${heading}<p class="note">Wait events not sampled: ${h(w.reason ?? 'no reason given')}</p>`
  const head = ['type', 'top wait events (share of server time)', 'server time (ms per transaction)', 'outside the server (ms per transaction)', 'samples']
  const rows = Object.entries(w.types ?? {}).map(([name, t]) => [
    name,
    (t.events ?? []).slice(0, TOP).map((e) => `${e.event} ${Math.round(e.share * 100)} %`).join(', '),
    isNum(t.serverMs) ? `${formatPerTransaction(t.serverMs, 3)} ± ${formatPerTransaction(t.serverMsStderr ?? 0, 3)}` : '–',
    // a difference of two measured means: below zero it says "about none"
    isNum(t.outsideMs) ? `${t.outsideMs < 0 ? '~0' : formatPerTransaction(t.outsideMs, 3)} ± ${formatPerTransaction(t.outsideMsStderr ?? 0, 3)}` : '–',
    (t.samples ?? 0).toLocaleString('en-US')
  ])
  const th = head.map((c) => `<th>${h(c)}</th>`).join('')
  const body = rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${h(c)}</th>` : `<td>${h(c)}</td>`)).join('')}</tr>`).join('\n')
  const source = `<p>${h(`Sampled ${(w.ticks?.done ?? 0).toLocaleString('en-US')} times at ${w.hz} Hz from ${w.source}: pgload's own backends, each sample joined to what its connection ran.`)}</p>`
  const spike = spikeLine(spikesOf(doc))
  return [
    heading,
    source,
    rows.length > 0 ? `<table class="waits"><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>` : '<p class="note">No sample fell inside a transaction.</p>',
    spike ? `<p class="spike">${h(spike)}</p>` : ''
  ].filter(Boolean).join('\n')
}
