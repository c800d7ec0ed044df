// The server host's CPU and disk over a run, from this machine's /proc: taken only when the server
// runs here (this machine's /proc says nothing of another's), on the disk that holds its data
// directory; one reading per sample, and the measured window's figures at the end.

import { readFile, readdir, realpath, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { cpuShares, diskOfDevice, diskRates, parseDiskstats, parseProcStat } from './host-proc.js'
import { MARKER } from './queries.js'
import { isLocalHost } from '../cold/page-cache.js'
import { round3 } from '../../format/round.js'

// Block devices that are not a disk of their own (memory, loop files, optical drives) or sit on
// other disks (device mapper, md RAID): left out of the sum over all disks, which would count
// their I/O twice or count none.
const NOT_A_DISK = /^(loop|ram|zram|sr|fd|nbd|dm-|md)/

// The server's start time as postmaster.pid and pg_postmaster_start_time() give it may differ by
// the moment between the two calls at start-up.
const START_SLACK_S = 2

/** This machine's files, as HostStats reads them (tests give their own). */
export const LINUX = Object.freeze({
  platform: process.platform,
  readText: (path) => readFile(path, 'utf8'),
  /** The device number (major, minor) of the file system holding a path. */
  async deviceOf (path) {
    const dev = (await stat(path, { bigint: true })).dev
    // glibc's gnu_dev_major / gnu_dev_minor
    const major = Number(((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn))
    const minor = Number((dev & 0xffn) | ((dev >> 12n) & ~0xffn))
    return { major, minor }
  },
  /** Each partition's disk, from /sys/class/block (a partition has a `partition` file). */
  async partitionParents () {
    const out = new Map()
    for (const name of await readdir('/sys/class/block')) {
      try {
        await stat(join('/sys/class/block', name, 'partition'))
        out.set(name, basename(dirname(await realpath(join('/sys/class/block', name)))))
      } catch {} // a whole disk
    }
    return out
  }
})

/**
 * The server host's CPU and disk: `start(reader)` decides whether they can be taken and which disk
 * is the server's, `markWindow()` when the measured window opens, `sample()` per sample,
 * `finish(series)` the results' `serverStats.host`. Never throws: what cannot be read is said in
 * the result.
 */
export class HostStats {
  /**
   * @param {{ embedded?: boolean, host?: string, now: () => number, system?: typeof LINUX }} opts
   *   embedded: the server is pgload's own, started on this machine; host: the target's host
   */
  constructor ({ embedded = false, host, now, system = LINUX }) {
    this.embedded = embedded
    this.host = host
    this.now = now
    this.system = system
    this.reason = null // why the figures are not taken
    this.disk = null
    this.prev = null
    this.base = null
  }

  /**
   * Find out whether the server runs here and which disk holds its data; take the first reading.
   * @param {{ query: (text: string) => Promise<{ rows: any[][] }> }} reader the sampler's
   * @returns {Promise<boolean>} whether the figures are taken
   */
  async start (reader) {
    const { platform } = this.system
    if (platform !== 'linux') return this.refuse(`they come from Linux's /proc, and this machine runs ${platform}`)
    const server = await this.serverHere(reader)
    if (!server.here && !this.embedded && !isLocalHost(this.host)) {
      return this.refuse(`the server at ${this.host ?? 'its default host'} does not show as running on this machine (${server.why}), ` +
        'and this machine\'s /proc would describe the client\'s machine, not the server\'s')
    }
    try {
      this.prev = this.base = await this.read()
    } catch (err) {
      return this.refuse(`/proc/stat: ${err.code ?? err.message}`)
    }
    // pgload started the embedded server here: its data directory is a path on this machine
    this.disk = await this.chooseDisk(server.here || this.embedded ? server.dataDir : null, this.prev.disks, server.why)
    return true
  }

  /** The measured window starts now: the run's figures count from this reading. */
  async markWindow () {
    if (this.reason !== null || !this.base) return
    try {
      this.prev = this.base = await this.read()
    } catch {} // the next sample says it
  }

  /**
   * The figures since the previous reading, for a series entry.
   * @returns {Promise<{ cpu: object|null, disk: object|null }|null>} null when not taken or unreadable
   */
  async sample () {
    if (this.reason !== null || !this.prev) return null
    try {
      const cur = await this.read()
      const out = this.figures(this.prev, cur)
      this.prev = cur
      return out
    } catch {
      return null
    }
  }

  /**
   * The results' `serverStats.host`: the disk, the window's figures and the highest sample's.
   * @param {{ host?: any, warmup?: boolean }[]} series the sampler's series entries
   * @returns {Promise<object>}
   */
  async finish (series) {
    if (this.reason !== null) return { available: false, reason: this.reason }
    let window = null
    try {
      window = this.figures(this.base, await this.read())
    } catch {} // the samples still have theirs
    const measured = series.filter((e) => !e.warmup && e.host)
    return { available: true, disk: this.disk, samples: measured.length, window, max: highest(measured.map((e) => e.host)) }
  }

  // ---- internals ----

  refuse (reason) {
    this.reason = reason
    return false
  }

  async read () {
    const cpu = parseProcStat(await this.system.readText('/proc/stat'))
    if (!cpu) throw new Error('no cpu line in /proc/stat')
    let disks = null
    try {
      disks = parseDiskstats(await this.system.readText('/proc/diskstats'))
    } catch {} // CPU without disk figures
    return { atMs: this.now(), cpu, disks }
  }

  figures (a, b) {
    const shares = cpuShares(a.cpu, b.cpu)
    const cpu = shares && { busy: round3(100 - shares.idle), ...shares }
    const devices = this.disk?.devices ?? []
    const disk = a.disks && b.disks ? diskRates(a.disks, b.disks, devices, (b.atMs - a.atMs) / 1000) : null
    return { cpu, disk }
  }

  // Whether this machine's files show the server: its data directory's postmaster.pid holds its
  // port and start time. The data directory the server names, and why not here when not.
  async serverHere (reader) {
    let dataDir, port, startS
    try {
      const r = await reader.query(`SELECT ${MARKER} current_setting('data_directory'), current_setting('port'), ` +
        'extract(epoch FROM pg_postmaster_start_time())::bigint')
      ;[dataDir, port, startS] = r.rows[0]
    } catch (err) {
      return { here: false, dataDir: null, why: `its data directory is not known: ${err.message}` }
    }
    let pid
    try {
      pid = (await this.system.readText(join(dataDir, 'postmaster.pid'))).split('\n')
    } catch (err) {
      return { here: false, dataDir, why: `no ${join(dataDir, 'postmaster.pid')} here: ${err.code ?? err.message}` }
    }
    const same = pid[1] === dataDir && pid[3]?.trim() === String(port) && Math.abs(Number(pid[2]) - Number(startS)) <= START_SLACK_S
    return same
      ? { here: true, dataDir }
      : { here: false, dataDir, why: `${join(dataDir, 'postmaster.pid')} here is another server's` }
  }

  // The disk holding the data directory, else every whole disk, saying why.
  async chooseDisk (dataDir, disks, whyNot) {
    if (!disks) return { name: null, devices: [], scope: 'none', note: '/proc/diskstats is not readable' }
    let parents = new Map()
    try {
      parents = await this.system.partitionParents()
    } catch {} // no /sys: partitions are taken for disks
    let why = whyNot ?? 'the data directory is not known here'
    if (dataDir) {
      try {
        const { major, minor } = await this.system.deviceOf(dataDir)
        const name = diskOfDevice(disks, major, minor, (n) => parents.get(n) ?? null)
        if (name) return { name, devices: [name], scope: 'data directory' }
        why = `the data directory's file system (device ${major}:${minor}) is on no single disk`
      } catch (err) {
        why = `the data directory: ${err.code ?? err.message}`
      }
    }
    const devices = [...disks.keys()].filter((n) => !NOT_A_DISK.test(n) && !parents.has(n)).sort()
    return { name: devices.join('+') || null, devices, scope: 'all disks', note: why }
  }
}

// Each figure's highest value over the samples.
function highest (entries) {
  const out = { cpu: null, disk: null }
  for (const e of entries) {
    for (const part of ['cpu', 'disk']) {
      if (!e[part]) continue
      out[part] ??= {}
      for (const [k, v] of Object.entries(e[part])) if (typeof v === 'number') out[part][k] = Math.max(out[part][k] ?? v, v)
    }
  }
  return out
}
