// A count and its noun, in the number that fits: "1 row", "2 rows", "0 rows".

/**
 * @param {number} n
 * @param {string} one the noun for one ("row", "transaction")
 * @param {string} [many] the noun for any other count [default: one + "s"]
 * @returns {string}
 */
export function plural (n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`
}
