// Choosing one of several servers per connection: libpq's order, target_session_attrs, the
// prefer-standby second pass, load_balance_hosts=random, and the one line when none matches.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { openMatching, tryOrder, sessionMatches, sessionState, targetAsReached } from '../../../lib/db/target-session.js'

const PRIMARY = { readOnly: false, inRecovery: false }
const STANDBY = { readOnly: true, inRecovery: true }

// servers by host: a state, or an error code the connection attempt fails with
function fakeServers (servers) {
  const opened = []
  const open = async (c) => {
    opened.push(c.host)
    const s = servers[c.host]
    if (typeof s === 'string') throw Object.assign(new Error(s === 'ETIMEDOUT' ? 'timeout expired' : 'connect ' + s), { code: s })
    return {
      host: c.host,
      closed: false,
      async simpleQuery (text) {
        return { rows: [[/read_only/.test(text) ? (s.readOnly ? 'on' : 'off') : (s.inRecovery ? 't' : 'f')]] }
      },
      async close () { this.closed = true }
    }
  }
  return { open, opened }
}

const list = (...hosts) => hosts.map((host, i) => ({ host, port: 5432 + i }))

test('target_session_attrs picks the first matching server in the order given', async () => {
  const servers = { closed: 'ECONNREFUSED', standby: STANDBY, primary: PRIMARY }
  const hosts = list('closed', 'standby', 'primary')
  for (const [attrs, want, position] of [['any', 'standby', 2], ['read-write', 'primary', 3], ['primary', 'primary', 3],
    ['read-only', 'standby', 2], ['standby', 'standby', 2], ['prefer-standby', 'standby', 2]]) {
    const { open } = fakeServers(servers)
    const r = await openMatching(hosts, { open, targetSessionAttrs: attrs })
    assert.equal(r.conn.host, want, attrs)
    assert.equal(r.position, position)
    assert.equal(r.of, 3)
  }
})

test('prefer-standby with no standby takes the first server on a second pass, not waiting again for a dead one', async () => {
  const { open, opened } = fakeServers({ closed: 'ECONNREFUSED', p1: PRIMARY, p2: PRIMARY })
  const r = await openMatching(list('closed', 'p1', 'p2'), { open, targetSessionAttrs: 'prefer-standby' })
  assert.equal(r.conn.host, 'p1')
  assert.deepEqual(opened, ['closed', 'p1', 'p2', 'p1'])
})

test('a server that does not match is closed, and no match is one line saying what each was', async () => {
  const { open } = fakeServers({ a: 'ECONNREFUSED', b: STANDBY, c: 'ETIMEDOUT' })
  await assert.rejects(openMatching(list('a', 'b', 'c'), { open, targetSessionAttrs: 'read-write' }),
    { name: 'PgloadError', message: 'no server matches target_session_attrs=read-write: a:5432 refused, b:5433 standby, c:5434 timed out' })
})

test('one server that cannot be reached gives its own error, as before', async () => {
  const { open } = fakeServers({ a: 'ECONNREFUSED' })
  await assert.rejects(openMatching(list('a'), { open }), { code: 'ECONNREFUSED' })
})

test('load_balance_hosts=random shuffles the order; disable keeps it', () => {
  const hosts = list('a', 'b', 'c')
  assert.deepEqual(tryOrder(hosts, 'disable').map(h => h.host), ['a', 'b', 'c'])
  assert.deepEqual(tryOrder(hosts, 'random', () => 0).map(h => h.host), ['b', 'c', 'a'])
  const firsts = new Set()
  let seed = 1
  const random = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }
  for (let i = 0; i < 40; i++) firsts.add(tryOrder(hosts, 'random', random)[0].host)
  assert.equal(firsts.size, 3)
})

test('sessionMatches follows libpq: read-write/read-only by transaction_read_only, primary/standby by recovery', () => {
  const hotReadOnlyPrimary = { readOnly: true, inRecovery: false }
  assert.equal(sessionMatches('read-write', hotReadOnlyPrimary), false)
  assert.equal(sessionMatches('primary', hotReadOnlyPrimary), true)
  assert.equal(sessionMatches('read-only', hotReadOnlyPrimary), true)
  assert.equal(sessionMatches('standby', hotReadOnlyPrimary), false)
  assert.equal(sessionMatches('any', STANDBY), true)
})

test('the target as reached names the server chosen and its place; a one-server target is unchanged', () => {
  const target = { display: 'postgres://u@h1:5432,h2:5433,h3:5434/db', hosts: list('h1', 'h2', 'h3'), targetSessionAttrs: 'read-write', loadBalanceHosts: 'disable', config: {} }
  const t = targetAsReached(target, { host: 'h2', port: 5433, position: 2, of: 3 })
  assert.equal(t.display, 'postgres://u@h2:5433/db (2nd of 3 hosts, read-write)')
  assert.equal(t.hosts, target.hosts)
  const one = { display: 'postgres://u@h:5432/db', config: {} }
  assert.equal(targetAsReached(one, undefined), one)
})

test('a server that reported in_hot_standby and default_transaction_read_only at start-up is not asked again, as libpq', async () => {
  const asked = []
  const conn = (parameters) => ({ parameters, simpleQuery: async (text) => { asked.push(text); return { rows: [[text.startsWith('SHOW') ? 'off' : 'f']] } } })
  assert.deepEqual(await sessionState(conn({ in_hot_standby: 'on', default_transaction_read_only: 'off' })), { readOnly: true, inRecovery: true })
  assert.deepEqual(await sessionState(conn({ in_hot_standby: 'off', default_transaction_read_only: 'on' })), { readOnly: true, inRecovery: false })
  assert.deepEqual(await sessionState(conn({ in_hot_standby: 'off', default_transaction_read_only: 'off' })), { readOnly: false, inRecovery: false })
  assert.deepEqual(asked, [])
  // PostgreSQL 13 reports neither (nor does a driver that does not keep them): asked
  assert.deepEqual(await sessionState(conn({ server_version: '13.9' })), { readOnly: false, inRecovery: false })
  assert.deepEqual(asked, ['SHOW transaction_read_only', 'SELECT pg_is_in_recovery()'])
})
