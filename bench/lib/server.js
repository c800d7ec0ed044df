// The server a bench runs against: --url, else the embedded one (started for the bench and
// stopped afterwards when the bench started it), plus how child processes reach it.

import { resolveTarget } from '../../lib/server/target/resolve-target.js'
import { ensureEmbeddedServer } from '../../lib/server/embedded/embedded-server.js'

/**
 * @param {string|undefined} url
 * @returns {Promise<{ target: any, url: string, env: Record<string,string>, pgbenchArgs: string[], stop: () => Promise<void> }>}
 */
export async function benchServer (url) {
  let target
  let stop = async () => {}
  if (url) {
    target = resolveTarget({ url })
  } else {
    const s = await ensureEmbeddedServer()
    target = s.target
    stop = async () => { await s.stop() }
  }
  const c = target.config
  const fullUrl = `postgres://${encodeURIComponent(c.user)}:${encodeURIComponent(c.password ?? '')}@${c.host}:${c.port}/${encodeURIComponent(c.database)}`
  return {
    target,
    url: fullUrl,
    env: c.password ? { PGPASSWORD: c.password } : {},
    pgbenchArgs: ['-h', c.host, '-p', String(c.port), '-U', c.user],
    database: c.database,
    stop
  }
}
