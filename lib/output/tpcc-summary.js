// The TPC-C block of the end-of-run summary: throughput figures and how each is counted, the mix
// and its minimums, the measured waits, the response-time check, rollbacks and deferred Delivery.
// A figure counted from too few events says so (lib/output/enough-data.js).

import { countSpreadPct, fewEvents } from './enough-data.js'
import { plural } from '../format/plural.js'

const f1 = (v) => v === null || v === undefined ? '-' : Number(v).toFixed(1)
const f3 = (v) => v === null || v === undefined ? '-' : v.toFixed(3)
// 600 -> "600 s", 40 -> "40 s"
const fs = (v) => `${Math.round(Number(v) * 10) / 10} s`

/**
 * What the efficiency ceiling says of the efficiency. The ceiling is what these waits and this
 * mix allow on average; the count of New-Orders in a finite window varies by chance and can land above.
 * @param {{ efficiency?: number|null, efficiencyCeiling?: number|null }} c the results' `tpcc` section
 * @returns {string} empty without a ceiling
 */
export function efficiencyCeilingText (c) {
  if (typeof c.efficiencyCeiling !== 'number') return ''
  if (typeof c.efficiency === 'number' && c.efficiency > c.efficiencyCeiling) {
    return `above the ${f1(c.efficiencyCeiling)}% these waits and this mix allow on average, by chance: the New-Orders of a finite window vary around that average`
  }
  return `these waits and this mix allow at most ${f1(c.efficiencyCeiling)}%`
}

/**
 * Whether the efficiency means anything: it compares tpmC with the spec's paced maximum, so a run
 * without keying and think times (--no-wait) has none to compare with.
 * @param {{ paced?: boolean }} c the results' `tpcc` section
 * @returns {boolean}
 */
export function efficiencyApplies (c) {
  return c.paced !== false
}

/** What the summary and the report print instead of an unpaced run's efficiency. */
export const UNPACED_EFFICIENCY = 'n/a (unpaced: --no-wait)'

/**
 * The TPC-C block.
 * @param {any} results a results document with a `tpcc` section
 * @returns {string}
 */
export function formatTpcc (results) {
  const c = results.tpcc
  const measuredS = c.measuredS ?? results.run.durationS
  const warmupS = c.warmupS ?? results.run.warmupS ?? 0
  const window = warmupS > 0 ? `; measured ${fs(measuredS)} after a ${fs(warmupS)} ${c.rampUp ? 'ramp-up' : 'warm-up'}` : `; measured ${fs(measuredS)}`
  const lines = [
    `TPC-C, ${plural(c.warehouses, 'warehouse', 'warehouses')}, ${c.terminals} terminals, ${c.paced ? 'spec-paced' : 'unpaced'}${c.waitScale && c.waitScale !== 1 && c.paced ? ` (waits x${c.waitScale})` : ''}${window}`,
    `tpmC = ${f1(c.tpmC)}   New-Orders the driver saw commit, per minute of the measured window`,
    `NOPM = ${f1(c.nopm)}   growth of the districts' order counters (sum of d_next_o_id) over the same window, per minute, as HammerDB counts`,
    `TPM total = ${f1(c.tpmTotal)}   transactions of all types per minute`,
    efficiencyApplies(c)
      ? `efficiency = ${f1(c.efficiency)}%   tpmC / (12.86 x ${plural(c.warehouses, 'warehouse', 'warehouses')})${typeof c.efficiencyCeiling === 'number' ? `; ${efficiencyCeilingText(c)}` : ''}`
      : `efficiency = ${UNPACED_EFFICIENCY}`
  ]
  const newOrders = committedNewOrders(results)
  const few = fewEvents(newOrders, 'New-Orders committed in the window', 'tpmC, NOPM and efficiency')
  if (few) lines.push(`  ${few} (a count this small varies by ±${countSpreadPct(newOrders)} % by chance alone); run longer`)
  lines.push(...typeTable(results), ...responseTimeLines(results))
  if (typeof c.rampUpNeededS === 'number' && warmupS < c.rampUpNeededS) {
    lines.push(`warning: measuring began ${fs(warmupS)} after the start, before the ${fs(c.rampUpNeededS)} ramp-up in which every terminal finishes its first transaction: the figures include the terminals' staggered start`)
  }
  lines.push(...mixWarning(c), ...rollbackLines(results), ...deliveryLines(c, warmupS))
  return lines.join('\n')
}

/** New-Orders that committed in the measured window (tpmC's count), from the document. */
export function committedNewOrders (results) {
  const no = results.transactions?.['new-order']
  if (!no) return 0
  return no.count - (no.rollbacks ?? 0)
}

function typeTable (results) {
  const c = results.tpcc
  const head = ['transaction', 'mix %', 'keying s', 'think s', 'p90 ms', 'limit s', '90th < limit']
  const rows = [head]
  for (const [name, t] of tpccTypes(results)) {
    const rt = c.responseTime?.[name]
    rows.push([
      name,
      f1(c.mix?.[name]),
      t.keyingMs?.mean === null || t.keyingMs?.mean === undefined ? '-' : (t.keyingMs.mean / 1000).toFixed(2),
      t.thinkMs?.mean === null || t.thinkMs?.mean === undefined ? '-' : (t.thinkMs.mean / 1000).toFixed(2),
      rt ? f3(rt.p90Ms) : '-',
      rt ? String(rt.limitMs / 1000) : '-',
      !rt || rt.pass === null ? '-' : rt.pass ? 'pass' : 'FAIL' // null: the type did not run
    ])
  }
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  return rows.map((r) => r.map((x, i) => i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i])).join('  '))
}

/** TPC-C's own types (those of its mix): CH-benCHmark's queries are not in its table. */
function tpccTypes (results) {
  const mix = results.tpcc.mix
  return Object.entries(results.transactions).filter(([name]) => !mix || mix[name] !== undefined)
}

// Clause 5.2.5.3's verdict, and the types whose 90th percentile rests on too few transactions.
function responseTimeLines (results) {
  const c = results.tpcc
  if (c.responseTimePass === undefined) return []
  const thin = tpccTypes(results)
    .filter(([, t]) => t.count > 0 && fewEvents(t.count, 'transactions'))
    .map(([name, t]) => fewEvents(t.count, `${name} transactions`, 'its 90th percentile'))
  const line = `response times (clause 5.2.5.3, 90th percentile per type): ${c.responseTimePass ? 'pass' : 'FAIL'}`
  return [line, ...thin.map((x) => `  ${x}`)]
}

// Clause 5.2.3: a type measured below its minimum share, and why when chance explains it.
function mixWarning (c) {
  const m = c.mixCheck
  if (!m || m.below.length === 0) return []
  const lines = [`warning: the measured mix is below the minimums of clause 5.2.3: ${m.below.map((b) => `${b.type} ${b.pct}% (minimum ${b.minimumPct}%)`).join(', ')}`]
  const byChance = m.below.filter((b) => b.chanceExplains)
  if (byChance.length > 0) {
    const target = byChance.map((b) => `${b.type} ${b.targetPct}%`).join(', ')
    lines.push(m.decks === null
      ? `  only ${plural(m.transactions, 'transaction', 'transactions')}: a random draw varies that much over so few (the --mix asks for ${target})`
      : `  only ${plural(m.decks, 'deck', 'decks')} of 23 transactions completed (${m.decksPerTerminal} per terminal): short runs complete few decks; whole decks give ${target}`)
  }
  for (const b of m.below) {
    if (!b.chanceExplains) lines.push(`  ${b.type}: more than chance explains${b.failed > 0 ? `; ${b.failed} failed` : ''}`)
  }
  return lines
}

function rollbackLines (results) {
  const c = results.tpcc
  const r = c.rollbacks
  const newOrders = results.transactions?.['new-order']?.count ?? 0
  const few = fewEvents(newOrders, 'New-Orders', 'the share')
  const caveat = few ? `; ${few}` : ''
  if (r && r.newOrderPct !== null) return [`rollbacks: ${r.newOrderPct}% of New-Orders (spec: about 1%), ${r.allPct}% of all transactions${caveat}`]
  if (!r && c.newOrderRollbackPct !== undefined && c.newOrderRollbackPct !== null) return [`rollbacks: ${c.newOrderRollbackPct}% of New-Orders (spec: about 1%)${caveat}`]
  return []
}

// Deferred Delivery's queue counts every Delivery the terminals queued, from the start of the
// run: the warm-up's too, which the type table (the measured window) does not count.
function deliveryLines (c, warmupS) {
  const d = c.delivery
  if (!d || typeof d !== 'object' || d.mode !== 'deferred') return []
  const scope = warmupS > 0 ? `deferred Delivery, since the start of the run (the ${fs(warmupS)} ${c.rampUp ? 'ramp-up' : 'warm-up'} included)` : 'deferred Delivery'
  if (d.pass === null) return [`${scope}: ${d.queued} queued, none completed: no verdict`]
  const few = fewEvents(d.completed, 'completed', 'the verdict')
  return [`${scope}: ${d.completed} of ${d.queued} completed, queue to completion p90 ${f3(d.queueToCompletionMs?.p90)} ms, ${d.within80sPct}% within 80 s: ${d.pass ? 'pass' : 'FAIL'}${few ? ` (${few})` : ''}`]
}
