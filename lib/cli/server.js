// `pgload server start|stop|status|url`: keep the embedded PostgreSQL running across commands.
//
// `url` prints the URL without the password: passwords are never printed unless asked for with
// --show-password. The password sits in a .pgpass-format file in the pgload home, so
// `PGPASSFILE=<that file> psql "$(pgload server url)"` works; where the file is goes to stderr.

import { PgloadError } from '../errors.js'
import { createLogger } from '../log.js'
import { startServer, stopServer, serverStatus, ensureEmbeddedServer } from '../server/embedded/embedded-server.js'

export const command = 'server <action>'
export const describe = 'Start, stop or show the embedded PostgreSQL (kept running across commands until stopped)'

const ACTIONS = ['start', 'stop', 'status', 'url']

/** @param {import('yargs').Argv} y */
export function builder (y) {
  return y
    .positional('action', { describe: 'what to do', choices: ACTIONS, type: 'string' })
    .option('show-password', { type: 'boolean', describe: 'url: include the password in the URL' })
    .option('json', { type: 'boolean', describe: 'status: print a JSON object' })
    .example('$0 server start', 'start it and leave it running')
    .example('PGPASSFILE=~/.cache/pgload/pgpass psql "$($0 server url)"', 'connect with psql')
}

/**
 * Run one `server` action, writing human output to `out` and notes to `err`.
 * @param {string} action
 * @param {{ env?: Record<string, string|undefined>, out?: { write(s: string): any }, err?: { write(s: string): any },
 *   showPassword?: boolean, json?: boolean, log?: any }} [opts]
 */
export async function serverCommand (action, { env = process.env, out = process.stdout, err = process.stderr, showPassword = false, json = false, log } = {}) {
  switch (action) {
    case 'start': {
      const s = await startServer({ env, log })
      const st = await serverStatus({ env })
      out.write(s.alreadyRunning
        ? `embedded PostgreSQL ${st.version} already running at ${s.target.display}\n`
        : `embedded PostgreSQL ${st.version} started at ${s.target.display} in ${(s.startMs / 1000).toFixed(2)} s (data: ${st.dataDir})\n`)
      err.write(`pgload: password file: ${st.pgpass} (use PGPASSFILE=${st.pgpass}); stop with: pgload server stop\n`)
      return
    }
    case 'stop': {
      const stopped = await stopServer({ env })
      out.write(stopped ? 'embedded PostgreSQL stopped\n' : 'embedded PostgreSQL was not running\n')
      return
    }
    case 'status': {
      const st = await serverStatus({ env })
      if (json) {
        out.write(JSON.stringify(st, null, 2) + '\n')
        return
      }
      if (st.orphaned) {
        out.write(`orphaned: a PostgreSQL server (pid ${st.pid}) started by a pgload that is gone (pid ${st.owner}) is running on port ${st.port}` +
          `${st.startedAt ? ` since ${st.startedAt}` : ''}; the next pgload command adopts it and stops it when done, or stop it now: pgload server stop\n`)
      } else if (st.running) {
        // a server a pgload command started stops when the last command using it ends
        const users = st.keep === false ? st.users ?? [] : []
        const until = users.length === 1 ? `, until pgload pid ${users[0]} ends` : users.length > 1 ? `, until pgload pids ${users.join(', ')} end` : ''
        out.write(`running: ${st.url} (PostgreSQL ${st.version}, pid ${st.pid}${st.startedAt ? `, since ${st.startedAt}` : ''}${until})\n`)
      } else {
        out.write(`not running${st.initialised ? '' : ' (not initialised yet)'}\n`)
      }
      out.write(`data: ${st.dataDir}\npassword file: ${st.pgpass}\nlog: ${st.logFile}\n`)
      return
    }
    case 'url': {
      const st = await serverStatus({ env })
      if (!st.running) {
        throw new PgloadError('the embedded PostgreSQL is not running', { code: 'EMBEDDED_NOT_RUNNING', hint: 'start it with: pgload server start' })
      }
      if (showPassword) {
        // Read through the same path every command uses, so the URL is the one that works.
        const s = await ensureEmbeddedServer({ keep: true, env, log })
        const c = s.target.config
        out.write(`postgres://${c.user}:${encodeURIComponent(c.password)}@${c.host}:${c.port}/${c.database}\n`)
      } else {
        out.write(st.url + '\n')
        err.write(`pgload: password file: ${st.pgpass} (PGPASSFILE=${st.pgpass} psql "${st.url}")\n`)
      }
      return
    }
    default:
      throw new PgloadError(`unknown server action ${JSON.stringify(action)}: use ${ACTIONS.join(', ')}`)
  }
}

/** @param {any} argv */
export async function handler (argv) {
  await serverCommand(argv.action, { showPassword: argv.showPassword === true, json: argv.json === true, log: createLogger(argv) })
}

export default { command, describe, builder, handler }
