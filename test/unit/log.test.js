import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger, formatLogRecord } from '../../lib/log.js'

function sink () {
  const s = { text: '', write (c) { s.text += c } }
  return s
}

function permissionError () {
  const err = new Error('permission denied for view pg_stat_statements\nDETAIL:  only superusers')
  err.code = '42501'
  return err
}

test('a warning with an error is one human line: no JSON, no stack, no other fields', () => {
  const out = sink()
  const log = createLogger({ stream: out, env: {} })
  log.child({ component: 'server-stats' }).warn({ err: permissionError(), t: 3 }, 'server statistics unavailable')
  log.warn({ err: 'relation "x" does not exist' }, 'server statistics are not available')
  log.warn('permission denied for table pgbench_history (ignoring this error and continuing anyway)')
  log.info('not shown at the default level')
  assert.equal(out.text, [
    'pgload: warning: server statistics unavailable: permission denied for view pg_stat_statements',
    'pgload: warning: server statistics are not available: relation "x" does not exist',
    'pgload: warning: permission denied for table pgbench_history (ignoring this error and continuing anyway)',
    ''
  ].join('\n'))
})

test('PGLOAD_LOG_LEVEL still chooses the level; errors are labelled as such', () => {
  const out = sink()
  const log = createLogger({ stream: out, env: { PGLOAD_LOG_LEVEL: 'info' } })
  log.info({ target: 'postgres://u@h/db' }, 'using the running embedded server')
  log.error({ err: new Error('boom') }, 'the workload could not compute its final figures')
  assert.equal(out.text, 'pgload: info: using the running embedded server\npgload: error: the workload could not compute its final figures: boom\n')
  assert.equal(formatLogRecord('not json'), 'not json\n')
})

test('--verbose keeps pino JSON with the stack; passwords stay redacted', () => {
  const out = sink()
  const log = createLogger({ verbose: true, stream: out, env: {} })
  log.warn({ err: permissionError(), config: { password: 'sekret' } }, 'server statistics unavailable')
  const record = JSON.parse(out.text)
  assert.equal(record.level, 40)
  assert.equal(record.msg, 'server statistics unavailable')
  assert.match(record.err.stack, /permission denied for view pg_stat_statements[\s\S]*\n\s+at /)
  assert.equal(record.config.password, '***')
})

test('--log-file gets the JSON records intact', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pgload-log-'))
  try {
    const file = join(dir, 'log.json')
    const out = sink()
    const log = createLogger({ logFile: file, stream: out, env: {} })
    log.warn({ err: permissionError() }, 'server statistics unavailable')
    await new Promise((resolve) => log.flush(resolve))
    // the file is opened and written asynchronously (sync: false): wait for the whole line, bounded
    const text = () => { try { return readFileSync(file, 'utf8') } catch { return '' } }
    for (let waited = 0; waited < 5000 && !text().endsWith('\n'); waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const record = JSON.parse(readFileSync(file, 'utf8').trim())
    assert.equal(record.msg, 'server statistics unavailable')
    assert.equal(record.err.message, 'permission denied for view pg_stat_statements\nDETAIL:  only superusers')
    assert.equal(record.pid, process.pid)
    assert.equal(out.text, '', 'nothing on stderr')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
