// One row of pg_stat_activity as the wait event it stands for: CPU when the backend is active
// without a wait event, else the server's `wait_event_type:wait_event`, with the name interned
// so that a sample allocates nothing once its event has been seen.

/** A backend running without a wait event: on the CPU (or runnable, waiting for one). */
export const CPU = 'CPU'
/** The server waits for the client's next message (a backend idle inside a transaction says so). */
export const CLIENT_READ = 'Client:ClientRead'

export class WaitEventNames {
  constructor () {
    /** @type {Map<string, Map<string, string>>} */
    this._byType = new Map()
  }

  /**
   * The event a row stands for, or null when the row is hidden (state NULL: the server lets this
   * role see no more than that the backend exists).
   * @param {string|null} state
   * @param {string|null} waitType
   * @param {string|null} waitEvent
   * @returns {string|null}
   */
  classify (state, waitType, waitEvent) {
    if (state === null) return null
    if (waitType !== null && waitEvent !== null) return this._name(waitType, waitEvent)
    // idle, or idle in transaction, without the event some versions leave out: the client's turn
    return state === 'active' || state === 'fastpath function call' ? CPU : CLIENT_READ
  }

  _name (type, event) {
    let events = this._byType.get(type)
    if (events === undefined) this._byType.set(type, events = new Map())
    let name = events.get(event)
    if (name === undefined) events.set(event, name = `${type}:${event}`)
    return name
  }
}
