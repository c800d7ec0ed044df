// The server block of the end-of-run summary: a few plain lines from a serverStats object. Every
// figure in brackets says what it divides by what; "per transaction" is per transaction of the
// run (committed, rolled back as expected, or failed), as the summary above counts them. WAL is
// the server's (every database, checkpoints); blocks and temp files are the target database's.

import { formatPerTransaction } from './per-transaction.js'
import { bytesText } from '../format/bytes.js'
import { IO_OPS, ioByBackendType, ioTotal } from '../server/stats/io.js'
import { readOnlyWritesText } from '../server/stats/read-only-writes.js'

/**
 * Format the server statistics for the end-of-run summary.
 * @param {any} serverStats what StatsSampler#finish returned
 * @param {{ afterLoad?: any }} [run] the results' run section: afterLoad when the run loaded its
 *   tables first
 * @returns {string} lines separated by '\n' (no trailing newline); '' when there is nothing
 */
export function formatServerStatsSummary (serverStats, run = {}) {
  const lines = []
  const load = afterLoadText(run?.afterLoad)
  if (load) lines.push(load)
  const d = serverStats?.deltas
  if (!d) return lines.join('\n')
  const per = serverStats.perTransaction ?? {}
  const known = (x) => x !== null && x !== undefined
  const wal = known(d.walBytes)
    ? `WAL ${bytesText(d.walBytes)} server-wide${known(per.walBytes) ? ` (${bytes(per.walBytes)} per transaction)` : ''}`
    : 'WAL n/a'
  const hit = known(d.cacheHitRatio) ? `${(d.cacheHitRatio * 100).toFixed(2)}% of block requests` : 'n/a'
  lines.push(`server: ${wal}, cache hit ${hit}`)
  const perRead = [
    known(per.blocksRead) ? `${formatPerTransaction(per.blocksRead)} per transaction` : null,
    known(per.blocks) ? `${formatPerTransaction(per.blocks)} read+hit per transaction` : null
  ].filter(Boolean)
  lines.push(`        blocks read ${known(d.blksRead) ? fmtNum(d.blksRead, 0) : 'n/a'}${perRead.length ? ` (${perRead.join('; ')})` : ''}`)
  const io = ioText(serverStats.io)
  if (io) lines.push(`        ${io}`)
  const host = hostText(serverStats.host)
  if (host) lines.push(`        ${host}`)
  lines.push(`        ${checkpointText(d, serverStats.events, serverStats.checkpointSource)}`)
  const temp = known(d.tempBytes) ? `${fmtNum(d.tempFiles ?? 0, 0)} (${bytesText(d.tempBytes)})` : 'n/a'
  lines.push(`        temp files ${temp}, deadlocks ${known(d.deadlocks) ? d.deadlocks : 'n/a'}`)

  const hintBits = readOnlyWritesText(serverStats.statements?.writes)
  if (hintBits) lines.push(`        ${hintBits}`)
  const av = (serverStats.events ?? []).filter(e => e.kind === 'autovacuum' || e.kind === 'autoanalyze')
  if (av.length > 0) {
    lines.push(`        ${av.map(e => `${e.kind} ${e.table} at ${fmtNum(e.t, 0)}s`).join(', ')}`)
  }
  const missing = serverStats.missing ?? []
  if (missing.length > 0) lines.push(`        (${missing.length} statistic${missing.length === 1 ? '' : 's'} not available: see serverStats.missing)`)
  return lines.join('\n')
}

/**
 * The line saying that the run came right after loading its tables, or null.
 * @param {any} afterLoad the results' run.afterLoad
 * @returns {string|null}
 */
export function afterLoadText (afterLoad) {
  if (!afterLoad || typeof afterLoad !== 'object') return null
  const done = [afterLoad.vacuumed ? 'vacuumed' : null, afterLoad.checkpointed ? 'checkpointed' : null].filter(Boolean)
  const refused = afterLoad.checkpointed ? '' : `; no CHECKPOINT${afterLoad.checkpointRefused ? `: ${afterLoad.checkpointRefused}` : ''}`
  return `note: this run followed a load of its tables (${done.length ? done.join(' and ') : 'not vacuumed'} before the clock started${refused}): ` +
    'its cache and WAL figures are not those of a steady state'
}

/**
 * Checkpoint spans from the run's events, in order: start and end in run time (end null while
 * still running at the end), cause, and whether it was already running when the run started.
 * @param {any[]} events
 * @returns {{ start: number, end: number|null, cause?: string, inProgressAtStart: boolean, beganS?: number }[]}
 */
export function checkpointSpans (events = []) {
  const spans = []
  let open = null
  for (const e of events) {
    if (e.kind === 'checkpoint-start') {
      open = open ?? { start: e.t, end: null, cause: e.cause, inProgressAtStart: Boolean(e.inProgressAtStart), beganS: e.beganS }
    } else if (e.kind === 'checkpoint-end') {
      // an end without a start: the checkpoint was running before the window
      spans.push(open ? { ...open, end: e.t, cause: open.cause ?? e.cause } : { start: 0, end: e.t, cause: e.cause, inProgressAtStart: true })
      open = null
    }
  }
  if (open) spans.push(open)
  return spans
}

function checkpointText (d, events, source) {
  const spans = checkpointSpans(events ?? [])
  const known = (x) => x !== null && x !== undefined
  const counted = known(d.checkpointsTimed) || known(d.checkpointsRequested)
  let counters = ''
  if (counted) {
    counters = `; server counters in the window: ${d.checkpointsTimed ?? 'n/a'} timed, ${d.checkpointsRequested ?? 'n/a'} requested` +
      (known(d.checkpointsDone) ? `, ${d.checkpointsDone} done` : '')
    const timedBegun = spans.filter(s => !s.inProgressAtStart && s.cause === 'timed').length
    if (d.checkpointsTimed > timedBegun && !known(d.checkpointsDone)) counters += ' (timed ones with nothing to write count too)'
  }
  if (spans.length === 0) return `checkpoints: ${counted || source ? 'none in the run' : 'n/a'}${counters}`
  const times = source === 'log' ? 'times from the server log' : 'times to the sample'
  // the log has milliseconds: a CHECKPOINT's few of them still show
  const secs = (t) => `${fmtNum(t, source === 'log' ? 2 : 1)} s`
  return `checkpoints: ${spans.length} in the run (${spans.map(s => spanText(s, secs)).join('; ')}; ${times})${counters}`
}

function spanText (s, secs) {
  const parts = []
  if (s.cause) parts.push(s.cause)
  if (s.inProgressAtStart) {
    parts.push(`in progress when the run started${typeof s.beganS === 'number' ? ` (began ${secs(-s.beganS)} before)` : ''}`)
    parts.push(s.end === null ? 'still running at the end' : `ended at ${secs(s.end)}`)
  } else {
    parts.push(s.end === null ? `from ${secs(s.start)}, still running at the end` : `${secs(s.start)} to ${secs(s.end)}`)
  }
  return parts.join(', ')
}

// The two backend types that did the most I/O in the window, with their non-zero operations.
function ioText (rows) {
  if (!Array.isArray(rows)) return null
  const top = ioByBackendType(rows).slice(0, 2)
  if (top.length === 0) return 'I/O (pg_stat_io): none'
  const ops = (s) => IO_OPS.filter(([name]) => s[name] > 0).map(([name]) => `${fmtNum(s[name], 0)} ${name}`).join(', ')
  const wal = (s) => s.wal && ioTotal(s.wal) > 0 ? ` (of which WAL ${ops(s.wal)})` : ''
  return `I/O (pg_stat_io, most first): ${top.map(s => `${s.backendType} ${ops(s)}${wal(s)}`).join('; ')}`
}

/**
 * The server host's line: CPU busy over the window as shares of all cores, and its disk's rates.
 * @param {any} host serverStats.host (lib/server/stats/host-stats.js)
 * @returns {string|null} null when the host's figures were not asked for
 */
export function hostText (host) {
  if (!host || typeof host !== 'object') return null
  if (!host.available) return `host: n/a: ${host.reason}`
  const cpu = host.window?.cpu
  const n0 = (x) => fmtNum(x, 0)
  const cpuText = cpu
    ? `cpu ${n0(cpu.busy)} % busy (user ${n0(cpu.user)}, system ${n0(cpu.system)}, iowait ${n0(cpu.iowait)}, steal ${n0(cpu.steal)}` +
      // one sample's figure spans less than the window's (its end, the reads after it): no highest of one
      `${typeof host.max?.cpu?.busy === 'number' && host.samples >= 2 ? `; highest sample ${n0(host.max.cpu.busy)}` : ''})`
    : 'cpu n/a'
  const disk = host.window?.disk
  const where = host.disk?.scope === 'all disks' ? `disks ${host.disk.name} (all of them: ${host.disk.note})` : `disk ${host.disk?.name}`
  const mb = (b) => `${fmtNum(b / 1e6, 1)} MB/s`
  const diskText = disk
    ? `${where} ${n0(disk.readsPerS)} reads/s ${mb(disk.readBytesPerS)}, ${n0(disk.writesPerS)} writes/s ${mb(disk.writeBytesPerS)}, queue ${fmtNum(disk.queue, 1)}`
    : `disk n/a${host.disk?.note ? `: ${host.disk.note}` : ''}`
  return `host: ${cpuText}, ${diskText}`
}

function bytes (n) {
  return n >= 1024 ? bytesText(n, { fixed: true }) : `${formatPerTransaction(n, 0)} bytes`
}

function fmtNum (x, digits) {
  return Number(x).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}
