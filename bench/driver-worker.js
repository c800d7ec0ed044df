// One microbenchmark measurement in its own process: N connections of one driver run
// `SELECT abalance FROM pgbench_accounts WHERE aid = $1` back to back; prints one JSON line.
// Usage: node bench/driver-worker.js <pg|pg-client|lean> <connections> <seconds> <warmupSeconds> <url>

import { PerformanceObserver } from 'node:perf_hooks'
import pg from 'pg'
import { openConnection, defineStatement } from '../lib/db/connection.js'
import { openLeanConnection } from '../lib/db/lean-connection.js'
import { resolveTarget } from '../lib/server/target/resolve-target.js'
import { applyDriverV8Flags } from '../lib/engine/v8-flags.js'

applyDriverV8Flags() // the runtime settings of pgload's command line

const [driver, connArg, secArg, warmArg, url] = process.argv.slice(2)
const connections = Number(connArg)
const seconds = Number(secArg)
const warmupS = Number(warmArg)
const target = resolveTarget({ url })
const TEXT = 'SELECT abalance FROM pgbench_accounts WHERE aid = $1'
const stmt = defineStatement(TEXT)

// pg's Client.query as an application would call it: prepared by name, array rows, text values.
const textTypes = { getTypeParser: () => (v) => v }
async function openPgClient () {
  const client = new pg.Client({ ...target.config, application_name: 'pgload-bench' })
  await client.connect()
  const configs = new Map()
  return {
    execute (st, values) {
      let config = configs.get(st)
      if (!config) configs.set(st, config = { name: st.name, text: st.text, values, rowMode: 'array', types: textTypes })
      config.values = values
      return client.query(config)
    },
    close () { return client.end() }
  }
}

const open = driver === 'lean'
  ? () => openLeanConnection(target, { applicationName: 'pgload-bench' })
  : driver === 'pg'
    ? () => openConnection(target, { applicationName: 'pgload-bench' })
    : openPgClient
const conns = await Promise.all(Array.from({ length: connections }, open))
const setup = conns[0]
const scaleRow = await setup.execute(defineStatement('SELECT count(*) FROM pgbench_branches'), [])
const accounts = 100000 * Number(scaleRow.rows[0][0])

let count = 0
const state = { stop: false }
let gcMinor = 0
let gcMajor = 0
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.detail?.kind === 1) gcMinor++ // NODE_PERFORMANCE_GC_MINOR
    else gcMajor++
  }
})

async function worker (conn) {
  const values = [1]
  while (!state.stop) {
    values[0] = 1 + Math.floor(Math.random() * accounts)
    const r = await conn.execute(stmt, values)
    if (r.rows.length !== 1) throw new Error(`aid ${values[0]}: ${r.rows.length} rows`)
    count++
  }
}

const running = conns.map(worker)
await sleep(warmupS * 1000)
obs.observe({ entryTypes: ['gc'] })
const c0 = count
const cpu0 = process.cpuUsage()
const t0 = performance.now()
await sleep(seconds * 1000)
const c1 = count
const cpu = process.cpuUsage(cpu0)
const t1 = performance.now()
state.stop = true
await Promise.all(running)
obs.disconnect()
await Promise.all(conns.map(c => c.close()))
const queries = c1 - c0
const cpuUs = cpu.user + cpu.system
process.stdout.write(JSON.stringify({
  driver,
  connections,
  queries,
  tps: queries / ((t1 - t0) / 1000),
  cpuUsPerQuery: cpuUs / queries,
  userUsPerQuery: cpu.user / queries,
  sysUsPerQuery: cpu.system / queries,
  cpuUtil: cpuUs / ((t1 - t0) * 1000),
  gcMinorPer10k: gcMinor / queries * 1e4,
  gcMajor
}) + '\n')

function sleep (ms) { return new Promise(resolve => setTimeout(resolve, ms)) }
