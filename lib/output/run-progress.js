// The progress line every --progress seconds: elapsed, tps, p50/p99 of the period, failures,
// lag, and either the active connections or, on paced runs, the terminals by state; a workload
// may add its own figure (TPC-C: the rolling tpmC). During a warm-up or ramp-up, a line marked
// so. Redrawn in place on a TTY, plain lines otherwise (pgbench -P style).

import { mergeHistograms } from '../metrics/histogram.js'
import { ServerPeriod, formatServerProgress } from './server-progress.js'

/**
 * Subscribe a progress presenter to a run's intervals.
 * @param {import('../engine/run-handle.js').RunHandle} run
 * @param {{ everyS: number, stream?: NodeJS.WriteStream, isTTY?: boolean, warmupLabel?: string, sampler?: any }} opts
 *   warmupLabel: what the lines before the measured window are called (`ramp-up`, `warm-up`);
 *   sampler: the server statistics sampler, whose readings of the same period follow each line
 */
export function attachProgress (run, { everyS, stream = process.stderr, isTTY = Boolean(stream.isTTY), warmupLabel = 'warm-up', sampler = null }) {
  let pending = []
  let lastS = 0
  let lastWarmS = 0
  let drawn = false
  let lastLine = ''
  const write = (line) => {
    lastLine = line
    if (isTTY) {
      stream.write(`\r\x1b[2K${line}`)
      drawn = true
    } else {
      stream.write(line + '\n')
    }
  }
  const unsample = sampler ? followServer(sampler, { everyS, stream, isTTY, line: () => lastLine }) : () => {}
  const workloadText = (sinceStartS) => run.progressText(sinceStartS)
  const paced = run.settings.paced
  const warmupS = run.settings.warmupUs / 1e6
  /** @param {{ connections: import('../engine/run-handle.js').ConnectionUse, terminals: import('../engine/run-handle.js').TerminalUse }} e */
  const load = ({ connections: c, terminals }) => paced
    ? formatStates(terminals)
    : `${c.active} active conns${c.waiting ? `, ${c.waiting} waiting` : ''}`

  run.on('warmup-tick', (e) => {
    if (e.elapsedS - lastWarmS + 1e-9 < everyS) return
    lastWarmS = e.elapsedS
    const extra = workloadText(e.elapsedS)
    write(`${warmupLabel}: ${e.elapsedS.toFixed(1)} of ${Math.round(e.warmupS)} s${extra ? `, ${extra}` : ''}, ${load(e)}`)
  })

  run.on('interval', (e) => {
    if (e.final) return // the ragged end of the run: the summary follows
    pending.push(e.interval)
    if (e.elapsedS - lastS + 1e-9 < everyS) return
    const periodS = e.elapsedS - lastS
    lastS = e.elapsedS
    if (periodS <= 0) { pending = []; return }
    let count = 0
    let failed = 0
    let skipped = 0
    let lagMax = 0
    const hists = []
    for (const iv of pending) {
      for (const n of Object.values(iv.count)) count += n
      failed += iv.failed
      skipped += iv.skipped
      if (iv.lagMs.max !== null && iv.lagMs.max > lagMax) lagMax = iv.lagMs.max
      for (const h of Object.values(iv.histograms)) hists.push(h)
    }
    pending = []
    const merged = mergeHistograms(hists)
    const p50 = merged.totalCount ? (merged.getValueAtPercentile(50) / 1000).toFixed(3) : '-'
    const p99 = merged.totalCount ? (merged.getValueAtPercentile(99) / 1000).toFixed(3) : '-'
    const extra = workloadText(warmupS + e.elapsedS)
    let line = `progress: ${e.elapsedS.toFixed(1)} s, ${(count / periodS).toFixed(1)} tps${extra ? `, ${extra}` : ''}, lat p50 ${p50} ms p99 ${p99} ms, ${failed} failed`
    if (skipped) line += `, ${skipped} skipped`
    line += `, lag max ${lagMax.toFixed(3)} ms, ${load(e)}`
    write(line)
  })
  return {
    /** End the in-place line so later output starts on a fresh line. */
    close () {
      unsample()
      if (drawn) stream.write('\n')
    }
  }
}

/**
 * The server's line of each progress period, written when the sampler's reading of the period's
 * last tick arrives (a few ms after the progress line); on a TTY it joins the line redrawn, else
 * it is a line of pgload's own (pgbench has no such line).
 */
function followServer (sampler, { everyS, stream, isTTY, line }) {
  const period = new ServerPeriod()
  let startS = 0
  let noted = false
  return sampler.onSample((entry, s) => {
    if (entry.warmup) { period.lastT = entry.t; return }
    period.add(entry)
    if (entry.t - startS + 1e-9 < everyS) return
    startS = entry.t
    const { line: text, unknown } = formatServerProgress(period, { checkpoint: s.checkpointRunning() })
    period.reset()
    if (isTTY) stream.write(`\r\x1b[2K${line()} | ${text}`)
    else stream.write(`pgload: ${text}\n`)
    if (unknown && !noted) {
      noted = true
      stream.write(`${isTTY ? '\n' : ''}pgload: a server figure shown as - could not be read; the summary's server notes say why\n`)
    }
  })
}

/**
 * @param {{ keying: number, thinking: number, running: number, waiting: number, finished?: number }} s
 */
export function formatStates (s) {
  return `terminals: ${s.keying} keying, ${s.thinking} thinking, ${s.running} in a transaction, ${s.waiting} waiting for a connection${s.finished ? `, ${s.finished} finished` : ''}`
}
