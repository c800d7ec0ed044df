// A database of its own on the test server for one test file: made empty by create(), dropped
// (with any sessions still in it) by drop().

import { getTestServer } from './server.js'
import { openConnection, quoteIdent } from '../../lib/db/connection.js'

/**
 * @param {string} name unique to the test process (put process.pid in it)
 * @returns {{ name: string, url: string|null, target: any, create: () => Promise<void>, drop: () => Promise<void> }}
 */
export function scratchDatabase (name) {
  let admin = null
  const db = {
    name,
    url: null,
    target: null,
    async create () {
      const server = await getTestServer()
      admin = await openConnection(server.target, { protocol: 'simple' })
      await admin.simpleQuery(`drop database if exists ${quoteIdent(name)} with (force)`)
      await admin.simpleQuery(`create database ${quoteIdent(name)}`)
      const c = server.target.config
      db.target = { ...server.target, config: { ...c, database: name } }
      db.url = `postgres://${encodeURIComponent(c.user)}:${encodeURIComponent(c.password ?? '')}@${c.host}:${c.port}/${encodeURIComponent(name)}`
    },
    async drop () {
      if (admin === null) return
      try {
        await admin.simpleQuery(`drop database if exists ${quoteIdent(name)} with (force)`)
      } finally {
        await admin.close()
        admin = null
      }
    }
  }
  return db
}
