// A connection for replaying one TPC-C transaction under EXPLAIN: the transaction's own function
// runs on it unchanged. Each statement is explained inside a savepoint that is rolled back, then
// run for real so that the function's later statements get the values they depend on. Nothing is
// committed: COMMIT does nothing and the replay ends with ROLLBACK (end()), always.

import { planFigures } from '../../lib/explain/plan-shape.js'

const TX_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK)\b/i

/**
 * @param {{ query: (text: string, values?: any[]) => Promise<{ rows: any[] }>, simpleQuery: (text: string) => Promise<any> }} conn
 *   a connection of pgload's own, between transactions
 * @param {string} options EXPLAIN's options (explainOptions)
 * @returns {{ execute: (stmt: { text: string }, params?: any[]) => Promise<{ rows: any[] }>, end: () => Promise<void>, statements: object[], rolledBack: boolean }}
 */
export function explainingConnection (conn, options) {
  let open = false
  const wrapper = {
    statements: [],
    /** true once the transaction ran its own ROLLBACK (New-Order's expected rollback) */
    rolledBack: false,
    async execute (stmt, params = []) {
      const control = TX_CONTROL.exec(stmt.text)
      if (control !== null) return transactionControl(control[1].toUpperCase(), stmt.text)
      const entry = { sql: stmt.text, parameters: params }
      wrapper.statements.push(entry)
      // a transaction of one statement (Stock-Level) runs it alone: the replay still needs its own
      if (!open) { await conn.simpleQuery('BEGIN'); open = true }
      await conn.simpleQuery('SAVEPOINT pgload_explain')
      try {
        const r = await conn.query(`EXPLAIN (${options}) ${stmt.text}`, params)
        const plan = JSON.parse(r.rows[0][0])[0]
        Object.assign(entry, { plan }, planFigures(plan))
      } catch (err) {
        entry.reason = `it failed under EXPLAIN: ${err.message}`
      }
      await conn.simpleQuery('ROLLBACK TO SAVEPOINT pgload_explain')
      return conn.query(stmt.text, params)
    },
    async end () {
      if (!open) return
      open = false
      await conn.simpleQuery('ROLLBACK')
    }
  }
  async function transactionControl (word, text) {
    if (word === 'BEGIN') {
      if (!open) { await conn.simpleQuery(text); open = true }
    } else if (word === 'ROLLBACK') {
      wrapper.rolledBack = true
      await wrapper.end()
    }
    return { rows: [] }
  }
  return wrapper
}
