import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bytesText, BYTE_UNITS } from '../../../lib/format/bytes.js'

test('sizes as PostgreSQL writes them: bytes, kB, MB, GB, TB by 1024', () => {
  assert.deepEqual(BYTE_UNITS, ['bytes', 'kB', 'MB', 'GB', 'TB'])
  assert.equal(bytesText(512), '512 bytes')
  assert.equal(bytesText(52_429), '51.2 kB')
  assert.equal(bytesText(128 * 1024 * 1024), '128 MB')
  assert.equal(bytesText(128 * 1024 * 1024, { fixed: true }), '128.0 MB')
  assert.equal(bytesText(23.5 * 1024 ** 3), '23.5 GB')
})
