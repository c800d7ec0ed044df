// Scales of the charts' specs that the data decides at render time.

/** Log-scale x domain for a spectrum: 1 .. the next power of ten above the data, at least 100. */
export function spectrumDomain (rows) {
  const maxInv = rows.reduce((m, r) => Math.max(m, r.inv), 1)
  return [1, Math.max(100, 10 ** Math.ceil(Math.log10(maxInv) - 1e-9))]
}

/** A linear scale made logarithmic (--log-scale): a log scale has no zero. @param {any} scale */
export function useLog (scale) {
  scale.type = 'log'
  delete scale.zero
}
