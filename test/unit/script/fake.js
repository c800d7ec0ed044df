// Test doubles for running compiled scripts without a server: a connection that records what
// it is sent and answers from a callback, and a transaction context like the engine's.

import { compileScript } from '../../../lib/script/compile.js'
import { scriptWorkload } from '../../../lib/script/workload.js'

/** A Connection that records statements and answers `respond(sql, values)` (a Result or an Error). */
export class FakeConnection {
  constructor (protocol = 'simple', respond = () => null) {
    this.protocol = protocol
    this.respond = respond
    this.sent = []
    this.lastResults = []
    this.transactionStatus = 'I'
  }

  _answer (sql, values) {
    this.sent.push(values === undefined ? sql : { sql, values: [...values] })
    const kw = (/^\s*(\w+)/.exec(sql)?.[1] ?? '').toUpperCase()
    if (kw === 'BEGIN') this.transactionStatus = 'T'
    if (kw === 'END' || kw === 'COMMIT' || kw === 'ROLLBACK') this.transactionStatus = 'I'
    const r = this.respond(sql, values)
    if (r instanceof Error) throw r
    return r ?? { command: kw, rowCount: 0, fields: [], rows: [] }
  }

  async simpleQuery (text) {
    const r = this._answer(text)
    this.lastResults = Array.isArray(r) ? r : [r]
    return this.lastResults[this.lastResults.length - 1]
  }

  async execute (stmt, values) {
    return this._answer(stmt.text, values)
  }

  async runPipeline (batches) {
    return batches.map(b => b.map(({ stmt, values }) => {
      try { return this._answer(stmt.text, values) } catch (e) { return e }
    }))
  }
}

/**
 * Compile scripts and build a workload plus one terminal context.
 * @returns {{ workload: any, ctx: any, debug: string[], conn: FakeConnection }}
 */
export function makeRun (scripts, { protocol = 'simple', ...rest } = {}) {
  const compiled = scripts.map((s, i) => compileScript({ name: s.name ?? `s${i}.sql`, text: s.text, weight: s.weight }, { protocol }))
  return makeCompiledRun(compiled, { protocol, ...rest })
}

/**
 * A workload and one terminal context for scripts already compiled (with `protocol`).
 * @returns {{ workload: any, ctx: any, debug: string[], conn: FakeConnection }}
 */
export function makeCompiledRun (compiled, { protocol = 'simple', respond, variables, randomSeed = 5432n, clients = 1, terminalId = 0, ...rest } = {}) {
  const debug = []
  const workload = scriptWorkload(compiled, { randomSeed, clients, variables, debugWrite: (l) => debug.push(l), ...rest })
  const conn = new FakeConnection(protocol, respond)
  let now = 0
  const ctx = {
    terminalId,
    random: workload.seeds.clientPrngs[terminalId],
    state: workload.createTerminalState(terminalId),
    conn,
    nowUs: () => now,
    sleepUs: async (us) => { now += us }
  }
  return { workload, ctx, debug, conn }
}
