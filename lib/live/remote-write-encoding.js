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
 * A prometheus.WriteRequest { repeated TimeSeries timeseries = 1 } in protobuf.
 * @param {TimeSeries[]} series
 * @returns {Buffer}
 */
export function encodeWriteRequest (series) {
  const w = new ProtoWriter()
  for (const s of series) w.message(1, encodeTimeSeries(s))
  return w.finish()
}

/**
 * TimeSeries { repeated Label labels = 1; repeated Sample samples = 2 }, with
 * Label { string name = 1; string value = 2 } and Sample { double value = 1; int64 timestamp = 2 }.
 * @param {TimeSeries} s
 * @returns {Buffer}
 */
export function encodeTimeSeries (s) {
  const w = new ProtoWriter()
  for (const [name, value] of s.labels) {
    const label = new ProtoWriter()
    label.string(1, name)
    label.string(2, value)
    w.message(1, label.finish())
  }
  for (const { value, timestampMs } of s.samples) {
    const sample = new ProtoWriter()
    sample.double(1, value)
    sample.int64(2, timestampMs)
    w.message(2, sample.finish())
  }
  return w.finish()
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
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`varint of ${n}`)
  const bytes = []
  while (n >= 0x80) {
    bytes.push((n % 0x80) | 0x80)
    n = Math.floor(n / 0x80)
  }
  bytes.push(n)
  return Buffer.from(bytes)
}

/** Protobuf fields appended in order; finish() gives the message's bytes. */
class ProtoWriter {
  constructor () { this.parts = [] }

  key (field, wire) { this.parts.push(varint(field * 8 + wire)) }

  /** @param {number} field @param {Uint8Array} bytes a nested message's */
  message (field, bytes) {
    this.key(field, WIRE_LENGTH)
    this.parts.push(varint(bytes.length), bytes)
  }

  /** @param {number} field @param {string} text */
  string (field, text) { this.message(field, Buffer.from(text, 'utf8')) }

  /** @param {number} field @param {number} value */
  double (field, value) {
    this.key(field, WIRE_FIXED64)
    const b = Buffer.alloc(8)
    b.writeDoubleLE(value)
    this.parts.push(b)
  }

  /** @param {number} field @param {number} value a non-negative integer (a Unix time in ms) */
  int64 (field, value) {
    this.key(field, WIRE_VARINT)
    this.parts.push(varint(value))
  }

  finish () { return Buffer.concat(this.parts) }
}
