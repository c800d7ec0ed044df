// The wait classes of active session history: a sampled backend of the run is on the CPU (active
// without a wait event), waits in one of the server's wait_event_types, or sits idle inside a
// transaction; a backend idle between transactions is no active session and is not counted.

/**
 * @typedef {object} WaitInterval one entry of the `waits` section's `series`
 * @property {number} t end of the interval, s since the measured window opened
 * @property {number} lengthS
 * @property {number} ticks reads done (summed over partitions in a merged document)
 * @property {Record<string, number>} samples class -> sampled sessions
 * @property {Record<string, number>} sessions class -> average active sessions (samples / ticks;
 *   in a merged document the sum of each partition's)
 * @property {Record<string, number>} events wait event -> sampled sessions
 */

/** An active backend without a wait event. */
export const CPU_CLASS = 'CPU'
/** A backend idle (or aborted) inside a transaction: the client holds it open. */
export const IDLE_IN_TRANSACTION = 'idle in transaction'

/**
 * Every class in the order charts stack them and legends list them (bottom first): CPU, the
 * server's wait_event_types, then the client's own share. A type a newer server adds goes after.
 */
export const WAIT_CLASSES = Object.freeze([
  CPU_CLASS, 'IO', 'Lock', 'LWLock', 'IPC', 'Client', 'Timeout', 'BufferPin', 'Activity', 'Extension',
  'InjectionPoint', IDLE_IN_TRANSACTION
])

/**
 * The class of one pg_stat_activity row, or null when it is no active session (idle between
 * transactions, or hidden from this role: state NULL).
 * @param {string|null} state
 * @param {string|null} waitType
 * @returns {string|null}
 */
export function waitClassOf (state, waitType) {
  if (state === 'active' || state === 'fastpath function call') return waitType ?? CPU_CLASS
  if (state === 'idle in transaction' || state === 'idle in transaction (aborted)') return IDLE_IN_TRANSACTION
  return null
}

/**
 * Class names in the stable order: the known ones as WAIT_CLASSES lists them, then any other by name.
 * @param {Iterable<string>} names
 * @returns {string[]}
 */
export function orderWaitClasses (names) {
  const rank = (n) => { const i = WAIT_CLASSES.indexOf(n); return i < 0 ? WAIT_CLASSES.length : i }
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
}

/**
 * The class an event name (`Lock:transactionid`, `CPU`) belongs to.
 * @param {string} event
 * @returns {string}
 */
export function classOfEvent (event) {
  const colon = event.indexOf(':')
  return colon < 0 ? event : event.slice(0, colon)
}
