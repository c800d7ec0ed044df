// A results database of its own for a test: pgload_results_test_<pid>_<n> on the test server,
// created by pgload on first use and dropped by drop(), so test processes never share state.

import { getTestServer } from './server.js'
import { openConnection, quoteIdent } from '../../lib/db/connection.js'

let next = 0

/**
 * A fresh results database name on the test server, its URL, and drop().
 * @returns {Promise<{ name: string, url: string, query: (sql: string, values?: any[]) => Promise<import('../../lib/db/connection.js').Result>, drop: () => Promise<void> }>}
 */
export async function testResultsDatabase () {
  const server = await getTestServer()
  const name = `pgload_results_test_${process.pid}_${next++}`
  const u = new URL(server.url)
  u.pathname = `/${name}`
  const url = u.toString()
  let conn = null
  const target = { ...server.target, config: { ...server.target.config, database: name } }
  return {
    name,
    url,
    async query (sql, values) {
      conn ??= await openConnection(target, { protocol: 'simple' })
      return values ? conn.query(sql, values) : conn.simpleQuery(sql)
    },
    async drop () {
      if (conn) await conn.close()
      const admin = await openConnection(server.target, { protocol: 'simple' })
      try {
        await admin.simpleQuery(`drop database if exists ${quoteIdent(name)} with (force)`)
      } finally {
        await admin.close()
      }
    }
  }
}
