// Checks that an encoded latency histogram is one pgload wrote and can decode, without building it
// (lib/metrics/encoded-histogram.js reads the encoding). The same walk over the encoded counts
// gives the histogram's total count, which the schema holds against the count the histogram
// stands for.

import { readEncodedCounts } from '../metrics/encoded-histogram.js'

/**
 * Why an encoded histogram cannot be read, or null when hdr-histogram-js and the compare
 * decoder can both decode it into pgload's layout (1 us .. 1 h, 3 significant digits).
 * @param {string} encoded
 * @returns {string | null}
 */
export function histogramProblem (encoded) {
  return inspectHistogram(encoded).problem
}

/**
 * An encoded histogram's problem (as histogramProblem) or, when it has none, how many values it holds.
 * @param {string} encoded
 * @returns {{ problem: string, totalCount: null } | { problem: null, totalCount: number }}
 */
export function inspectHistogram (encoded) {
  return readEncodedCounts(encoded)
}
