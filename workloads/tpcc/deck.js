// Choosing the next transaction type: TPC-C's shuffled 23-card deck per terminal (clause
// 5.2.4.2: 10 New-Order, 10 Payment, 1 each of the others), or a weighted draw for --mix.

import { DEFAULTS, TYPES } from './defaults.js'

/** The standard deck: type indices (into TYPES), 23 cards. */
export const STANDARD_DECK = Object.freeze(TYPES.flatMap((t, i) => Array(DEFAULTS.deck[t]).fill(i)))

/**
 * A terminal's deck, reshuffled (Fisher-Yates with the terminal's random) each time it runs out.
 */
export class Deck {
  /** @param {ReadonlyArray<number>} [cards] */
  constructor (cards = STANDARD_DECK) {
    this.cards = Int8Array.from(cards)
    this.pos = this.cards.length
  }

  /**
   * Shuffle and start at a random card of the deck, as a terminal in steady state would be:
   * terminals that all start on a fresh deck finish their first decks together, and the
   * New-Order rate then swings by a few percent around the deck's length (476 s), simulated.
   * @param {{ int(lo: number, hi: number): number }} random
   * @returns {this}
   */
  startAtRandomCard (random) {
    this.pos = this.cards.length
    this.draw(random) // shuffles
    this.pos = random.int(0, this.cards.length - 1)
    return this
  }

  /**
   * The next card.
   * @param {{ int(lo: number, hi: number): number }} random
   * @returns {number} index into TYPES
   */
  draw (random) {
    if (this.pos >= this.cards.length) {
      const c = this.cards
      for (let i = c.length - 1; i > 0; i--) {
        const j = random.int(0, i)
        const t = c[i]; c[i] = c[j]; c[j] = t
      }
      this.pos = 0
    }
    return this.cards[this.pos++]
  }
}

/**
 * A weighted draw over cumulative weights (for a non-standard --mix).
 * @param {{ double(): number }} random
 * @param {Float64Array} cumulative cumulative weights, the last one being the total
 * @returns {number} index into TYPES
 */
export function weightedDraw (random, cumulative) {
  const x = random.double() * cumulative[cumulative.length - 1]
  for (let i = 0; i < cumulative.length - 1; i++) if (x < cumulative[i]) return i
  return cumulative.length - 1
}
