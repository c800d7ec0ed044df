// A results document with the wait sampler's section, for the report's tests.

/**
 * A results document with a `waits` section over its intervals: IO in the first ten, Lock in the
 * 13th to 17th (tpcb-a's checkpoint), CPU throughout, a little idle in transaction once.
 * @param {any} doc a results document of 30 intervals or so (tpcb-a.json); changed and returned
 */
export function withWaitSeries (doc) {
  doc.waits = {
    available: true,
    source: 'pg_stat_activity',
    pgWaitSampling: false,
    hz: 50,
    intervalMs: 20,
    ticks: { done: 1500, skipped: 0, failed: 0 },
    samples: { total: 3000, inTransaction: 2800, idle: 200, outside: 0, moved: 0, hidden: 0, gone: 0 },
    types: {
      'tpcb-like': { samples: 2000, transactions: 900, events: [{ event: 'Lock:transactionid', samples: 1200, share: 0.6 }, { event: 'CPU', samples: 600, share: 0.3 }, { event: 'IO:WALSync', samples: 200, share: 0.1 }], serverMs: 1.2, serverMsStderr: 0.05, outsideMs: 0.4, outsideMsStderr: 0.06 },
      'select-only': { samples: 800, transactions: 4000, events: [{ event: 'CPU', samples: 800, share: 1 }], serverMs: 0.2, serverMsStderr: 0.01, outsideMs: -0.01, outsideMsStderr: 0.02 }
    },
    series: doc.intervals.map((iv, i) => {
      const samples = { CPU: 50, ...(i < 10 ? { IO: 20 } : {}), ...(i >= 12 && i < 17 ? { Lock: 150 } : {}), ...(i === 3 ? { 'idle in transaction': 5 } : {}) }
      return { t: iv.t, lengthS: iv.lengthS, ticks: 50, samples, sessions: Object.fromEntries(Object.entries(samples).map(([k, n]) => [k, n / 50])), events: i >= 12 && i < 17 ? { 'Lock:transactionid': 150 } : {} }
    })
  }
  return doc
}
