import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { HostStats } from '../../../../lib/server/stats/host-stats.js'

const fixture = (name) => readFileSync(new URL(`../../../fixtures/host-proc/${name}`, import.meta.url), 'utf8')

const DATA_DIR = '/var/lib/postgresql/18/main'
const PID_FILE = `${DATA_DIR}/postmaster.pid`

/**
 * A machine of fixture files whose readings move from the first fixture to the second, a clock in
 * ms, and a server whose data directory is on nvme0n1's first partition.
 */
function machine ({ platform = 'linux', pidFile = `4242\n${DATA_DIR}\n1764320000\n5432\n/run/postgresql\n`, device = { major: 259, minor: 1 } } = {}) {
  const files = { '/proc/stat': fixture('stat-1.txt'), '/proc/diskstats': fixture('diskstats-1.txt') }
  if (pidFile !== null) files[PID_FILE] = pidFile
  const clock = { ms: 0 }
  const system = {
    platform,
    readText: async (path) => {
      if (!(path in files)) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' })
      return files[path]
    },
    deviceOf: async () => device,
    partitionParents: async () => new Map([['nvme0n1p1', 'nvme0n1']])
  }
  const next = () => {
    files['/proc/stat'] = fixture('stat-2.txt')
    files['/proc/diskstats'] = fixture('diskstats-2.txt')
    clock.ms += 2000
  }
  return { system, next, clock, now: () => clock.ms }
}

const readerOf = (rows) => ({
  queries: 0,
  async query (text) {
    this.queries++
    assert.match(text, /^SELECT \/\* pgload-stats \*\/ current_setting\('data_directory'\)/)
    if (rows instanceof Error) throw rows
    return { rows }
  }
})
const SERVER = [[DATA_DIR, '5432', '1764320001']]

test('a server whose postmaster.pid is here: CPU shares and its data directory\'s disk per sample, the window\'s and the highest at the end', async () => {
  const m = machine()
  const host = new HostStats({ host: 'db.example.com', now: m.now, system: m.system })
  assert.equal(await host.start(readerOf(SERVER)), true, 'a remote name, but the server shows as running here')
  m.next()
  const e = await host.sample()
  assert.deepEqual(e.cpu, { busy: 65.2, user: 34.8, system: 17.4, iowait: 8.7, steal: 4.3, idle: 34.8 })
  assert.deepEqual(e.disk, { readsPerS: 50, writesPerS: 200, readBytesPerS: 2048000, writeBytesPerS: 10240000, queue: 1 })
  const warm = { t: 0, warmup: true, host: { cpu: { busy: 99, user: 99 }, disk: { queue: 50 } } }
  const r = await host.finish([warm, { t: 1, host: e }, { t: 2, host: null }])
  assert.deepEqual(r.disk, { name: 'nvme0n1', devices: ['nvme0n1'], scope: 'data directory' })
  assert.equal(r.available, true)
  assert.equal(r.samples, 1, 'warm-up samples and samples without figures are not counted')
  assert.deepEqual(r.window, e, 'the window ran from the first reading to the last')
  assert.deepEqual(r.max, e, 'the warm-up\'s figures are not the run\'s highest')
})

test('markWindow: the window\'s figures count from the reading when measuring starts', async () => {
  const m = machine()
  const host = new HostStats({ embedded: true, host: '127.0.0.1', now: m.now, system: m.system })
  assert.equal(await host.start(readerOf(SERVER)), true)
  m.next()
  await host.markWindow()
  m.clock.ms += 1000
  const r = await host.finish([])
  assert.equal(r.window.cpu, null, 'no tick passed since the window opened')
  assert.deepEqual(r.window.disk, { readsPerS: 0, writesPerS: 0, readBytesPerS: 0, writeBytesPerS: 0, queue: 0 }, 'the disk did nothing since')
})

test('a remote server that does not show as running here: none, and the one reason names the host and the client\'s machine', async () => {
  const m = machine({ pidFile: null })
  const host = new HostStats({ host: 'db.example.com', now: m.now, system: m.system })
  assert.equal(await host.start(readerOf(SERVER)), false)
  assert.equal(await host.sample(), null)
  const r = await host.finish([])
  assert.equal(r.available, false)
  assert.match(r.reason, /^the server at db\.example\.com does not show as running on this machine \(no \/var\/lib\/postgresql\/18\/main\/postmaster\.pid here: ENOENT\).*client's machine/)
  // another server's postmaster.pid at the same path is no proof either
  const other = machine({ pidFile: `4242\n${DATA_DIR}\n1764320000\n5433\n` })
  const h2 = new HostStats({ host: 'db.example.com', now: other.now, system: other.system })
  assert.equal(await h2.start(readerOf(SERVER)), false)
  assert.match(h2.reason, /postmaster\.pid here is another server's/)
})

test('a loopback server whose data directory cannot be read: every whole disk, and why', async () => {
  const m = machine()
  const host = new HostStats({ host: '127.0.0.1', now: m.now, system: m.system })
  assert.equal(await host.start(readerOf(new Error('permission denied to examine "data_directory"'))), true)
  m.next()
  const e = await host.sample()
  // nvme0n1 only: loop0 is no disk, nvme0n1p1 is a part of nvme0n1
  assert.equal(e.disk.writesPerS, 200)
  const r = await host.finish([{ t: 1, host: e }])
  assert.equal(r.disk.scope, 'all disks')
  assert.deepEqual(r.disk.devices, ['nvme0n1'])
  assert.match(r.disk.note, /data directory is not known: permission denied/)
})

test('the embedded server on a file system of no single disk (overlay): every whole disk, said so', async () => {
  const m = machine({ device: { major: 0, minor: 45 } })
  const host = new HostStats({ embedded: true, host: '127.0.0.1', now: m.now, system: m.system })
  assert.equal(await host.start(readerOf(SERVER)), true)
  assert.deepEqual(host.disk, { name: 'nvme0n1', devices: ['nvme0n1'], scope: 'all disks', note: 'the data directory\'s file system (device 0:45) is on no single disk' })
})

test('not Linux, or no /proc/stat: none, said once', async () => {
  const mac = machine({ platform: 'darwin' })
  const reader = readerOf(SERVER)
  const host = new HostStats({ embedded: true, host: '127.0.0.1', now: mac.now, system: mac.system })
  assert.equal(await host.start(reader), false)
  assert.equal(reader.queries, 0, 'nothing asked of the server')
  assert.deepEqual(await host.finish([]), { available: false, reason: 'they come from Linux\'s /proc, and this machine runs darwin' })
  const bare = machine()
  const noProc = new HostStats({ embedded: true, now: bare.now, system: { ...bare.system, readText: async () => { throw Object.assign(new Error('EACCES'), { code: 'EACCES' }) } } })
  assert.equal(await noProc.start(readerOf(SERVER)), false)
  assert.equal((await noProc.finish([])).reason, '/proc/stat: EACCES')
})
