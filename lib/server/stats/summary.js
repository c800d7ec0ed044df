// The server block of the end-of-run summary: a few plain lines from a serverStats object.

/**
 * Format the server statistics for the end-of-run summary.
 * @param {any} serverStats what StatsSampler#finish returned
 * @returns {string} lines separated by '\n' (no trailing newline); '' when there is nothing
 */
export function formatServerStatsSummary (serverStats) {
  const d = serverStats?.deltas
  if (!d) return ''
  const per = serverStats.perTransaction ?? {}
  const lines = []
  const wal = d.walBytes === null || d.walBytes === undefined
    ? 'WAL n/a'
    : `WAL ${mb(d.walBytes)} MB${per.walBytes === null || per.walBytes === undefined ? '' : ` (${fmtNum(per.walBytes, 0)} bytes/txn)`}`
  const hit = d.cacheHitRatio === null || d.cacheHitRatio === undefined ? 'n/a' : `${(d.cacheHitRatio * 100).toFixed(2)}%`
  const read = d.blksRead === null || d.blksRead === undefined ? 'n/a' : fmtNum(d.blksRead, 0)
  lines.push(`server: ${wal}, cache hit ${hit}, blocks read ${read}` +
    (per.blocks === null || per.blocks === undefined ? '' : ` (${fmtNum(per.blocks, 1)} blocks/txn)`))

  const ckpts = checkpointText(d, serverStats.events)
  const temp = d.tempBytes === null || d.tempBytes === undefined ? 'n/a' : `${mb(d.tempBytes)} MB in ${fmtNum(d.tempFiles ?? 0, 0)} files`
  const dl = d.deadlocks === null || d.deadlocks === undefined ? 'n/a' : String(d.deadlocks)
  lines.push(`        checkpoints ${ckpts}, temp ${temp}, deadlocks ${dl}`)

  const av = (serverStats.events ?? []).filter(e => e.kind === 'autovacuum' || e.kind === 'autoanalyze')
  if (av.length > 0) {
    lines.push(`        ${av.map(e => `${e.kind} ${e.table} at ${fmtNum(e.t, 0)}s`).join(', ')}`)
  }
  const missing = serverStats.missing ?? []
  if (missing.length > 0) lines.push(`        (${missing.length} statistic${missing.length === 1 ? '' : 's'} not available: see serverStats.missing)`)
  return lines.join('\n')
}

function checkpointText (d, events = []) {
  const timed = d.checkpointsTimed
  const requested = d.checkpointsRequested
  const starts = events.filter(e => e.kind === 'checkpoint-start').map(e => `${fmtNum(e.t, 0)}s`)
  if ((timed === null || timed === undefined) && (requested === null || requested === undefined)) {
    return starts.length ? `started at ${starts.join(', ')}` : 'n/a'
  }
  const n = (timed ?? 0) + (requested ?? 0)
  let s = `${n} (${timed ?? 'n/a'} timed, ${requested ?? 'n/a'} requested)`
  if (starts.length) s += ` started at ${starts.join(', ')}`
  return s
}

function mb (bytes) {
  return fmtNum(bytes / 1048576, bytes >= 100 * 1048576 ? 0 : 1)
}

function fmtNum (x, digits) {
  return Number(x).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}
