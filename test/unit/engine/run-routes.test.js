// --route: a routed transaction type runs on its own target's connections, the others on the
// run's own; the run's backends (whose exit the statistics wait for) are its own server's only.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { newRun } from './test-settings.js'
import { fakeServer } from './fake-server.js'

function workload (seen) {
  const on = (type) => async (ctx) => {
    seen.push([type, ctx.conn.server])
    await ctx.conn.execute()
  }
  return { name: 'fake', transactions: [{ name: 'writes.sql', weight: 1, run: on('w') }, { name: 'reads.sql', weight: 3, run: on('r') }] }
}

function named (name) {
  const server = fakeServer()
  const open = server.open
  server.open = async () => Object.assign(await open(), { server: name })
  return server
}

test('a routed type runs only on its target; the others only on the run\'s own server', async () => {
  const primary = named('primary')
  const standby = named('standby')
  const seen = []
  const run = newRun(workload(seen), {
    openConnection: primary.open,
    routeOpeners: [standby.open],
    routes: [{ type: 'reads.sql', target: 'replicas' }],
    routeTargets: [{ name: 'replicas', url: 'host=standby' }],
    clients: 3,
    transactionsPerClient: 40,
    seed: 5n
  })
  const outcome = await run.execute()
  assert.equal(outcome.summary.transactions, 120)
  const on = (type, server) => seen.filter(([t, s]) => t === type && s === server).length
  assert.ok(on('r', 'standby') > 0 && on('w', 'primary') > 0, JSON.stringify(seen.slice(0, 5)))
  assert.equal(on('r', 'primary'), 0, 'no read on the primary')
  assert.equal(on('w', 'standby'), 0, 'no write on the standby')
  assert.equal(standby.opened, 3, 'a pool as large as the run\'s own')
  assert.deepEqual(outcome.backendPids.sort(), [1001, 1002, 1003])
  assert.ok(standby.conns.every((c) => c.closed), 'the routed connections are closed at the end')
})

test('a route to a type the run does not have is refused before anything runs', () => {
  const server = named('primary')
  assert.throws(() => newRun(workload([]), { openConnection: server.open, routes: [{ type: 'nope.sql', target: 'x' }], routeTargets: [{ name: 'x', url: 'host=x' }], clients: 1 }),
    { code: 'BAD_OPTION', message: '--route nope.sql: no transaction type of that name in this run' })
  assert.equal(server.opened, 0)
})
