// The server host's CPU and disk on a fresh embedded server (its own pgload home): on by default
// there, in every series entry, the window's figures and the summary's line; none with
// --no-server-host-stats; and a server named by another host name is still found to run here by
// its postmaster.pid.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { runBenchmark } from '../../lib/session/run-benchmark.js'
import { ensureEmbeddedServer, stopServer } from '../../lib/server/embedded/embedded-server.js'
import { openConnection } from '../../lib/db/connection.js'
import { StatsSampler } from '../../lib/server/stats/sampler.js'
import { formatServerStatsSummary } from '../../lib/output/server-summary.js'

const base = mkdtempSync(join(tmpdir(), 'pgload-hoststats-'))
chmodSync(base, 0o755) // as root the server runs as `postgres`, which must reach the home
const env = { ...process.env, PGLOAD_HOME: join(base, 'home') }
for (const k of ['PGHOST', 'PGPORT', 'PGUSER', 'PGDATABASE', 'PGPASSWORD', 'PGSERVICE', 'DATABASE_URL']) delete env[k]
let server

before(async () => {
  server = await ensureEmbeddedServer({ keep: true, env })
})

after(async () => {
  await stopServer({ env }).catch(() => {})
  rmSync(base, { recursive: true, force: true })
})

const OPTIONS = {
  workload: 'tpcb',
  scripts: [{ kind: 'file', name: 'write.sql', weight: 1, text: 'SELECT count(*) FROM generate_series(1, 2000);\n' }],
  clients: 2,
  durationS: 3,
  writeFile: false
}

const SHARE = /^\d+(\.\d+)?$/
const skip = process.platform === 'linux' ? false : '/proc is Linux\'s'

test('on the embedded server by default: every series entry has the host\'s CPU and disk, the window\'s figures and the summary line', { skip }, async (t) => {
  const { results } = await runBenchmark(OPTIONS, { env })
  const s = results.serverStats
  assert.ok(s.series.length >= 2, `${s.series.length} samples`)
  for (const e of s.series) {
    const { cpu, disk } = e.host
    const total = cpu.user + cpu.system + cpu.iowait + cpu.steal + cpu.idle
    assert.ok(Math.abs(total - 100) < 0.5, `the shares add up to 100: ${JSON.stringify(cpu)}`)
    assert.ok(cpu.busy > 0, 'the run kept the CPU busy')
    for (const k of ['readsPerS', 'writesPerS', 'readBytesPerS', 'writeBytesPerS', 'queue']) assert.ok(disk[k] >= 0, `${k} in ${JSON.stringify(disk)}`)
  }
  const host = s.host
  assert.equal(host.available, true)
  assert.equal(host.samples, s.series.filter((e) => !e.warmup).length)
  assert.ok(host.disk.devices.length >= 1 && host.disk.name, JSON.stringify(host.disk))
  assert.ok(['data directory', 'all disks'].includes(host.disk.scope))
  assert.ok(host.max.cpu.busy >= host.window.cpu.busy - 0.5, 'no sample below the window\'s mean at its highest')
  const line = formatServerStatsSummary(s, results.run).split('\n').find((l) => l.trimStart().startsWith('host:'))
  assert.match(line, /^ {8}host: cpu \d+ % busy \(user \d+, system \d+, iowait \d+, steal \d+; highest sample \d+\), disks? \S+ .*\d+ reads\/s [\d.]+ MB\/s, [\d,]+ writes\/s [\d.]+ MB\/s, queue [\d.]+$/)
  assert.ok(SHARE.test(String(host.window.cpu.busy)))
  t.diagnostic(line.trim())
})

test('--no-server-host-stats: none in the series, serverStats.host null, no summary line', { skip }, async () => {
  const { results } = await runBenchmark({ ...OPTIONS, serverHostStats: false }, { env })
  const s = results.serverStats
  assert.ok(s.series.length >= 2)
  assert.equal(s.series.filter((e) => 'host' in e).length, 0)
  assert.equal(s.host, null)
  assert.doesNotMatch(formatServerStatsSummary(s, results.run), /host:/)
})

test('a server reached under a name that is not loopback is still taken when its postmaster.pid is here', { skip }, async () => {
  const sampler = new StatsSampler({ openConnection: () => openConnection(server.target, { protocol: 'simple' }), settleMs: 0, hostStats: { host: 'db.example.com' } })
  assert.equal(await sampler.start(), true)
  await sleep(300) // /proc/stat counts in clock ticks (10 ms): a sample at once may see none pass
  await sampler.sample(1)
  const r = await sampler.finish({ transactions: 0 })
  assert.equal(r.host.available, true, r.host.reason)
  assert.equal(r.host.disk.scope === 'data directory' || /no single disk/.test(r.host.disk.note), true, JSON.stringify(r.host.disk))
  assert.equal(r.series[0].host.cpu.user >= 0, true)
})
