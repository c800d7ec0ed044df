// The sampler with the server host's figures (lib/server/stats/host-stats.js) on a machine of
// made-up /proc files, and without them.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { StatsSampler } from '../../../../lib/server/stats/sampler.js'
import { formatServerStatsSummary } from '../../../../lib/output/server-summary.js'
import { fakeServer, clock } from './fake-stats-server.js'

// A machine whose /proc/stat moves by 100 ticks of user time and 100 idle per `tick()`, and
// whose disk writes 10 times per call, with the server's postmaster.pid.
function hostMachine () {
  const m = { user: 1000, idle: 8000, writes: 100 }
  const system = {
    platform: 'linux',
    readText: async (path) => {
      if (path === '/proc/stat') return `cpu  ${m.user} 0 0 ${m.idle} 0 0 0 0 0 0\n`
      if (path === '/proc/diskstats') return ` 8 0 sda 0 0 0 0 ${m.writes} 0 ${m.writes * 8} 0 0 0 0 0 0 0 0 0 0\n`
      if (path === '/srv/pg/postmaster.pid') return '77\n/srv/pg\n1764320000\n5432\n'
      throw new Error(`ENOENT ${path}`)
    },
    deviceOf: async () => ({ major: 8, minor: 0 }),
    partitionParents: async () => new Map()
  }
  m.tick = () => { m.user += 100; m.idle += 100; m.writes += 10 }
  return { m, system }
}

test('hostStats: every series entry has the host\'s CPU and disk, the window\'s figures are in serverStats.host', async () => {
  const srv = fakeServer()
  const c = clock()
  const { m, system } = hostMachine()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, now: c.now, settleMs: 0, hostStats: { host: 'db.example.com', system } })
  await sampler.start({ measuredFrom: 2 })
  c.ms = 1000; m.tick()
  assert.equal((await sampler.sample(1)).warmup, true)
  for (const t of [2, 3]) {
    c.ms = t * 1000; m.tick(); m.tick()
    await sampler.sample(t)
  }
  const r = await sampler.finish({ transactions: 1 })
  assert.deepEqual(r.series.map(e => e.host.cpu.user), [50, 50, 50])
  assert.deepEqual(r.series.map(e => e.host.disk.writesPerS), [10, 20, 20])
  assert.deepEqual(r.host.disk, { name: 'sda', devices: ['sda'], scope: 'data directory' })
  assert.equal(r.host.samples, 2, 'the warm-up sample is not the run\'s')
  // the window opened at t = 2 (the first measured sample's reading) and ended with finish's
  assert.deepEqual(r.host.window, { cpu: { busy: 50, user: 50, system: 0, iowait: 0, steal: 0, idle: 50 }, disk: { readsPerS: 0, writesPerS: 20, readBytesPerS: 0, writeBytesPerS: 81920, queue: 0 } })
  assert.equal(r.host.max.disk.writesPerS, 20)
  assert.match(formatServerStatsSummary(r), /^ {8}host: cpu 50 % busy \(user 50, system 0, iowait 0, steal 0; highest sample 50\), disk sda 0 reads\/s 0\.0 MB\/s, 20 writes\/s 0\.1 MB\/s, queue 0\.0$/m)
  // one sample spans less than the window (its end and the reads after it): no 'highest' of one, which could read below the window's mean
  const one = { ...r, host: { ...r.host, samples: 1, max: { ...r.host.max, cpu: { ...r.host.max.cpu, busy: 40 } } } }
  assert.match(formatServerStatsSummary(one), /^ {8}host: cpu 50 % busy \(user 50, system 0, iowait 0, steal 0\), disk/m)
})

test('without hostStats the series and serverStats have no host figures', async () => {
  const srv = fakeServer()
  const c = clock()
  const sampler = new StatsSampler({ openConnection: async () => srv.conn, now: c.now, settleMs: 0 })
  await sampler.start()
  c.ms = 1000
  const e = await sampler.sample(1)
  assert.equal('host' in e, false)
  const r = await sampler.finish({ transactions: 1 })
  assert.equal(r.host, null)
  assert.doesNotMatch(formatServerStatsSummary(r), /host/)
})
