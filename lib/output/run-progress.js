// The progress line every --progress seconds: elapsed, tps, p50/p99 of the period, failures,
// lag, active connections. Redrawn in place on a TTY, plain lines otherwise (pgbench -P style).

import { mergeHistograms } from '../metrics/histogram.js'

/**
 * Subscribe a progress presenter to a run's ticks.
 * @param {import('node:events').EventEmitter} run
 * @param {{ everyS: number, stream?: NodeJS.WriteStream, isTTY?: boolean }} opts
 */
export function attachProgress (run, { everyS, stream = process.stderr, isTTY = Boolean(stream.isTTY) }) {
  let pending = []
  let lastS = 0
  let drawn = false
  run.on('tick', (e) => {
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
    let line = `progress: ${e.elapsedS.toFixed(1)} s, ${(count / periodS).toFixed(1)} tps, lat p50 ${p50} ms p99 ${p99} ms, ${failed} failed`
    if (skipped) line += `, ${skipped} skipped`
    line += `, lag max ${lagMax.toFixed(3)} ms, ${e.activeConnections} active conns`
    if (e.waiting) line += `, ${e.waiting} waiting`
    if (isTTY) {
      stream.write(`\r\x1b[2K${line}`)
      drawn = true
    } else {
      stream.write(line + '\n')
    }
  })
  return {
    /** End the in-place line so later output starts on a fresh line. */
    close () { if (drawn) stream.write('\n') }
  }
}
