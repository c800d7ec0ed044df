// The body of a Prometheus remote-write 1.0 request: the registry's series as a protobuf
// prometheus.WriteRequest, in snappy's block format. Four small messages and a snappy block of
// literals only (valid snappy that every receiver decodes) need no library.

const WIRE_VARINT = 0
const WIRE_FIXED64 = 1
const WIRE_LENGTH = 2
// a literal element of snappy's block format carries at most this many bytes (2-byte length)
const SNAPPY_LITERAL_MAX = 65536

/**
 * @typedef {object} TimeSeries
 * @property {[string, string][]} labels `__name__` and the others, sorted by name, none empty
 * @property {{ value: number, timestampMs: number }[]} samples
 */

/**
 * The series of a prom-client registry (`registry.getMetricsAsJSON()`), as /metrics shows them:
 * the same names (a histogram's _bucket, _sum and _count), the same labels (the registry's
 * default labels included, `le` as the text format writes it), one sample each at `timestampMs`.
 * Labels with an empty value are left out, as Prometheus does with a scraped one.
 * @param {{ name: string, values: { value: number, labels?: Record<string, string|number>, metricName?: string }[] }[]} metrics
 * @param {number} timestampMs
 * @returns {TimeSeries[]}
 */
export function timeSeriesOf (metrics, timestampMs) {
  const out = []
  for (const metric of metrics) {
    for (const v of metric.values ?? []) {
      const labels = [['__name__', v.metricName ?? metric.name]]
      for (const [name, value] of Object.entries(v.labels ?? {})) {
        if (value !== undefined && value !== null && String(value) !== '') labels.push([name, String(value)])
      }
      labels.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      out.push({ labels, samples: [{ value: Number(v.value), timestampMs }] })
    }
  }
  return out
}

/**
 * A prometheus.WriteRequest { repeated TimeSeries timeseries = 1 } in protobuf. Sizes are counted
 * first and the message written into one buffer: a push is hundreds of series, and small buffers
 * per field cost ten times the time.
 * @param {TimeSeries[]} series
 * @returns {Buffer}
 */
export function encodeWriteRequest (series) {
  const sizes = series.map(seriesSize)
  let total = 0
  for (const { size } of sizes) total += 1 + varintLength(size) + size
  const w = { buf: Buffer.allocUnsafe(total), at: 0 }
  for (let i = 0; i < series.length; i++) {
    writeKey(w, 1, WIRE_LENGTH)
    writeVarint(w, sizes[i].size)
    writeSeries(w, series[i], sizes[i])
  }
  return w.buf
}

/**
 * TimeSeries { repeated Label labels = 1; repeated Sample samples = 2 }, with
 * Label { string name = 1; string value = 2 } and Sample { double value = 1; int64 timestamp = 2 }.
 * @param {TimeSeries} s
 * @returns {Buffer}
 */
export function encodeTimeSeries (s) {
  const size = seriesSize(s)
  const w = { buf: Buffer.allocUnsafe(size.size), at: 0 }
  writeSeries(w, s, size)
  return w.buf
}

/** The byte lengths of a series' labels and samples, and its own. */
function seriesSize (s) {
  const labels = s.labels.map(([name, value]) => {
    const n = Buffer.byteLength(name)
    const v = Buffer.byteLength(value)
    return { n, v, size: 1 + varintLength(n) + n + 1 + varintLength(v) + v }
  })
  const samples = s.samples.map((x) => 1 + 8 + 1 + varintLength(x.timestampMs))
  let size = 0
  for (const l of labels) size += 1 + varintLength(l.size) + l.size
  for (const n of samples) size += 1 + varintLength(n) + n
  return { labels, samples, size }
}

function writeSeries (w, s, size) {
  for (let i = 0; i < s.labels.length; i++) {
    const l = size.labels[i]
    writeKey(w, 1, WIRE_LENGTH)
    writeVarint(w, l.size)
    writeString(w, 1, s.labels[i][0], l.n)
    writeString(w, 2, s.labels[i][1], l.v)
  }
  for (let i = 0; i < s.samples.length; i++) {
    writeKey(w, 2, WIRE_LENGTH)
    writeVarint(w, size.samples[i])
    writeKey(w, 1, WIRE_FIXED64)
    w.at = w.buf.writeDoubleLE(s.samples[i].value, w.at)
    writeKey(w, 2, WIRE_VARINT)
    writeVarint(w, s.samples[i].timestampMs)
  }
}

/**
 * Snappy's block format, literals only: the length as a varint, then literal elements. A tag byte
 * holds (length - 1) << 2 up to 60 bytes; longer ones take tag 60 or 61 and 1 or 2 little-endian
 * bytes of length - 1.
 * @param {Uint8Array} data
 * @returns {Buffer}
 */
export function snappyBlock (data) {
  const parts = [varint(data.length)]
  for (let at = 0; at < data.length; at += SNAPPY_LITERAL_MAX) {
    const chunk = data.subarray(at, Math.min(data.length, at + SNAPPY_LITERAL_MAX))
    const n = chunk.length - 1
    if (n < 60) parts.push(Buffer.from([n << 2]))
    else if (n < 256) parts.push(Buffer.from([60 << 2, n]))
    else parts.push(Buffer.from([61 << 2, n & 0xff, n >> 8]))
    parts.push(chunk)
  }
  return Buffer.concat(parts)
}

/**
 * The remote-write body of the series: snappy(WriteRequest).
 * @param {TimeSeries[]} series
 * @returns {Buffer}
 */
export function remoteWriteBody (series) {
  return snappyBlock(encodeWriteRequest(series))
}

/**
 * An unsigned varint (protobuf's and snappy's), for integers up to 2^53.
 * @param {number} n
 * @returns {Buffer}
 */
export function varint (n) {
  const w = { buf: Buffer.allocUnsafe(varintLength(n)), at: 0 }
  writeVarint(w, n)
  return w.buf
}

function varintLength (n) {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`varint of ${n}`)
  let len = 1
  while (n >= 0x80) { n = Math.floor(n / 0x80); len++ }
  return len
}

function writeVarint (w, n) {
  while (n >= 0x80) {
    w.buf[w.at++] = (n % 0x80) | 0x80
    n = Math.floor(n / 0x80)
  }
  w.buf[w.at++] = n
}

function writeKey (w, field, wire) { w.buf[w.at++] = field * 8 + wire }

function writeString (w, field, text, bytes) {
  writeKey(w, field, WIRE_LENGTH)
  writeVarint(w, bytes)
  w.at += w.buf.write(text, w.at, 'utf8')
}
