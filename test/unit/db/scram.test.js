// SCRAM-SHA-256 against RFC 7677's example exchange, and the ways a server's messages are refused.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ScramClient, saslPrep } from '../../../lib/db/scram.js'
import { md5Password } from '../../../lib/db/startup.js'
import { createHash } from 'node:crypto'

// RFC 7677, section 3
const NONCE = 'rOprNGfwEbeRWgbNEkqO'
const SERVER_FIRST = 'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096'
const CLIENT_FINAL = 'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ='
const SERVER_FINAL = 'v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4='

test('the RFC 7677 exchange: client-first, client-final with its proof, server signature accepted', () => {
  const c = new ScramClient('pencil', { nonce: NONCE, user: 'user' })
  assert.equal(c.first(), `n,,n=user,r=${NONCE}`)
  assert.equal(c.final(SERVER_FIRST), CLIENT_FINAL)
  c.verify(SERVER_FINAL)
  assert.equal(c.expected.toString('base64'), SERVER_FINAL.slice(2))
})

test('PostgreSQL leaves the user name to the startup message: n=* and a random nonce', () => {
  const a = new ScramClient('x')
  const b = new ScramClient('x')
  assert.match(a.first(), /^n,,n=\*,r=[A-Za-z0-9+/=]{24}$/)
  assert.notEqual(a.nonce, b.nonce)
})

test('a wrong server signature, a server error, a foreign nonce and a malformed message are refused', () => {
  const c = new ScramClient('pencil', { nonce: NONCE, user: 'user' })
  c.final(SERVER_FIRST)
  assert.throws(() => c.verify('v=' + Buffer.alloc(32).toString('base64')), /does not know the password/)
  assert.throws(() => c.verify('e=invalid-proof'), /refused the SCRAM proof: invalid-proof/)
  assert.throws(() => new ScramClient('p', { nonce: NONCE }).final('r=other%%,s=AAAA,i=4096'), /does not extend/)
  assert.throws(() => new ScramClient('p', { nonce: NONCE }).final(`r=${NONCE},s=AAAA,i=4096`), /does not extend/)
  assert.throws(() => new ScramClient('p', { nonce: NONCE }).final(`r=${NONCE}x,i=4096`), /malformed/)
  assert.throws(() => new ScramClient('p', { nonce: NONCE }).final(`r=${NONCE}x,s=AAAA,i=99999999`), /iterations/)
})

test('SASLprep: non-ASCII spaces become spaces, soft hyphens vanish, NFKC applies', () => {
  assert.equal(saslPrep('a\u00A0b'), 'a b')
  assert.equal(saslPrep('pa\u00ADss'), 'pass')
  assert.equal(saslPrep('\u2168'), 'IX')
  assert.equal(saslPrep('wörd'), 'wörd')
})

test('MD5 password: md5 of the hex md5 of password and user, then the salt', () => {
  const salt = Buffer.from([0x01, 0x02, 0xfe, 0xff])
  const inner = createHash('md5').update('secretalice').digest('hex')
  const expected = 'md5' + createHash('md5').update(inner).update(salt).digest('hex')
  assert.equal(md5Password('alice', 'secret', salt), expected)
  assert.match(expected, /^md5[0-9a-f]{32}$/)
  assert.notEqual(md5Password('alice', 'secret', Buffer.from([1, 2, 3, 4])), expected)
})
