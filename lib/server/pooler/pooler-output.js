// The pooler output of a run session: finds PgBouncer in front of the run (or takes the admin
// console --pooler-admin names), reads it at every interval, and gives the results their
// `pooler` section. Without a pooler it costs one refused connection attempt and says nothing.

import { silentLogger } from '../../log.js'
import { PgloadError } from '../../errors.js'
import { resolveTarget } from '../target/resolve-target.js'
import { openPoolerAdmin } from './admin-connection.js'
import { PoolerSampler } from './sampler.js'
import { preparedStatementsProblem } from './prepared-statements.js'

/**
 * The output; each run's plan (its url, poolerAdmin and protocol) comes with the run's start.
 * @param {{ env?: Record<string, string|undefined>, err?: { write(s: string): any }, log?: any, plan?: Readonly<Record<string, any>> }} [opts]
 *   err: where its warning lines go (the command's stderr); plan: the one run's plan, known
 *   before it starts: the pooler is then found as soon as the server is reached, and a warning
 *   about it comes before the run's own errors
 * @returns {import('../../session/output.js').Output}
 */
export function poolerOutput ({ env = process.env, err = { write () {} }, log = silentLogger, plan: known = null } = {}) {
  /** @type {PoolerSampler|null} */
  let sampler = null
  let starting = Promise.resolve()
  let early = null
  const warn = (message, hint) => err.write(`pgload: warning: ${message}\n${hint ? `hint: ${hint}\n` : ''}`)
  // the pooler found (or not) for a plan, and what it cannot do for it said at once
  const find = (plan) => startSampler(plan, { env, log }).then((s) => {
    const problem = s && preparedStatementsProblem({ protocol: plan.protocol, version: s.version, ...s.settings })
    if (problem) warn(problem.message, problem.hint)
    return s
  }, (e) => { warn(e.message, e.hint); return null })
  return {
    name: 'pooler',
    phase (name) {
      if (name === 'connected' && known && !early) early = find(known)
    },
    start ({ run, plan }) {
      // a session's next run: the last one's console is closed before another is opened
      const previous = sampler
      sampler = null
      const found = early ?? Promise.resolve(previous?.close()).then(() => find(plan))
      early = null
      starting = found.then((s) => { sampler = s })
      run.on('measuring', () => { starting.then(() => sampler?.rebase()) })
    },
    interval (e) {
      sampler?.sample(e.elapsedS)
    },
    async finish (results) {
      await starting
      if (!sampler) return
      const pooler = await sampler.finish()
      // the pooler's client connection is given back as soon as the readings are done
      await sampler.close()
      sampler = null
      // a document that has one (a library caller's) keeps it
      if (results.pooler === undefined) results.pooler = pooler
    },
    async close () {
      // found for a run that never started
      if (early) await (await early)?.close()
      early = null
      await starting
      await sampler?.close()
      sampler = null
    }
  }
}

/** The sampler of the pooler in front of the run, started; null when there is none. */
async function startSampler (plan, { env, log }) {
  const target = resolveTarget({ url: plan.url, env })
  if (!target && plan.poolerAdmin !== undefined && plan.poolerAdmin !== 'off') {
    throw new PgloadError('--pooler-admin is for a run through a pooler: the embedded server has none', { code: 'POOLER_ADMIN', hint: 'give the pooler\'s address with --url' })
  }
  const admin = await openPoolerAdmin({ target, adminUrl: plan.poolerAdmin, env, log })
  if (!admin) return null
  const sampler = new PoolerSampler({ ...admin, pool: { database: target.config.database, user: target.config.user } })
  try {
    await sampler.start()
  } catch (e) {
    await sampler.close()
    throw new PgloadError(`PgBouncer at ${admin.display} could not be read: ${e.message}`, { code: 'POOLER_ADMIN' })
  }
  return sampler
}
