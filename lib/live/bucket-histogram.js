// A Prometheus histogram fed whole HdrHistograms (one per closed interval) instead of one
// observation per transaction: the run already counts every latency once, in its interval
// histograms, so the endpoint adds those counts into its buckets on the tick. It has the shape
// prom-client's Registry serialises (name, help, type, get()), the text format stays prom-client's.

/** Bucket bounds grow by this ratio, so histogram_quantile (linear within a bucket) is within 10 %. */
export const BUCKET_RATIO = 1.1

/**
 * Upper bounds in seconds from `lowS` to at least `highS`, each BUCKET_RATIO times the one below,
 * rounded to 4 significant digits.
 * @param {number} lowS
 * @param {number} highS
 * @returns {number[]}
 */
export function ratioBuckets (lowS, highS) {
  const out = []
  for (let b = lowS; b < highS * BUCKET_RATIO; b *= BUCKET_RATIO) {
    const v = Number(b.toPrecision(4))
    if (out.length === 0 || v > out[out.length - 1]) out.push(v)
  }
  return out
}

export class BucketHistogram {
  /**
   * @param {{ name: string, help: string, labelNames: string[], buckets: number[], registers?: any[] }} config
   */
  constructor ({ name, help, labelNames, buckets, registers = [] }) {
    this.name = name
    this.help = help
    this.type = 'histogram'
    this.aggregator = 'sum'
    this.labelNames = labelNames
    this.upperBounds = buckets
    /** @type {Map<string, { labels: Record<string, string>, counts: Float64Array, sum: number, count: number }>} */
    this.series = new Map()
    for (const r of registers) r.registerMetric(this)
  }

  /**
   * Add an HdrHistogram of microseconds (pgload's histograms, lib/metrics/histogram.js).
   * @param {Record<string, string>} labels
   * @param {any} hist
   */
  addHdr (labels, hist) {
    if (!hist || hist.totalCount === 0) return
    const s = this.seriesOf(labels)
    const bounds = this.upperBounds
    let b = 0
    const n = hist.countsArrayLength
    for (let i = 0; i < n; i++) {
      const c = hist.getCountAtIndex(i)
      if (c === 0) continue
      // the values of hdr's bucket i are within 0.1 % of its lowest; indexes ascend with values
      const s1 = hist.valueFromIndex(i) / 1e6
      while (b < bounds.length && s1 > bounds[b]) b++
      if (b < bounds.length) s.counts[b] += c
      s.sum += c * hist.medianEquivalentValue(hist.valueFromIndex(i)) / 1e6
      s.count += c
    }
  }

  seriesOf (labels) {
    const key = this.labelNames.map((k) => labels[k] ?? '').join('\u0000')
    let s = this.series.get(key)
    if (!s) {
      s = { labels: { ...labels }, counts: new Float64Array(this.upperBounds.length), sum: 0, count: 0 }
      this.series.set(key, s)
    }
    return s
  }

  /** prom-client's metric contract: the values to write, cumulative per bucket. */
  get () {
    const values = []
    for (const s of this.series.values()) {
      let acc = 0
      for (let b = 0; b < this.upperBounds.length; b++) {
        acc += s.counts[b]
        values.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le: this.upperBounds[b] }, value: acc })
      }
      values.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count })
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum })
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count })
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator }
  }

  reset () { this.series.clear() }
}
