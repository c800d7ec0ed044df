// The server host's CPU and disk from Linux's /proc: the parsers and the per-interval figures
// (shares of CPU time, disk operations and queue), kept apart from reading the files so that
// fixtures can stand in for them.

const CPU_FIELDS = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal']

/**
 * The machine's CPU time (clock ticks) from /proc/stat's first line; null without one.
 * @param {string} text /proc/stat
 * @returns {Record<string, number>|null}
 */
export function parseProcStat (text) {
  const line = text.split('\n').find(l => l.startsWith('cpu '))
  if (!line) return null
  const values = line.trim().split(/\s+/).slice(1).map(Number)
  if (values.length < 4 || values.some(v => !Number.isFinite(v))) return null
  return Object.fromEntries(CPU_FIELDS.map((k, i) => [k, values[i] ?? 0]))
}

/**
 * Shares (%) of the CPU time between two readings: user (with nice), system (with irq and
 * softirq), iowait, steal, idle; they add up to 100. null when no tick passed or the counters
 * went backwards.
 * @param {Record<string, number>|null} prev
 * @param {Record<string, number>|null} cur
 * @returns {{ user: number, system: number, iowait: number, steal: number, idle: number }|null}
 */
export function cpuShares (prev, cur) {
  if (!prev || !cur) return null
  const d = Object.fromEntries(CPU_FIELDS.map(k => [k, cur[k] - prev[k]]))
  if (Object.values(d).some(v => v < 0)) return null
  const total = Object.values(d).reduce((a, b) => a + b, 0)
  if (total <= 0) return null
  const pct = (x) => Math.round(x / total * 1000) / 10
  return { user: pct(d.user + d.nice), system: pct(d.system + d.irq + d.softirq), iowait: pct(d.iowait), steal: pct(d.steal), idle: pct(d.idle) }
}

/**
 * /proc/diskstats by device name: completed reads and writes, sectors (512 bytes), I/Os in
 * flight and the weighted time spent doing I/Os (ms), whose rate is the mean queue length.
 * @param {string} text
 * @returns {Map<string, { major: number, minor: number, reads: number, readSectors: number, writes: number, writeSectors: number, inFlight: number, weightedMs: number }>}
 */
export function parseDiskstats (text) {
  const out = new Map()
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/)
    if (f.length < 14) continue
    const n = f.map(Number)
    out.set(f[2], { major: n[0], minor: n[1], reads: n[3], readSectors: n[5], writes: n[7], writeSectors: n[9], inFlight: n[11], weightedMs: n[13] })
  }
  return out
}

/**
 * Disk figures per second between two readings, summed over the devices named: reads, writes,
 * bytes read and written, and the mean queue length (in-flight I/Os averaged over the interval).
 * null when a device is missing from either reading, or no time passed.
 * @param {ReturnType<typeof parseDiskstats>} prev
 * @param {ReturnType<typeof parseDiskstats>} cur
 * @param {string[]} devices
 * @param {number} seconds
 * @returns {{ readsPerS: number, writesPerS: number, readBytesPerS: number, writeBytesPerS: number, queue: number }|null}
 */
export function diskRates (prev, cur, devices, seconds) {
  if (!(seconds > 0) || devices.length === 0) return null
  const sum = { reads: 0, writes: 0, readSectors: 0, writeSectors: 0, weightedMs: 0 }
  for (const name of devices) {
    const a = prev.get(name)
    const b = cur.get(name)
    if (!a || !b) return null
    for (const k of Object.keys(sum)) sum[k] += Math.max(0, b[k] - a[k]) // a counter that wrapped counts nothing
  }
  const r = (x) => Math.round(x * 1000) / 1000
  return {
    readsPerS: r(sum.reads / seconds),
    writesPerS: r(sum.writes / seconds),
    readBytesPerS: r(sum.readSectors * 512 / seconds),
    writeBytesPerS: r(sum.writeSectors * 512 / seconds),
    queue: r(sum.weightedMs / (seconds * 1000))
  }
}

/**
 * The whole disk holding a device number (st_dev of the data directory): its own name when it is
 * a whole disk, else the disk its partition belongs to; null when /proc/diskstats does not have it.
 * @param {ReturnType<typeof parseDiskstats>} disks
 * @param {number} major
 * @param {number} minor
 * @param {(name: string) => string|null} parentOf the disk a partition belongs to (from /sys/class/block/NAME/..), null for a whole disk
 * @returns {string|null}
 */
export function diskOfDevice (disks, major, minor, parentOf) {
  for (const [name, d] of disks) {
    if (d.major === major && d.minor === minor) return parentOf(name) ?? name
  }
  return null
}
