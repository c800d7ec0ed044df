// `node --import ./bench/lib/fake-connections.js bin/pgload.js run tpcb --url postgres://x@127.0.0.1/x ...`:
// every connection pgload opens (lib/db/connector.js; the module runs in each worker thread too)
// is an in-memory one that answers every statement at once (on the next turn of the event loop,
// all answers of a turn together), as the stand-in server answers it
// (test/helpers/stand-in-server.js), with the few replies pgload's set-up and the tpcb workload
// read. Measures the engine alone.

import { installConnector } from '../../lib/db/connector.js'
import { PGLOAD_SET_UP_ANSWERS, answerFor } from '../../test/helpers/stand-in-server.js'

// Pairs of (promise resolve function or executeTo receiver, result), answered together.
let queue = []
let scheduled = false
function answer (to, value) {
  queue.push(to, value)
  if (!scheduled) { scheduled = true; setImmediate(flush) }
}
function flush () {
  const q = queue
  queue = []
  scheduled = false
  for (let i = 0; i < q.length; i += 2) {
    const to = q[i]
    if (typeof to === 'function') to(q[i + 1])
    else to.onResult(q[i + 1])
  }
}

class FakeConnection {
  constructor (protocol) {
    this.protocol = protocol
    this.backendPid = 1
    this.transactionStatus = 'I'
    this.lastResults = []
    this.broken = false
    this.closed = false
    this._cache = new Map()
  }

  _run (text) {
    const r = this._result(text)
    return new Promise((resolve) => answer(resolve, r))
  }

  _result (text) {
    let r = this._cache.get(text)
    if (r === undefined) { r = answerFor(text, PGLOAD_SET_UP_ANSWERS); this._cache.set(text, r) }
    if (r.command === 'BEGIN') this.transactionStatus = 'T'
    else if (r.command === 'END' || r.command === 'COMMIT' || r.command === 'ROLLBACK') this.transactionStatus = 'I'
    return r
  }

  simpleQuery (text) { return this._run(text) }
  prepare () { return Promise.resolve() }
  execute (stmt) { return this._run(stmt.text) }
  // the lean connection's callback path, which scripts use when a connection offers it
  executeTo (stmt, values, receiver) { answer(receiver, this._result(stmt.text)) }
  query (text) { return this._run(text) }
  async runPipeline (batches) {
    const out = []
    for (const b of batches) out.push(await Promise.all(b.map(item => this._run(item.stmt.text))))
    return out
  }

  copyFrom () { throw new Error('no COPY on a fake connection') }
  async close () { this.closed = true }
}

installConnector(async (target, { protocol = 'prepared' } = {}) => new FakeConnection(protocol))
