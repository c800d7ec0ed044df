// The summary's block on where transactions spent their time on the server (the results' `waits`
// section): per type the top wait events by share of its sampled server time, and the time
// outside the server (network, driver, queueing in pgload) with its standard error.

import { formatPerTransaction } from './per-transaction.js'
import { fewEvents } from './enough-data.js'
import { spikesOf, spikeLine } from '../waits/latency-spikes.js'

const TOP = 3

/**
 * @param {any} waits the results' `waits` section, or undefined
 * @param {any} [doc] the results document: a latency spike that lines up with a cause gets a line
 * @returns {string} lines separated by '\n' (no trailing newline); '' without a section
 */
export function formatWaitsSummary (waits, doc) {
  if (!waits) return ''
  if (waits.available === false) return `waits: not sampled: ${waits.reason}`
  const lines = [`waits: ${headline(waits)}`]
  for (const [name, t] of Object.entries(waits.types ?? {})) {
    const top = t.events.slice(0, TOP).map((e) => `${e.event} ${percent(e.share)}`).join(', ')
    lines.push(`  ${name}: ${top}${outsideText(t)}`)
    const few = fewEvents(t.samples, 'samples', 'these shares or the time outside the server')
    if (few) lines.push(`    ${few}`)
    const slow = t.slow?.events?.[0]
    if (slow && t.slow.samples > 0 && slow.event !== t.events[0]?.event) {
      lines.push(`    slowest 1% (above ${formatPerTransaction(t.slow.aboveMs, 1)} ms): ${t.slow.events.slice(0, TOP).map((e) => `${e.event} ${percent(e.share)}`).join(', ')}`)
    }
  }
  if (waits.note) lines.push(`  note: ${waits.note}`)
  const spike = doc ? spikeLine(spikesOf(doc)) : null
  if (spike) lines.push(`  ${spike}`)
  return lines.join('\n')
}

function headline (w) {
  const skipped = w.ticks.skipped > 0 ? ` (${w.ticks.skipped.toLocaleString('en-US')} skipped: the previous read was still running)` : ''
  const ext = w.pgWaitSampling ? '; pg_wait_sampling is installed, its history is not read' : ''
  return `sampled ${w.ticks.done.toLocaleString('en-US')} times at ${w.hz} Hz from ${w.source}${skipped}${ext}`
}

function outsideText (t) {
  if (t.outsideMs === null || t.outsideMs === undefined) return ''
  // the estimate is a difference of two measured means: below zero it says "about none", no less
  const outside = t.outsideMs < 0 ? '~0' : formatPerTransaction(t.outsideMs, 3)
  return `; outside the server ${outside} ± ${formatPerTransaction(t.outsideMsStderr, 3)} ms of ${formatPerTransaction(t.serverMs + t.outsideMs, 3)} ms (${t.samples.toLocaleString('en-US')} samples)`
}

function percent (share) {
  return `${Math.round(share * 100)}%`
}
