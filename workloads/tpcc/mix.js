// --mix: the transaction mix in percent, validated against clause 5.2.3's minimums.

import { PgloadError } from '../../lib/errors.js'
import { round3 } from '../../lib/format/round.js'
import { DEFAULTS, TYPES } from './defaults.js'

const ALIASES = { no: 'new-order', neworder: 'new-order', p: 'payment', os: 'order-status', orderstatus: 'order-status', d: 'delivery', sl: 'stock-level', stocklevel: 'stock-level' }

/**
 * Parse --mix: five numbers in the order new-order,payment,order-status,delivery,stock-level
 * ("45,43,4,4,4"), or name=percent pairs ("new-order=41,payment=47,...", missing types get 0).
 * They must add up to 100 and respect the minimums unless allowNonstandard.
 * @param {string|undefined} text
 * @param {{ allowNonstandard?: boolean }} [opts]
 * @returns {{ mix: Record<string, number>, standard: boolean }} standard: the default 45/43/4/4/4
 */
export function parseMix (text, { allowNonstandard = false } = {}) {
  if (text === undefined || text === null || text === '') return { mix: { ...DEFAULTS.mix }, standard: true }
  const parts = String(text).split(',').map(s => s.trim())
  const mix = Object.fromEntries(TYPES.map(t => [t, 0]))
  if (parts.every(p => !p.includes('='))) {
    if (parts.length !== TYPES.length) {
      throw new PgloadError(`--mix needs ${TYPES.length} percentages (${TYPES.join(',')}), got ${JSON.stringify(text)}`, { code: 'BAD_OPTION' })
    }
    parts.forEach((p, i) => { mix[TYPES[i]] = number(p, text) })
  } else {
    for (const p of parts) {
      const [k, v] = p.split('=')
      const key = ALIASES[k?.trim().toLowerCase()] ?? k?.trim().toLowerCase()
      if (!TYPES.includes(key)) throw new PgloadError(`--mix: unknown transaction type ${JSON.stringify(k)} (valid: ${TYPES.join(', ')})`, { code: 'BAD_OPTION' })
      mix[key] = number(v, text)
    }
  }
  const total = TYPES.reduce((s, t) => s + mix[t], 0)
  if (Math.abs(total - 100) > 1e-9) {
    throw new PgloadError(`--mix must add up to 100, got ${round3(total)} (${JSON.stringify(text)})`, { code: 'BAD_OPTION' })
  }
  const standard = TYPES.every(t => mix[t] === DEFAULTS.mix[t])
  if (!allowNonstandard) {
    const below = Object.entries(DEFAULTS.minimumMix).filter(([t, min]) => mix[t] < min)
    if (below.length > 0) {
      throw new PgloadError(`--mix breaks the TPC-C minimums (clause 5.2.3): ${below.map(([t, min]) => `${t} ${mix[t]} % < ${min} %`).join(', ')}`, {
        code: 'BAD_OPTION', hint: 'add --allow-nonstandard-mix to run it anyway (the result is then not a TPC-C mix)'
      })
    }
  }
  return { mix, standard }
}

function number (s, text) {
  const v = Number(s)
  if (s === undefined || s.trim() === '' || !Number.isFinite(v) || v < 0) {
    throw new PgloadError(`--mix: ${JSON.stringify(s ?? '')} is not a percentage >= 0 (in ${JSON.stringify(text)})`, { code: 'BAD_OPTION' })
  }
  return v
}
