// A connection refused for its encryption, in one line that names the sslmode tried and a hint
// that says which one would do: pg_hba.conf wanting SSL or refusing it, a server without SSL, a
// certificate that cannot be verified.

import { encryptionRefusal } from '../../db/ssl-fallback.js'

// Node's codes for a certificate chain that does not lead to a trusted root
const UNTRUSTED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_UNTRUSTED'])

const WHERE = 'in --url or PGSSLMODE'

/**
 * The message and hint for an SSL-related connect error, or null for any other error.
 * @param {any} err
 * @param {{ sslmode?: string, sslrootcert?: string, host?: string }} config the target's
 * @param {string} where host:port
 * @returns {{ message: string, hint: string }|null}
 */
export function explainSslError (err, config, where) {
  const text = String(err?.message ?? err).split('\n')[0]
  const mode = config.sslmode
  const tried = mode === undefined ? 'without SSL (no sslmode given)' : `with sslmode=${mode}`
  if (encryptionRefusal(err) && /no encryption/.test(text)) {
    return { message: `server at ${where} refused the connection ${tried}: ${text}`, hint: `it accepts only SSL connections here: give sslmode=prefer or require ${WHERE}` }
  }
  if (encryptionRefusal(err) && /SSL encryption/.test(text)) {
    return { message: `server at ${where} refused the connection ${tried}: ${text}`, hint: `it accepts only connections without SSL here: give sslmode=prefer or disable ${WHERE}` }
  }
  if (encryptionRefusal(err)) {
    return { message: `cannot connect to PostgreSQL at ${where} ${tried}: the server does not support SSL`, hint: `give sslmode=prefer (SSL when the server has it) or disable ${WHERE}` }
  }
  if (UNTRUSTED.has(err?.code)) {
    const root = config.sslrootcert ? `sslrootcert ${config.sslrootcert} did not verify it` : 'no sslrootcert was given'
    return {
      message: `cannot connect to PostgreSQL at ${where} ${tried}: the server's certificate is not trusted (${text}; ${root})`,
      hint: 'give the certificate of the CA that signed it with sslrootcert=FILE in --url or PGSSLROOTCERT, or sslmode=require to encrypt without verifying'
    }
  }
  if (err?.code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return {
      message: `cannot connect to PostgreSQL at ${where} ${tried}: the server's certificate is not for host ${config.host} (${text})`,
      hint: 'connect by a name (or address) the certificate holds, or use sslmode=verify-ca to verify the chain only'
    }
  }
  return null
}
