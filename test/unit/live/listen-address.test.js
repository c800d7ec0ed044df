import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseListenAddress, isLoopback, formatListenAddress } from '../../../lib/options/listen-address.js'

test('HOST:PORT forms, the bare flag\'s default, IPv6 in brackets', () => {
  assert.deepEqual(parseListenAddress('0.0.0.0:9464', '--metrics'), { host: '0.0.0.0', port: 9464 })
  assert.deepEqual(parseListenAddress(':9464', '--metrics'), { host: '127.0.0.1', port: 9464 })
  assert.deepEqual(parseListenAddress('9464', '--metrics'), { host: '127.0.0.1', port: 9464 })
  assert.deepEqual(parseListenAddress('[::1]:5665', '--dashboard'), { host: '::1', port: 5665 })
  assert.deepEqual(parseListenAddress('', '--dashboard', { host: '127.0.0.1', port: 5665 }), { host: '127.0.0.1', port: 5665 })
  assert.deepEqual(parseListenAddress({ host: '::1', port: 1 }, '--dashboard'), { host: '::1', port: 1 })
  assert.equal(formatListenAddress({ host: '::1', port: 1 }), '[::1]:1')
  for (const bad of ['host:', 'a:b', '1:2:3', '[x]:1', '1.2.3.4:65536', null]) {
    assert.throws(() => parseListenAddress(bad, '--metrics'), /--metrics/)
  }
})

test('loopback addresses', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) assert.equal(isLoopback(h), true, h)
  for (const h of ['0.0.0.0', '::', '10.0.0.1', 'example.com']) assert.equal(isLoopback(h), false, h)
})
