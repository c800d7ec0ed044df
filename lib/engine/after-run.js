// How long what follows a run may wait on the server: the readings after it (the workload's
// final figures, the server statistics, a worker's own sections) and the close of a connection.
// A server that answers gets a while; one that stalled (transactions had to be cancelled) a short
// one, since it may not answer at all; after Ctrl-C twice nothing is waited for.

// ms the readings after the run may take when the server answers (TPC-C drains its deferred deliveries)
const AFTER_RUN_MS = 30_000
// ms they may take when transactions had to be cancelled
const AFTER_STALL_MS = 1500
/** ms a connection's polite close (Terminate) may take before its socket is destroyed */
export const CLOSE_MS = 1000
/** ms a connection's close may take once transactions had to be cancelled (the run's pool too) */
export const STALLED_CLOSE_MS = 250

/**
 * The bound on what is read after the run: `within(promise, onLate)` settles with the promise,
 * or with null past the bound or once the run is hurried (Ctrl-C twice; then onLate() runs).
 * `done()` ends the bound.
 * @param {{ status: { hurried: boolean }, on: Function, off: Function }} run
 * @param {boolean} stalled transactions had to be cancelled: the short bound
 * @returns {{ within: <T>(promise: Promise<T>, onLate?: () => void) => Promise<T|null>, done: () => void }}
 */
export function afterRunLimit (run, stalled) {
  let hurry
  const hurried = new Promise((resolve) => { hurry = resolve })
  if (run.status.hurried) hurry()
  const onStatus = (s) => { if (s.hurried) hurry() }
  run.on('status', onStatus)
  let timer
  const late = new Promise((resolve) => { timer = setTimeout(resolve, stalled ? AFTER_STALL_MS : AFTER_RUN_MS).unref() })
  const LATE = Symbol('late')
  return {
    async within (promise, onLate) {
      promise.catch(() => {}) // settles later, once abandoned
      const first = await Promise.race([promise, late.then(() => LATE), hurried.then(() => LATE)])
      if (first !== LATE) return first
      onLate?.()
      return null
    },
    done () { clearTimeout(timer); run.off('status', onStatus) }
  }
}

/**
 * ms a connection's close may take after the run (closeWithin): none once hurried, a short while
 * when transactions had to be cancelled.
 * @param {{ hurried: boolean, cancelled: { grace: number } } | undefined} status the run's, if it started
 * @returns {number}
 */
export function closeAfterRunMs (status) {
  if (status?.hurried) return 0
  return status?.cancelled.grace > 0 ? STALLED_CLOSE_MS : CLOSE_MS
}
