// The run's connection opener, as the main thread and every worker thread use it: the plan's
// protocol, and a refused connection explained in one line naming where.

import { test, afterEach } from 'node:test'
import assert from 'node:assert/strict'
import { installConnector } from '../../../lib/db/connector.js'
import { runConnectionOpener } from '../../../lib/orchestration/run-connections.js'
import { PgloadError } from '../../../lib/errors.js'

const target = { config: { host: '127.0.0.1', port: 1, user: 'u', database: 'd' }, display: 'postgres://u@127.0.0.1:1/d' }

afterEach(() => installConnector(null))

test('each driver opens with the plan\'s protocol, a new connection per call', async () => {
  const opened = []
  installConnector(async (t, opts) => { opened.push([t, opts.protocol]); return { n: opened.length } })
  for (const driver of ['lean', 'pg']) {
    const open = runConnectionOpener({ driver, protocol: 'extended' }, target)
    assert.deepEqual(await open(), { n: opened.length })
    assert.deepEqual(await open(), { n: opened.length })
  }
  assert.deepEqual(opened, Array(4).fill([target, 'extended']))
})

test('a refused connection is one PgloadError naming the server', async () => {
  installConnector(async () => { throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) })
  const open = runConnectionOpener({ driver: 'lean', protocol: 'prepared' }, target)
  await assert.rejects(open(), (err) => err instanceof PgloadError && err.code === 'CONNECT' &&
    err.message === 'cannot connect to PostgreSQL at 127.0.0.1:1: connection refused')
})
