import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { parseProcStat, cpuShares, parseDiskstats, diskRates, diskOfDevice } from '../../../../lib/server/stats/host-proc.js'

const fixture = (name) => readFileSync(new URL(`../../../fixtures/host-proc/${name}`, import.meta.url), 'utf8')

test('parseProcStat reads the machine line; cpuShares splits the interval into shares adding up to 100', () => {
  const a = parseProcStat(fixture('stat-1.txt'))
  const b = parseProcStat(fixture('stat-2.txt'))
  assert.deepEqual(a, { user: 1000, nice: 100, system: 500, idle: 8000, iowait: 200, irq: 0, softirq: 50, steal: 10 })
  const s = cpuShares(a, b)
  assert.deepEqual(s, { user: 34.8, system: 17.4, iowait: 8.7, steal: 4.3, idle: 34.8 })
  assert.ok(Math.abs(Object.values(s).reduce((x, y) => x + y, 0) - 100) < 0.5)
  assert.equal(cpuShares(a, a), null, 'no tick passed')
  assert.equal(cpuShares(b, a), null, 'counters went backwards')
  assert.equal(parseProcStat('intr 1\n'), null)
})

test('parseDiskstats and diskRates: operations, bytes and the mean queue of the disk per second', () => {
  const a = parseDiskstats(fixture('diskstats-1.txt'))
  const b = parseDiskstats(fixture('diskstats-2.txt'))
  assert.deepEqual(a.get('nvme0n1'), { major: 259, minor: 0, reads: 1000, readSectors: 80000, writes: 2000, writeSectors: 160000, inFlight: 0, weightedMs: 3500 })
  assert.deepEqual(diskRates(a, b, ['nvme0n1'], 2), { readsPerS: 50, writesPerS: 200, readBytesPerS: 2048000, writeBytesPerS: 10240000, queue: 1 })
  assert.equal(diskRates(a, b, ['sdz'], 2), null)
  assert.equal(diskRates(a, b, ['nvme0n1'], 0), null)
})

test('diskOfDevice finds the whole disk of the data directory\'s device', () => {
  const disks = parseDiskstats(fixture('diskstats-1.txt'))
  const parentOf = (name) => name === 'nvme0n1p1' ? 'nvme0n1' : null
  assert.equal(diskOfDevice(disks, 259, 1, parentOf), 'nvme0n1')
  assert.equal(diskOfDevice(disks, 259, 0, parentOf), 'nvme0n1')
  assert.equal(diskOfDevice(disks, 0, 45, parentOf), null, 'overlay filesystems have no disk of their own')
})
