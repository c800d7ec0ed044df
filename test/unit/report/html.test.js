import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, mkdtempSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { renderReport, writeHtmlReport } from '../../../lib/report/render-report.js'
import { validateResults, readResults } from '../../../lib/results/read.js'
import { escapeHtml, jsonForScript } from '../../../lib/report/escape.js'
import { inlineScriptText } from '../../../lib/report/assets.js'
import * as reportCommand from '../../../lib/cli/report.js'
import { PgloadError } from '../../../lib/errors.js'

const FIXTURES = new URL('../../fixtures/results/', import.meta.url)
const fixture = (name) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'))
const out = mkdtempSync(join(tmpdir(), 'pgload-html-'))
test.after(() => rmSync(out, { recursive: true, force: true }))

const EVIL = '</script><script>alert(1)</script><!-- http://evil.example/x'

async function html (docs, name) {
  const file = await writeHtmlReport(docs, join(out, name))
  return readFileSync(file, 'utf8')
}

const specsOf = (text) => JSON.parse(text.match(/<script type="application\/json" id="pgload-specs">([\s\S]*?)<\/script>/)[1])

test('the HTML report is one self-contained file with no URLs', async () => {
  const text = await html([fixture('tpcb-a.json'), fixture('tpcb-b.json')], 'two.html')
  assert.ok(!/https?:\/\//i.test(text), 'no http(s) URL anywhere in the file')
  assert.ok(!text.includes('sourceMappingURL'), 'no source map reference')
  const markup = text.replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/g, '$1</script>')
  assert.ok(!/<(link|img|iframe)\b|\ssrc=/i.test(markup), 'no external resources in the markup')
  const scripts = text.match(/<script\b/g).length
  assert.equal(text.match(/<\/script>/g).length, scripts, 'every script closes exactly once')
  for (const lib of ['vega@', 'vega-lite@', 'vega-embed@']) assert.ok(text.includes(`data-lib="${lib}`), lib)
  const specs = specsOf(text)
  assert.equal(specs.length, 11)
  assert.equal(text.match(/<div class="chart" id="chart-\d+"/g).length, 11)
  for (const s of specs) {
    assert.equal(s.$schema, undefined)
    assert.ok(Object.keys(s.datasets).length > 0)
  }
  assert.ok(text.length > 800_000 && text.length < 2_000_000, `size ${text.length}`)
})

test('the header summarises each run and says which charts were left out', async () => {
  const text = await html([fixture('tpcc.json')], 'tpcc.html')
  assert.ok(text.includes('<title>pgload report: tpcc</title>'), 'title')
  for (const s of ['PostgreSQL 18.4', 'shared_buffers', '2 GB (262144 × 8kB)', 'new-order', 'stock-level', 'tpmC', 'efficiency', 'Server deltas', 'walBytes', 'xactCommit', 'Top statements', 'district']) assert.ok(text.includes(s), s)
  // server figures say what they divide by what
  for (const s of ['WAL per transaction', 'blocks requested (read + hit) per transaction', 'cache hit (blocks hit &#47; block requests)</th><td>96.8 %']) assert.ok(text.includes(s), s)
  assert.ok(!text.includes('<dt>blocks</dt>'), 'no bare "blocks" figure')
  assert.ok(!text.includes('Charts not drawn'), 'nothing skipped for TPC-C')
  const tpcb = fixture('tpcb-a.json')
  delete tpcb.serverStats
  const t2 = await html([tpcb], 'no-stats.html')
  for (const s of ['Charts not drawn', 'Server activity: no server statistics series', 'No server statistics in these results']) assert.ok(t2.includes(s), s)
  // a TPC-B report does not have TPC-C charts: it does not list them as not drawn
  assert.ok(!t2.includes('TPC-C'), 'no TPC-C chart named in a TPC-B report')
  assert.ok(!(await html([fixture('tpcb-a.json')], 'tpcb.html')).includes('Charts not drawn'), 'nothing left out of a full TPC-B report')
  assert.equal(specsOf(t2).length, 4)
})

test('user-provided strings are escaped everywhere', async () => {
  const doc = fixture('tpcb-a.json')
  doc.run.command = `pgload run ${EVIL}`
  doc.run.options.note = EVIL
  doc.run.transactionTypes = [EVIL, 'select-only']
  doc.transactions = { [EVIL]: doc.transactions['tpcb-like'], 'select-only': doc.transactions['select-only'] }
  // the type renamed everywhere it is named: counts and histograms agree
  const renamed = (byType) => byType && Object.fromEntries(Object.entries(byType).map(([k, v]) => [k === 'tpcb-like' ? EVIL : k, v]))
  doc.intervals = doc.intervals.map((iv) => ({ ...iv, count: renamed(iv.count), histograms: renamed(iv.histograms) }))
  doc.server.target = 'postgres://u:secret@127.0.0.1/db'
  const text = await html([doc], 'evil.html')
  assert.ok(!text.includes('<script>alert'), 'no injected script element')
  assert.ok(!/https?:\/\//.test(text), 'no URL')
  assert.ok(!text.includes('secret'), 'password redacted')
  assert.ok(text.includes('&lt;&#47;script&gt;&lt;script&gt;alert(1)'), 'escaped in the header')
  assert.ok(text.includes('&lt;pgload &amp; &quot;friends&quot;&gt;'), 'setting values escaped')
  const specs = specsOf(text)
  assert.ok(specs[0].datasets.throughput.some((r) => r.type === EVIL), 'the JSON still round-trips')
})

test('escaping helpers', () => {
  assert.equal(escapeHtml('<a href="x">&\'/'), '&lt;a href=&quot;x&quot;&gt;&amp;&#39;&#47;')
  assert.equal(escapeHtml(null), '')
  const json = jsonForScript({ s: '</script><!-- https://x \u2028' })
  assert.doesNotMatch(json, /<|https:\/\/|\u2028/)
  assert.deepEqual(JSON.parse(json), { s: '</script><!-- https://x \u2028' })
  const js = inlineScriptText('a="http://w3.org/2000/svg";b="</script>";c=1<!--x\n//# sourceMappingURL=a.js.map\n')
  assert.doesNotMatch(js, /https?:\/\/|<\/script|<!--|sourceMappingURL/)
  // eslint-disable-next-line no-new-func
  assert.equal(new Function(js.replace('c=1<\\!--x', 'c=1') + ';return a')(), 'http://w3.org/2000/svg')
})

test('results documents are checked before rendering', async () => {
  assert.throws(() => validateResults({ schemaVersion: 2, run: { workload: 'x' }, transactions: {} }, 'r.json'), (e) => e instanceof PgloadError && /r\.json.*schemaVersion/.test(e.message))
  assert.throws(() => validateResults([], 'r.json'), PgloadError)
  const bad = { ...fixture('tpcc.json'), transactions: { a: { count: 1, histogram: 5 } } }
  assert.throws(() => validateResults(bad, 'r.json'), (e) => e.code === 'RESULTS_INVALID' && /^r\.json: transactions\.a\.histogram: expected a string, got 5$/.test(e.message))
  await assert.rejects(readResults(join(out, 'missing.json')), (e) => e instanceof PgloadError && /missing\.json: cannot read results file: no such file/.test(e.message))
  await assert.rejects(renderReport([], {}), PgloadError)
  await assert.rejects(renderReport([fixture('tpcc.json')], { formats: 'html,pdf', outDir: out }), (e) => e instanceof PgloadError && /--format/.test(e.message) && /pdf/.test(e.message))
})

test('report command: handler writes the requested formats into --out', async () => {
  assert.equal(reportCommand.command, 'report <results..>')
  const dir = join(out, 'cli')
  const lines = []
  const log = console.log
  console.log = (s) => lines.push(s)
  try {
    await reportCommand.handler({ results: [new URL('tpcc.json', FIXTURES).pathname], format: 'svg,html', out: dir })
  } finally {
    console.log = log
  }
  assert.equal(lines.length, 7)
  assert.ok(lines.every((f) => existsSync(f) && f.startsWith(dir)))
  assert.ok(lines.includes(join(dir, 'tpcc.svg')) && lines.includes(join(dir, 'report.html')))
  await assert.rejects(reportCommand.handler({ results: [join(out, 'nope.json')] }), PgloadError)
})

test('the run header says what the driver cost and whether its thread waited for a CPU', async () => {
  const doc = fixture('tpcb-a.json')
  const before = await html([doc], 'client-old.html')
  assert.match(before, /<dt>client<\/dt><dd>21\.3 us CPU per transaction; event loop 41% busy<\/dd>/)
  doc.client = { cpuUs: 1, cpuUsPerTxn: 45.1, userUsPerTxn: 13.2, systemUsPerTxn: 31.9, eventLoopUtilization: 0.55, onCpuShare: 0.356, cpuWaitShare: 0.422, cpuWaitUsPerTxn: 52.4 }
  const text = await html([doc], 'client-new.html')
  assert.match(text, /<dt>client<\/dt><dd>45\.1 us CPU per transaction \(13\.2 user, 31\.9 kernel\); event loop 55% busy; driver thread on a CPU 36% of the run, waiting for one 42%<\/dd>/)
})

test('the header says when the run followed a load of its tables, and the client CPU as the summary does', async () => {
  const { runHeaderHtml } = await import('../../../lib/report/header.js')
  const doc = fixture('tpcb-a.json')
  doc.run.afterLoad = { loadS: 2.1, vacuumed: true, checkpointed: true, settleS: 0.4 }
  assert.ok(runHeaderHtml(doc, null).includes('<dt>after a load</dt><dd>this run followed a load of its tables (vacuumed and checkpointed before the clock started)'))
  delete doc.run.afterLoad
  assert.ok(!runHeaderHtml(doc, null).includes('after a load'))
  // 16 transactions in 9.8 s: the share of one core, not per transaction
  Object.assign(doc.run, { durationS: 9.817 })
  Object.assign(doc.summary, { transactions: 16, failed: 0 })
  doc.client = { cpuUs: 32177, cpuUsPerTxn: 2011.06, userUsPerTxn: 1609.06, systemUsPerTxn: 402, eventLoopUtilization: 0.004 }
  assert.ok(runHeaderHtml(doc, null).includes('<dt>client</dt><dd>CPU 0.3% of one core (0.3% user, 0.1% kernel); event loop 0% busy</dd>'))
})

test('the header keeps the significant digits of small per-transaction server figures', async () => {
  const { runHeaderHtml } = await import('../../../lib/report/header.js')
  const doc = fixture('tpcb-a.json')
  doc.serverStats = { ...doc.serverStats, perTransaction: { walBytes: 0.3, blocksRead: 0.0412, blocks: 22.94 } }
  const text = runHeaderHtml(doc, null)
  assert.ok(text.includes('<dt>WAL per transaction</dt><dd>0.3 bytes</dd>'), 'WAL')
  assert.ok(text.includes('<dt>blocks read per transaction</dt><dd>0.041</dd>'), 'blocks read')
  assert.ok(text.includes('<dt>blocks requested (read + hit) per transaction</dt><dd>22.9</dd>'), 'blocks')
})

test('the header\'s thresholds table shows what lib/compare/thresholds/evaluate.js writes: expression, actual and limit with their unit', async () => {
  const { runHeaderHtml } = await import('../../../lib/report/header.js')
  const text = runHeaderHtml(fixture('tpcb-b.json'), 'b')
  assert.match(text, /<th scope="row">p\(99\) &lt; 12ms<\/th><td>9\.1 ms<\/td><td>12 ms<\/td><td>pass<\/td>/)
  assert.match(text, /<th scope="row">tps &gt; 500<\/th><td>650\.2 &#47;s<\/td><td>500 &#47;s<\/td><td>pass<\/td>/)
})
