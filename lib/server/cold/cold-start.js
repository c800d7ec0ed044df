// A cold start before the measured run: restart the server (the embedded one itself, any other
// through --restart-command), drop the OS page cache where pgload may, and wait until the
// restarted server accepts connections. The results record what was done (`run.cold`).

import { PgloadError } from '../../errors.js'
import { openConnection } from '../../db/connection.js'
import { closeWithin } from '../../db/close-within.js'
import { resolveTarget } from '../target/resolve-target.js'
import { embeddedServerPort, restartEmbeddedServer } from '../embedded/restart.js'
import { runRestartCommand } from './restart-command.js'
import { pageCacheDecision, dropPageCache, isLocalHost } from './page-cache.js'

/** Bounds of a cold start (one table, units in the names). */
export const COLD_DEFAULTS = {
  commandTimeoutS: 300, // how long --restart-command may run before it is killed
  acceptTimeoutS: 120, // how long the restarted server has to accept connections again
  pollMs: 250, // between attempts to connect while it starts
  connectTimeoutMs: 5000 // one attempt to connect
}

/**
 * @typedef {{ restarted: boolean, method: 'embedded'|'command', restartS: number,
 *   pageCacheDropped: boolean, pageCacheNote: string|null }} ColdRecord the results' `run.cold`
 * @typedef {{ method: 'embedded'|'command', restartCommand?: string }} RestartMethod
 */

/**
 * How a cold run restarts its server, decided before anything runs: --restart-command when
 * given, else the embedded server (named or reached by its URL); else one line of error.
 * @param {{ url?: string, restartCommand?: string, env?: Record<string, string|undefined> }} opts
 * @returns {Promise<RestartMethod>}
 */
export async function coldRestartMethod ({ url, restartCommand, env = process.env }) {
  if (restartCommand) return { method: 'command', restartCommand }
  const target = resolveTarget({ url, env })
  if (!target) return { method: 'embedded' }
  const port = isLocalHost(target.config.host) ? await embeddedServerPort({ env }) : null
  if (port !== null && port === target.config.port) return { method: 'embedded' }
  throw new PgloadError(`--cold needs a way to restart the server: pgload restarts only its embedded server, and ${target.display} is not it`, {
    code: 'COLD_NO_RESTART', hint: "give --restart-command 'CMD' (for example 'sudo systemctl restart postgresql')"
  })
}

/**
 * Restart the server of `conn` and wait for it. `conn` is closed; the returned one is new.
 * @param {RestartMethod} how
 * @param {{ conn: any, target: import('../../db/connection.js').Target, env?: Record<string, string|undefined>,
 *   keepPageCache?: boolean, uid?: number, bounds?: Partial<typeof COLD_DEFAULTS> }} opts
 *   uid: this process's (injected by tests)
 * @returns {Promise<{ cold: ColdRecord, conn: any }>}
 */
export async function coldStart (how, { conn, target, env = process.env, keepPageCache = false, uid = process.getuid?.(), bounds = {} }) {
  const b = { ...COLD_DEFAULTS, ...bounds }
  const embedded = how.method === 'embedded'
  const before = await postmasterStartTime(conn)
  if (embedded) await refuseOtherClients(conn)
  await closeWithin(conn, 1000)
  const decision = pageCacheDecision({ keep: keepPageCache, local: embedded || isLocalHost(target.config.host), host: target.config.host, uid })
  const cache = async () => decision.drop ? dropPageCache() : { dropped: false, note: decision.note }
  const t0 = performance.now()
  let dropped
  if (embedded) {
    dropped = (await restartEmbeddedServer({ env, between: cache })).between
  } else {
    await runRestartCommand(how.restartCommand, { env, timeoutS: b.commandTimeoutS })
    dropped = await cache() // pgload cannot step between the stop and the start of the user's command
  }
  const connect = () => openConnection(target, { protocol: 'simple', connectTimeoutMs: b.connectTimeoutMs })
  const fresh = await waitForRestart({ connect, before, timeoutS: b.acceptTimeoutS, pollMs: b.pollMs })
  const when = embedded ? 'after the stop, before the start' : 'after --restart-command returned'
  return {
    cold: {
      restarted: true,
      method: how.method,
      restartS: Math.round(performance.now() - t0) / 1000,
      pageCacheDropped: dropped.dropped,
      pageCacheNote: dropped.dropped ? `dropped ${when}` : dropped.note
    },
    conn: fresh
  }
}

/**
 * Connect until the server answers as a new postmaster (pg_postmaster_start_time() changed),
 * within the bound. A command that only signals the server is waited for the same way.
 * @param {{ connect: () => Promise<any>, before: string, timeoutS: number, pollMs?: number, now?: () => number,
 *   sleep?: (ms: number) => Promise<void> }} opts
 * @returns {Promise<any>} the open connection to the restarted server
 */
export async function waitForRestart ({ connect, before, timeoutS, pollMs = COLD_DEFAULTS.pollMs, now = () => performance.now(), sleep = delay }) {
  const deadline = now() + timeoutS * 1000
  let problem = 'no answer'
  for (;;) {
    let conn = null
    try {
      conn = await connect()
      if (await postmasterStartTime(conn) !== before) return conn
      problem = `it still runs since ${before} (pg_postmaster_start_time() unchanged): it was not restarted`
    } catch (err) {
      problem = String(err?.message ?? err).split('\n')[0]
    }
    if (conn) await closeWithin(conn, 1000)
    if (now() >= deadline) throw new PgloadError(`the server did not come back within ${timeoutS} s of the restart: ${problem}`, { code: 'COLD_RESTART' })
    await sleep(pollMs)
  }
}

/**
 * When the server's postmaster started, as the server prints it.
 * @param {any} conn
 * @returns {Promise<string>}
 */
export async function postmasterStartTime (conn) {
  return (await conn.simpleQuery('select pg_postmaster_start_time()::text')).rows[0][0]
}

/** The embedded server may serve another pgload too: a restart would cut it off. */
async function refuseOtherClients (conn) {
  const r = await conn.simpleQuery("select count(*) from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()")
  const n = Number(r.rows[0][0])
  if (n > 0) {
    throw new PgloadError(`--cold: ${n} other client${n === 1 ? ' is' : 's are'} connected to the embedded server, and its restart would cut ${n === 1 ? 'it' : 'them'} off`, {
      code: 'COLD_RESTART', hint: 'wait for them to finish'
    })
  }
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
