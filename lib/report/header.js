// The report header as HTML: what ran (workload, options, server, key settings), the summary
// table per transaction type, TPC-C figures, thresholds and the server-side deltas.

import { escapeHtml as h } from './escape.js'
import { transactionTypes } from './datasets.js'
import { steadyStateOf } from '../metrics/steady-state.js'
import { loadVaries } from './stage-data.js'
import { runKind, stagedHeaderHtml } from './staged-header.js'
import { clientCpuFact } from '../output/client-cpu.js'
import { afterLoadText } from '../output/server-summary.js'
import { formatPerTransaction } from '../output/per-transaction.js'
import { fewEvents } from '../output/enough-data.js'
import { committedNewOrders, efficiencyApplies, efficiencyCeilingText, UNPACED_EFFICIENCY } from '../output/tpcc-summary.js'
import { bytesText } from '../format/bytes.js'
import { waitsSectionHtml } from './waits-table.js'
import { chbenchSplit, answerLines, querySetText } from '../output/chbench-summary.js'

/** Settings shown first when the results list them, because they shape most benchmarks. */
const KEY_SETTINGS = [
  'shared_buffers', 'max_connections', 'work_mem', 'effective_cache_size', 'max_wal_size',
  'checkpoint_timeout', 'checkpoint_completion_target', 'synchronous_commit', 'fsync',
  'full_page_writes', 'wal_level', 'wal_buffers', 'random_page_cost', 'huge_pages', 'jit'
]

const isNum = (v) => typeof v === 'number' && Number.isFinite(v)

/** Format a number for a table cell: thousands separators, at most 3 decimals. */
export function fmt (v, digits = 3) {
  if (v === null || v === undefined) return '–'
  if (!isNum(v)) return String(v)
  return v.toLocaleString('en-US', { maximumFractionDigits: digits })
}

function bytes (v) {
  return isNum(v) ? bytesText(v) : fmt(v)
}

/** Drop a password from a connection string, in case a results writer kept one. */
function redact (target) {
  return String(target ?? '').replace(/(:\/\/[^:/@]*):[^@/]*@/, '$1:***@').replace(/(password\s*=\s*)\S+/gi, '$1***')
}

/**
 * A table with a header row; each row's first cell is its heading.
 * @param {string[]} head
 * @param {(string|number)[][]} rows
 * @param {string} [cls]
 * @returns {string}
 */
export function table (head, rows, cls = '') {
  const th = head.map((c) => `<th>${h(c)}</th>`).join('')
  const body = rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${h(c)}</th>` : `<td>${h(c)}</td>`)).join('')}</tr>`).join('\n')
  return `<table class="${h(cls)}"><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`
}

function dl (pairs) {
  return '<dl>' + pairs.filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join('') + '</dl>'
}

const UNIT_BYTES = { B: 1, kB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 }

/** A pg_settings value with its unit; memory in pages or kB also as bytes ("16384 8kB = 128 MB"). */
function settingValue (value, unit) {
  if (!unit) return String(value)
  const m = /^(\d*)(B|kB|MB|GB|TB)$/.exec(unit)
  const n = Number(value)
  if (!m || value === '' || !Number.isFinite(n) || n < 0) return `${value} ${unit}`
  const size = bytes(n * Number(m[1] || 1) * UNIT_BYTES[m[2]])
  if (m[1]) return `${size} (${value} × ${unit})`
  return m[2] === 'B' ? size : `${size} (${value} ${unit})`
}

/**
 * Non-default settings as [name, value, source] rows, from either a `nonDefault` list of
 * pg_settings rows or a map of name -> value | { setting, unit, source }.
 * @param {any} settings
 * @returns {[string, string, string][]}
 */
export function settingRows (settings) {
  if (!settings || typeof settings !== 'object') return []
  const list = Array.isArray(settings.nonDefault)
    ? settings.nonDefault
    : Object.entries(settings.settings ?? settings)
      .filter(([, v]) => v !== null && (typeof v !== 'object' || 'setting' in v || 'value' in v))
      .map(([name, v]) => (typeof v === 'object' ? { name, ...v } : { name, setting: v }))
  const rows = list.filter((s) => s && typeof s.name === 'string').map((s) => [s.name, settingValue(s.setting ?? s.value ?? '', s.unit), s.source ?? ''])
  const rank = (n) => { const i = KEY_SETTINGS.indexOf(n); return i === -1 ? KEY_SETTINGS.length : i }
  return rows.sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]))
}

/** The figures per transaction type (and all of them), as a table. @param {any} doc @returns {string} */
export function summaryTable (doc) {
  const head = ['transaction type', 'count', 'tps', 'failed', 'rollbacks', 'retries', 'mean ms', 'p50 ms', 'p90 ms', 'p99 ms', 'p99.9 ms', 'max ms']
  const row = (name, t) => {
    const l = t.latencyMs ?? {}
    return [name, fmt(t.count ?? t.transactions), fmt(t.tps), fmt(t.failed), fmt(t.rollbacks), fmt(t.retries),
      fmt(l.mean), fmt(l.p50), fmt(l.p90), fmt(l.p99), fmt(l.p999), fmt(l.max)]
  }
  const rows = transactionTypes(doc).map((name) => row(name, doc.transactions[name] ?? {}))
  // CH-benCHmark's transactions and queries are no one population: each half has its own figures
  if (doc.summary && rows.length > 1 && !(doc.chbench?.streams > 0)) rows.push(row('all', doc.summary))
  return table(head, rows, 'numbers')
}

function deltasTable (deltas) {
  const rows = Object.entries(deltas ?? {})
    .filter(([, v]) => isNum(v))
    // the ratio is not a change: it says what it divides
    .map(([k, v]) => k === 'cacheHitRatio' ? ['cache hit (blocks hit / block requests)', `${fmt(v * 100, 2)} %`] : [k, /bytes$/i.test(k) ? bytes(v) : fmt(v)])
  return rows.length ? table(['counter', 'change over the run'], rows, 'numbers deltas') : ''
}

// The same figures and the same caveats as the summary's TPC-C block (lib/output/enough-data.js).
function tpccBlock (doc) {
  const tpcc = doc.tpcc
  if (!tpcc || typeof tpcc !== 'object') return ''
  const pairs = [['tpmC', fmt(tpcc.tpmC)], ['NOPM', fmt(tpcc.nopm)], ['efficiency', !efficiencyApplies(tpcc) ? UNPACED_EFFICIENCY : isNum(tpcc.efficiency) ? `${fmt(tpcc.efficiency, 1)} %` + (isNum(tpcc.efficiencyCeiling) ? `; ${efficiencyCeilingText(tpcc).replace(/(\d)%/g, '$1 %')}` : '') : undefined], ['warehouses', tpcc.warehouses]]
  const few = fewEvents(committedNewOrders(doc), 'New-Orders committed in the window', 'tpmC, NOPM and efficiency')
  if (few) pairs.push(['note', few])
  const rt = Object.entries(tpcc.responseTime ?? {}).map(([type, r]) => [type, fmt(r.p90Ms), fmt(r.limitMs), responseVerdict(r, doc.transactions?.[type]?.count)])
  return `<h3>TPC-C</h3>${dl(pairs)}` + (rt.length ? table(['transaction type', 'p90 ms', 'limit ms', 'verdict'], rt, 'numbers') : '')
}

// The summary's CH-benCHmark figures: the analytic streams' throughput, geometric mean and sets.
function chbenchBlock (doc) {
  const c = doc.chbench
  if (!c || typeof c !== 'object') return ''
  if (!(c.streams > 0)) return '<h3>CH-benCHmark</h3><p class="note">No analytic stream (--streams 0): the TPC-C figures are the baseline.</p>'
  const sets = Array.isArray(c.sets) ? c.sets.map((s) => `stream ${s.stream + 1}: ${s.complete}${isNum(s.meanS) ? ` (${fmt(s.meanS, 2)} s each)` : ''}`).join(', ') : undefined
  return '<h3>CH-benCHmark</h3>' + dl([
    ['analytic streams', c.streams],
    ['queries per hour', `${fmt(c.queriesPerHour, 1)} (${fmt(c.queries, 0)} queries)`],
    [`geometric mean of the ${querySetText(c).queries}`, isNum(c.geoMeanMs) ? `${fmt(c.geoMeanMs, 1)} ms` : '– (not every query ran in the measured window)'],
    [`complete sets of ${querySetText(c).setSize}`, sets],
    ['answers', answerLines(c.perQuery ?? {}).map((l) => l.replace(/^answers checked: /, 'checked: ')).join('; ') || undefined]
  ])
}

// CH-benCHmark: TPC-C's transactions per second apart from the analytic queries', never added
function throughputFact (doc) {
  if (!isNum(doc.summary?.tps)) return undefined
  if (!doc.chbench || typeof doc.transactions !== 'object') return `${fmt(doc.summary.tps, 1)} tps`
  const split = chbenchSplit(doc)
  return `${fmt(split.tps, 1)} TPC-C transactions per second, ${fmt(split.qps, 3)} analytic queries per second`
}

// null: the type did not run, so there is no verdict (the summary prints '-').
function responseVerdict (r, count) {
  if (r.pass !== true && r.pass !== false) return '–'
  const verdict = r.pass ? 'within limit' : 'over limit'
  const few = isNum(count) ? fewEvents(count, 'transactions', 'it') : null
  return few ? `${verdict} (${few})` : verdict
}

function thresholdsBlock (thresholds) {
  if (!Array.isArray(thresholds) || thresholds.length === 0) return ''
  const withUnit = (v, unit) => (isNum(v) ? `${fmt(v)}${unit ? ` ${unit}` : ''}` : '–')
  const rows = thresholds.filter((t) => t && typeof t === 'object').map((t) => [
    t.expr ?? '?',
    withUnit(t.actual, t.unit),
    withUnit(t.limit, t.unit),
    t.pass === true ? 'pass' : t.pass === false ? 'FAIL' : '',
    t.reason ?? ''
  ])
  return `<h3>Thresholds</h3>${table(['threshold', 'actual', 'limit', 'verdict', 'note'], rows)}`
}

// Each figure named by what it divides: the run's transactions (committed, expected rollbacks, failed).
const PER_TRANSACTION_LABELS = {
  walBytes: 'WAL per transaction',
  blocksRead: 'blocks read per transaction',
  blocks: 'blocks requested (read + hit) per transaction',
  tuples: 'tuples (returned + fetched + inserted + updated + deleted) per transaction'
}

function perTransactionBlock (per) {
  if (!per || typeof per !== 'object') return ''
  const pairs = Object.entries(per).filter(([, v]) => isNum(v)).map(([k, v]) => [PER_TRANSACTION_LABELS[k] ?? k, /bytes$/i.test(k) ? perTransactionBytes(v) : formatPerTransaction(v)])
  return pairs.length ? `<h3>Per transaction (server side)</h3>${dl(pairs)}` : ''
}

// Below a kilobyte per transaction, the bytes keep their significant digits (0.3 B, not 0 B).
const perTransactionBytes = (v) => (Math.abs(v) < 1024 ? `${formatPerTransaction(v, 0)} bytes` : bytes(v))

function tablesBlock (tables) {
  const entries = Object.entries(tables ?? {}).filter(([, t]) => t && typeof t === 'object')
  if (entries.length === 0) return ''
  const cols = [
    ['seq scans', 'seqScan'], ['index scans', 'idxScan'], ['inserted', 'nTupIns'], ['updated', 'nTupUpd'],
    ['HOT updated', 'nTupHotUpd'], ['deleted', 'nTupDel'], ['dead tuples', 'nDeadTup'], ['autovacuums', 'autovacuumCount'],
    ['heap blocks read', 'heapBlksRead'], ['heap blocks hit', 'heapBlksHit']
  ].filter(([, k]) => entries.some(([, t]) => k in t))
  const rows = entries.map(([name, t]) => [name, ...cols.map(([, k]) => fmt(t[k])), bytes(t.sizeBytes), bytes(t.indexesSizeBytes)])
  return `<details><summary>Workload tables (change over the run)</summary>${table(['table', ...cols.map(([c]) => c), 'size', 'indexes'], rows, 'numbers')}</details>`
}

function statementsBlock (st) {
  if (!st || typeof st !== 'object') return ''
  if (st.available === false) return `<p class="note">Top statements: ${h(st.reason ?? 'not available')}</p>`
  const top = Array.isArray(st.top) ? st.top : []
  if (top.length === 0) return ''
  const rows = top.map((s) => [s.query ?? '', fmt(s.calls), fmt(s.totalMs, 1), fmt(s.meanMs), fmt(s.rows)])
  return `<details><summary>Top statements by total time (pg_stat_statements)</summary>${table(['statement', 'calls', 'total ms', 'mean ms', 'rows'], rows, 'numbers statements')}</details>`
}

function missingBlock (ss) {
  const missing = Array.isArray(ss.missing) ? ss.missing : []
  return missing.length ? `<p class="note">Not collected: ${missing.map((m) => h(m)).join('; ')}</p>` : ''
}

/** What a --cold run's restart did (results `run.cold`). */
function coldFact (cold) {
  if (!cold || typeof cold !== 'object') return undefined
  const how = cold.method === 'command' ? 'restarted by --restart-command' : 'restarted'
  const took = isNum(cold.restartS) ? ` in ${fmt(cold.restartS, 1)} s` : ''
  return `${cold.restarted ? how : 'not restarted'}${took}; OS page cache ${cold.pageCacheNote ?? (cold.pageCacheDropped ? 'dropped' : 'not dropped')}`
}

function steadyFact (st) {
  if (st.timeS === null) return st.reason ? `none (${st.reason})` : undefined
  return `${fmt(st.timeS, 1)} s (then within ±${Math.round(st.band * 100)} % of ${fmt(st.medianTps, 1)} tps)`
}

// pgload's own cost: a reader of the report sees whether the driver, not the server, set the pace.
function clientFact (doc) {
  const c = doc.client
  const cpu = c ? clientCpuFact(doc) : undefined
  if (!cpu) return undefined
  const parts = [cpu]
  if (isNum(c.eventLoopUtilization)) parts.push(`event loop ${Math.round(100 * c.eventLoopUtilization)}% busy`)
  if (isNum(c.onCpuShare) && isNum(c.cpuWaitShare)) parts.push(`driver thread on a CPU ${Math.round(100 * c.onCpuShare)}% of the run, waiting for one ${Math.round(100 * c.cpuWaitShare)}%`)
  return parts.join('; ')
}

// "Run", "Run A"; under a capacity answer or stages table, "Run details" ("Run A: details")
function runHeading (label, staged) {
  const name = label ? `Run ${label}` : 'Run'
  return staged ? (label ? `${name}: details` : 'Run details') : name
}

/**
 * The header section of one run.
 * @param {any} doc a validated results document
 * @param {string | null} label run label when several runs are reported
 * @returns {string} HTML
 */
export function runHeaderHtml (doc, label) {
  const run = doc.run
  const server = doc.server ?? {}
  const ss = doc.serverStats ?? {}
  const settings = settingRows(ss.settings)
  const key = settings.filter(([n]) => KEY_SETTINGS.includes(n))
  const staged = runKind(doc) !== 'run'
  const facts = dl([
    ['workload', run.workload],
    ['command', run.command],
    ['started', run.startTime],
    ['duration', isNum(run.durationS) ? `${fmt(run.durationS, 1)} s` + (run.warmupS ? ` after ${fmt(run.warmupS, 1)} s warm-up` : '') : undefined],
    ['clients / connections', `${run.terminals ?? run.clients ?? '?'} / ${run.connections ?? '?'}`],
    ['protocol', run.protocol],
    ['scale', run.scale],
    ['seed', run.seed],
    ['status', run.aborted ? 'aborted' : run.interrupted ? 'interrupted' : 'completed'],
    ['after a load', afterLoadText(run.afterLoad)?.replace(/^note: /, '')],
    ['cold start', coldFact(run.cold)],
    ['server', [server.version ? `PostgreSQL ${server.version}` : '', server.embedded ? '(embedded)' : '', redact(server.target)].filter(Boolean).join(' ')],
    ['host', doc.host ? `${doc.host.cpus ?? '?'} CPUs, ${bytes(doc.host.memoryBytes)} memory, ${doc.host.platform ?? ''}` : undefined],
    ['pgload', doc.tool ? `${doc.tool.version ?? ''} on Node.js ${doc.tool.node ?? ''}` : undefined],
    ['label', run.label],
    [staged ? 'throughput, whole run' : 'throughput', throughputFact(doc)],
    ['time to steady state', staged || loadVaries(doc) ? undefined : steadyFact(steadyStateOf(doc))],
    ['client', clientFact(doc)]
  ])
  const options = Object.entries(run.options ?? {}).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)])
  const parts = [
    '<section class="run">',
    // a capacity search or staged run opens with its answer or stages; the run's details follow under their own heading
    staged ? stagedHeaderHtml(doc, label) : '',
    `<h2>${h(runHeading(label, staged))}</h2>`,
    facts,
    staged ? '<h3>Summary of the whole run (every stage together)</h3>' : '<h3>Summary</h3>',
    summaryTable(doc),
    tpccBlock(doc),
    chbenchBlock(doc),
    thresholdsBlock(doc.thresholds),
    key.length ? `<h3>Key settings</h3>${dl(key.map(([n, v]) => [n, v]))}` : '',
    settings.length ? `<details><summary>All non-default settings (${settings.length})</summary>${table(['setting', 'value', 'source'], settings)}</details>` : '',
    options.length ? `<details><summary>Options</summary>${table(['option', 'value'], options)}</details>` : '',
    ss.deltas ? `<h3>Server deltas</h3>${deltasTable(ss.deltas)}` : '<p class="note">No server statistics in these results.</p>',
    perTransactionBlock(ss.perTransaction),
    waitsSectionHtml(doc),
    tablesBlock(ss.tables),
    statementsBlock(ss.statements),
    missingBlock(ss),
    '</section>'
  ]
  return parts.filter(Boolean).join('\n')
}
