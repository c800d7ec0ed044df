// `pgload ab`: the same benchmark alternately under settings A and B (ABBA or seeded random
// order), each side's settings applied and verified before its runs, every original restored.

import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { PgloadError } from '../../errors.js'
import { openConnection } from '../../db/connection.js'
import { resolveTarget, explainConnectError } from '../../server/target/resolve-target.js'
import { givenOrEmbedded } from '../../server/target/given-or-embedded.js'
import { planSettings, readOriginals, applySystemSettings, verifySettings, sessionOptions } from './settings.js'
import { checkSettingValues } from './setting-values.js'
import { seededRandom } from '../../compare/statistics/distribution-free.js'
import { replan } from '../../plan/resolve.js'
import { runRestartCommand } from '../../server/cold/restart-command.js'
import { COLD_DEFAULTS } from '../../server/cold/cold-start.js'

/** Defaults of `pgload ab` (one table, units in the names). */
export const AB_DEFAULTS = {
  rounds: 5, // runs per side: the fewest a rank test can call significant is 4, 5 leaves room for one noisy run
  order: 'abba', // abba | random (seeded: each round is AB or BA)
  seed: 1, // seed of the random order
  restartTimeoutS: 120 // how long to wait for the server after a restart
}

/**
 * The order of the runs.
 * @param {number} rounds runs per side
 * @param {'abba'|'random'} order
 * @param {number} seed
 * @returns {('A'|'B')[]}
 */
export function abSequence (rounds, order, seed) {
  if (order === 'abba') return Array.from({ length: 2 * rounds }, (_, i) => 'ABBA'[i % 4])
  const random = seededRandom(seed)
  const out = []
  for (let r = 0; r < rounds; r++) out.push(...(random() < 0.5 ? ['A', 'B'] : ['B', 'A']))
  return out
}

/**
 * A connection URL with startup options added (URI query parameter or key=value pair).
 * @param {string} url
 * @param {string} options
 * @returns {string}
 */
export function withStartupOptions (url, options) {
  if (!options) return url
  if (/^postgres(ql)?:\/\//i.test(url)) {
    const u = new URL(url)
    const prev = u.searchParams.get('options')
    u.searchParams.set('options', prev ? `${prev} ${options}` : options)
    return u.toString()
  }
  return `${url} options='${options.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

function uriOf (config) {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  const auth = `${encodeURIComponent(config.user)}${config.password ? ':' + encodeURIComponent(config.password) : ''}`
  return `postgres://${auth}@${host}:${config.port}/${encodeURIComponent(config.database)}`
}

/**
 * One server taking part: where it is, how to reach and restart it, what to restore.
 */
class AbServer {
  constructor ({ label, url, env, log }) {
    this.label = label
    this.url = url ?? null // null: PG* environment
    this.env = env
    this.log = log
    this.embedded = false
    this.startedByUs = false
    this.conn = null
    this.plan = []
    this.originals = new Map()
    this.restartMode = null
  }

  target (options = '') {
    if (this.url) return resolveTarget({ url: withStartupOptions(this.url, options), env: this.env })
    return resolveTarget({ env: { ...this.env, PGOPTIONS: [this.env.PGOPTIONS, options].filter(Boolean).join(' ') } })
  }

  /** What runBenchmark gets: a URL, or the PG* environment with PGOPTIONS. */
  runConnection (options) {
    if (this.url) return { url: withStartupOptions(this.url, options), env: this.env }
    return { url: undefined, env: { ...this.env, PGOPTIONS: [this.env.PGOPTIONS, options].filter(Boolean).join(' ') } }
  }

  async connect (options = '') {
    const target = this.target(options)
    try {
      return await openConnection(target, { protocol: 'simple', applicationName: 'pgload-ab' })
    } catch (err) {
      // a server's refusal of a setting (a SQLSTATE of its own) is the caller's to name
      if (err instanceof PgloadError || (/^[0-9A-Z]{5}$/.test(err?.code ?? '') && !/^(28|3D)/.test(err.code))) throw err
      throw explainConnectError(err, target)
    }
  }

  async open () {
    this.conn = await this.connect()
  }

  async close () {
    await this.conn?.close().catch(() => {})
    this.conn = null
  }

  async restart (restartCommand, side) {
    await this.close()
    if (this.embedded) {
      // same port and data: the runs' URL stays the same, so the results name one server
      const { restartEmbeddedServer } = await import('../../server/embedded/restart.js')
      await restartEmbeddedServer({ env: this.env })
    } else {
      await runRestartCommand(restartCommand, { env: { ...process.env, ...this.env, PGLOAD_AB_SIDE: side }, timeoutS: COLD_DEFAULTS.commandTimeoutS })
    }
    const deadline = Date.now() + AB_DEFAULTS.restartTimeoutS * 1000
    for (;;) {
      try {
        await this.open()
        return
      } catch (err) {
        if (Date.now() > deadline) throw new PgloadError(`the server did not come back within ${AB_DEFAULTS.restartTimeoutS} s after the restart: ${err.message}`, { code: 'AB_RESTART' })
        await new Promise(resolve => setTimeout(resolve, 500))
      }
    }
  }
}

/**
 * Runs an A/B experiment. Call `interrupt()` (e.g. on SIGINT) to stop after the current run;
 * settings are restored in every case before `run()` settles.
 */
export class AbRunner {
  /**
   * @param {{ a: { name: string, value: string }[], b: { name: string, value: string }[], aUrl?: string, bUrl?: string,
   *   rounds?: number, order?: 'abba'|'random', seed?: number, restartCommand?: string, outDir: string,
   *   runOptions: import('../../plan/resolve.js').RunPlan, env?: Record<string, string|undefined>, log?: any,
   *   runBenchmark: (options: object, hooks: object) => Promise<{ results: object, file: string|null, exitCode: number }>,
   *   onEvent?: (name: string, info: object) => void }} opts
   */
  constructor (opts) {
    this.opts = { ...AB_DEFAULTS, env: process.env, onEvent: () => {}, ...opts }
    for (const k of Object.keys(AB_DEFAULTS)) this.opts[k] ??= AB_DEFAULTS[k]
    this.interrupted = false
    /** settings may be changed from now on: a signal must let the runner restore them */
    this.changing = false
    this.currentRun = null
  }

  interrupt (hard = false) {
    this.interrupted = true
    if (hard) this.currentRun?.abort('interrupted')
    else this.currentRun?.stop('interrupted')
  }

  async #servers () {
    const o = this.opts
    const env = o.env
    if (o.aUrl || o.bUrl) {
      if (!o.aUrl || !o.bUrl) throw new PgloadError('--a-url and --b-url go together')
      const a = new AbServer({ label: 'A', url: o.aUrl, env, log: o.log })
      const b = new AbServer({ label: 'B', url: o.bUrl, env, log: o.log })
      return { A: a, B: b, list: [a, b] }
    }
    const url = o.runOptions.url
    const { target, embedded } = await givenOrEmbedded(resolveTarget({ url, env }), { keep: true, env, log: o.log })
    // a given server is named as the user named it (URL or environment), the embedded one by its URL
    const server = new AbServer({ label: 'A and B', url: embedded ? uriOf(target.config) : url, env, log: o.log })
    if (embedded) {
      server.embedded = true
      server.startedByUs = !embedded.reused
    }
    return { A: server, B: server, list: [server] }
  }

  /**
   * @returns {Promise<{ sequence: string[], runs: { side: string, file: string|null, results: object, exitCode: number }[],
   *   interrupted: boolean, plan: object[], restored: boolean }>}
   */
  async run () {
    const o = this.opts
    const sides = { A: o.a, B: o.b }
    if (o.a.length === 0 && o.b.length === 0 && !o.aUrl && !o.aa) throw new PgloadError('ab needs settings: --a and/or --b (name=value,...), or --a-url and --b-url')
    const servers = await this.#servers()
    const runs = []
    let restored = false
    const sequence = abSequence(o.rounds, o.order, o.seed)
    try {
      await this.#checkCold(servers)
      for (const s of servers.list) {
        s.restartMode = s.embedded ? 'embedded' : (o.restartCommand ? 'command' : null)
        await s.open()
        const names = [...new Set(['A', 'B'].filter(x => servers[x] === s).flatMap(x => sides[x].map(v => v.name)))]
        s.plan = await planSettings(s.conn, names, { restart: s.restartMode, side: s.label })
        // every value the server would refuse, before anything is changed or run
        for (const x of ['A', 'B']) if (servers[x] === s) await checkSettingValues(s.conn, sides[x], x)
        s.originals = await readOriginals(s.conn, s.plan.map(p => p.name))
      }
      o.onEvent('plan', {
        servers: servers.list.map(s => ({ label: s.label, embedded: s.embedded, plan: s.plan, originals: Object.fromEntries([...s.originals].map(([k, v]) => [k, v.value])) })),
        sequence
      })
      await mkdir(o.outDir, { recursive: true })
      this.changing = true
      let current = null
      for (let i = 0; i < sequence.length && !this.interrupted; i++) {
        const side = sequence[i]
        const server = servers[side]
        const canonical = (name) => server.plan.find(p => p.name.toLowerCase() === name.toLowerCase())
        const values = new Map(sides[side].map(v => [canonical(v.name).name, v.value]))
        if (!server.conn) await server.open() // closed for the cold start of the run before
        if (current !== side || servers.list.length > 1) {
          const needsRestart = await applySystemSettings(server.conn, server.plan, values, server.originals)
          if (needsRestart) {
            o.onEvent('restart', { side, server: server.label })
            await server.restart(o.restartCommand, side)
          }
          current = side
        }
        const session = sessionOptions(sides[side].filter(v => canonical(v.name).method === 'session').map(v => ({ name: canonical(v.name).name, value: v.value })))
        const expected = new Map(server.plan.map(p => [p.name, values.get(p.name) ?? server.originals.get(p.name).value]))
        const check = await connectWithSettings(server, session, side)
        try {
          const bad = await verifySettings(check, server.plan, expected)
          if (bad.length) {
            throw new PgloadError(`settings of ${side} did not take effect: ${bad.map(b => `${b.name} is ${b.actual}, expected ${b.expected}`).join('; ')}`, { code: 'AB_VERIFY' })
          }
        } finally {
          await check.close().catch(() => {})
        }
        o.onEvent('verified', { side, index: i, settings: Object.fromEntries(expected) })
        if (this.interrupted) break
        const name = abRunName(i, side)
        const file = join(o.outDir, `${name}.json`)
        const { url, env } = server.runConnection(session)
        o.onEvent('run', { side, index: i, total: sequence.length, file })
        // Reports and comparisons of these files name each run as its file is named, then its settings.
        const label = [name, ...sides[side].map(v => `${v.name}=${v.value}`)].join(' ')
        const plan = await replan(o.runOptions, { url, out: file, writeFile: true, label, ...this.#coldOptions() })
        // A cold start restarts the server under ab's connection: closed first, opened again after.
        if (plan.cold) await server.close()
        const r = await o.runBenchmark(plan, {
          log: o.log,
          env: plan.cold ? { ...env, PGLOAD_AB_SIDE: side } : env,
          onRun: (run) => {
            this.currentRun = run
            if (this.interrupted) run.stop('interrupted')
          }
        })
        this.currentRun = null
        runs.push({ side, file: r.file, results: r.results, exitCode: r.exitCode })
        o.onEvent('done', { side, index: i, file: r.file, results: r.results })
      }
    } finally {
      restored = await this.#restore(servers)
    }
    return { sequence, runs, interrupted: this.interrupted, plan: servers.list.map(s => s.plan), restored }
  }

  /** --cold in the run options: every server must have a way to restart, before anything changes. */
  async #checkCold (servers) {
    if (!this.opts.runOptions.cold) return
    const { coldRestartMethod } = await import('../../server/cold/cold-start.js')
    for (const s of servers.list) {
      await coldRestartMethod({ url: s.url ?? undefined, restartCommand: this.#coldOptions().restartCommand, env: this.opts.env })
    }
  }

  /** The cold runs' restart command: the run options' own, else ab's --restart-command. */
  #coldOptions () {
    const o = this.opts
    const command = o.runOptions.restartCommand ?? (o.runOptions.cold ? o.restartCommand : undefined)
    return command === undefined ? {} : { restartCommand: command }
  }

  async #restore (servers) {
    const o = this.opts
    const problems = []
    for (const s of servers.list) {
      try {
        if (s.plan.length && s.originals.size) {
          if (!s.conn) await s.open()
          const needsRestart = await applySystemSettings(s.conn, s.plan, new Map(), s.originals)
          if (needsRestart) {
            o.onEvent('restart', { side: 'restore', server: s.label })
            await s.restart(o.restartCommand, 'restore')
          }
          const expected = new Map([...s.originals].map(([k, v]) => [k, v.value]))
          const bad = await verifySettings(s.conn, s.plan, expected)
          if (bad.length) problems.push(`${s.label}: ${bad.map(b => `${b.name} is ${b.actual}, was ${b.expected}`).join('; ')}`)
          o.onEvent('restored', { server: s.label, settings: Object.fromEntries(expected) })
        }
      } catch (err) {
        problems.push(`${s.label}: ${err.message}`)
      } finally {
        await s.close()
        if (s.embedded && s.startedByUs) {
          const { stopServer } = await import('../../server/embedded/embedded-server.js')
          await stopServer({ env: s.env }).catch(() => {})
        }
      }
    }
    if (problems.length) {
      o.onEvent('restore-failed', { problems })
      return false
    }
    return true
  }
}

/**
 * The name of an A/B run: its place in the order and its side ("04-A"), its file's name and its
 * label in reports, so that a report's run is found by its file.
 * @param {number} index position in the order, from 0
 * @param {string} side
 * @returns {string}
 */
export function abRunName (index, side) {
  return `${String(index + 1).padStart(2, '0')}-${side}`
}

/**
 * The A/B results directory default: pgload-results/ab-<UTC time>.
 * @param {Date} [at]
 * @returns {string}
 */
export function defaultAbDir (at = new Date()) {
  return join('pgload-results', `ab-${at.toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}`)
}

/**
 * A connection with a side's session settings; a value the server refuses at connect (one the
 * check before the first round could not see) is one line naming it, not an internal error.
 * @param {any} server @param {string} session startup options @param {string} side
 */
async function connectWithSettings (server, session, side) {
  try {
    return await server.connect(session)
  } catch (err) {
    if (err instanceof PgloadError) throw err
    throw new PgloadError(`settings of ${side}: the server refused them at connect: ${String(err?.message ?? err).split('\n')[0]}`, { code: 'AB_SETTING', cause: err })
  }
}
