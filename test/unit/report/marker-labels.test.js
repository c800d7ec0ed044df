// Server event labels on the throughput chart: above the plot, stacked, thinned and never overlapping.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { layoutMarkerLabels, LABEL_LAYOUT } from '../../../lib/report/marker-labels.js'
import { renderReport } from '../../../lib/report/render-report.js'

const out = mkdtempSync(join(tmpdir(), 'pgload-labels-'))
test.after(() => rmSync(out, { recursive: true, force: true }))

const TABLES = ['pgbench_tellers', 'pgbench_branches', 'pgbench_history', 'pgbench_accounts']

/** The tpcb fixture with 24 autovacuum runs in its 30 s, one every 1.2 s (what a busy run records). */
function busyRun () {
  const doc = JSON.parse(readFileSync(new URL('../../fixtures/results/tpcb-a.json', import.meta.url), 'utf8'))
  const events = doc.serverStats.events.filter((e) => e.kind !== 'autovacuum')
  for (let i = 0; i < 24; i++) events.push({ t: 1 + i * 1.2, kind: 'autovacuum', table: TABLES[i % 4] })
  doc.serverStats.events = events
  return doc
}

test('labels of one row never overlap, at most three rows, and every event is counted', () => {
  const markers = [{ t: 12, kind: 'checkpoint', label: 'checkpoint' }]
  for (let i = 0; i < 24; i++) markers.push({ t: 1 + i * 1.2, kind: 'autovacuum', label: `autovacuum ${TABLES[i % 4]}` })
  const { labels, unlabelled } = layoutMarkerLabels(markers, 30)
  assert.ok(labels.length >= 4, `${labels.length} labels`)
  assert.ok(labels.every((l) => l.row >= 0 && l.row < LABEL_LAYOUT.rows))
  assert.equal(labels.reduce((n, l) => n + l.count, 0) + unlabelled, 25)
  assert.ok(labels.some((l) => l.label === 'checkpoint'), 'the checkpoint keeps its label')
  assert.ok(labels.some((l) => / ×[2-9]$/.test(l.label)), 'repeats of one table close together become one label')
  // where vega may draw the marker: between the data's end and a nice domain a quarter longer
  const lo = (t) => t * LABEL_LAYOUT.chartWidthPx / (30 * 1.25)
  const hi = (t) => t * LABEL_LAYOUT.chartWidthPx / 30
  const extent = (l) => {
    const w = l.label.length * LABEL_LAYOUT.charPx + 3
    return l.align === 'right' ? [lo(l.t) - w, hi(l.t)] : [lo(l.t), hi(l.t) + w]
  }
  assert.ok(labels.every((l) => l.y < 0), 'labels above the plot, clear of the data')
  for (const a of labels) {
    for (const b of labels) {
      if (a === b || a.row !== b.row) continue
      const [a0, a1] = extent(a)
      const [b0, b1] = extent(b)
      assert.ok(a1 <= b0 || b1 <= a0, `"${a.label}" and "${b.label}" overlap in row ${a.row}`)
    }
  }
})

test('a label near the right edge ends at its marker instead of running off the chart', () => {
  const { labels } = layoutMarkerLabels([{ t: 29.5, kind: 'autovacuum', label: 'autovacuum pgbench_accounts' }], 30)
  assert.equal(labels[0].align, 'right')
  // at 26 s of 30 it fits only where the axis runs to 37.5 s; where it ends at 30 s it would
  // run into the legend: it ends at its marker
  const at26 = layoutMarkerLabels([{ t: 26, kind: 'autovacuum', label: 'autovacuum pgbench_tellers' }], 30).labels
  assert.equal(at26[0].align, 'right')
})

test('the time to steady state takes its place first; every label gets a row above the plot', () => {
  const markers = [{ t: 5, kind: 'autovacuum', label: 'autovacuum pgbench_accounts' }, { t: 6, kind: 'steady', label: 'steady from 6 s (±10 % of 500 tps)' }]
  const { labels } = layoutMarkerLabels(markers, 30)
  assert.deepEqual(labels.map((l) => [l.kind, l.row]), [['autovacuum', 1], ['steady', 0]])
  assert.deepEqual(labels.map((l) => l.y), [-(LABEL_LAYOUT.topPx + LABEL_LAYOUT.rowPx), -LABEL_LAYOUT.topPx])
})

test('the rendered throughput chart of a busy run has no overlapping event labels', async () => {
  const [file] = await renderReport([busyRun()], { formats: ['svg'], outDir: out }).then((f) => f.filter((p) => p.endsWith('throughput.svg')))
  const svg = readFileSync(file, 'utf8')
  const texts = [...svg.matchAll(/<text ([^>]*)>((?:autovacuum|checkpoint)[^<]*)<\/text>/g)].map(([, attrs, text]) => {
    const [, x, y] = /translate\(([-\d.]+),([-\d.]+)\)/.exec(attrs)
    const anchor = /text-anchor="end"/.test(attrs) ? 'end' : 'start'
    const w = text.length * 5.6 // vega's own estimate at 10 px is about this
    const x0 = anchor === 'end' ? Number(x) - w : Number(x)
    return { text, y: Number(y), x0, x1: x0 + w }
  })
  assert.ok(texts.length >= 4 && texts.length < 24, `${texts.length} labels drawn`)
  for (const a of texts) {
    for (const b of texts) {
      if (a === b || Math.abs(a.y - b.y) >= 10) continue
      assert.ok(a.x1 <= b.x0 || b.x1 <= a.x0, `"${a.text}" overlaps "${b.text}"`)
    }
  }
  assert.match(svg, /more events without a label: hover the lines/)
})
