// The fixed rows of CH-benCHmark's region and nation tables. A nation's key is the character
// code of the first letter of a TPC-C state (c_state's 62 possible characters: 0-9, A-Z, a-z),
// which is how the benchmark's queries join customers to nations.

/** The five regions: [r_regionkey, r_name]. */
export const REGIONS = Object.freeze([[1, 'Africa'], [2, 'America'], [3, 'Asia'], [4, 'Australia'], [5, 'Europe']])

// [name, region key], in the order of the 62 state characters '0'..'9', 'A'..'Z', 'a'..'z'.
const NATION_ROWS = [
  ['Australia', 4], ['Belgium', 5], ['Cameroon', 1], ['Denmark', 5], ['Ecuador', 2],
  ['France', 5], ['Germany', 5], ['Hungary', 5], ['Italy', 5], ['Japan', 3],
  ['Kenya', 1], ['Lithuania', 5], ['Mexico', 2], ['Netherlands', 5], ['Oman', 1],
  ['Portugal', 5], ['Qatar', 1], ['Rwanda', 1], ['Serbia', 5], ['Togo', 1],
  ['United States', 2], ['Vietnam', 3], ['Singapore', 3], ['Cambodia', 3], ['Yemen', 1],
  ['Zimbabwe', 1], ['Argentina', 2], ['Bolivia', 2], ['Canada', 2], ['Dominican Republic', 2],
  ['Egypt', 1], ['Finland', 5], ['Ghana', 1], ['Haiti', 2], ['India', 3],
  ['Jamaica', 4], ['Kazakhstan', 3], ['Luxembourg', 5], ['Morocco', 1], ['Norway', 5],
  ['Poland', 5], ['Peru', 2], ['Nicaragua', 2], ['Romania', 5], ['South Africa', 1],
  ['Thailand', 3], ['United Kingdom', 5], ['Venezuela', 2], ['Liechtenstein', 5], ['Austria', 5],
  ['Laos', 3], ['Zambia', 1], ['Switzerland', 5], ['China', 3], ['Papua New Guinea', 4],
  ['East Timor', 4], ['Bulgaria', 5], ['Brazil', 2], ['Albania', 5], ['Andorra', 5],
  ['Belize', 2], ['Botswana', 1]
]

/** The 62 nation keys: the character codes of 0-9, A-Z and a-z. */
export const NATION_KEYS = Object.freeze([
  ...range(48, 57), ...range(65, 90), ...range(97, 122)
])

/** The nations: [n_nationkey, n_name, n_regionkey]. */
export const NATIONS = Object.freeze(NATION_ROWS.map(([name, region], i) => [NATION_KEYS[i], name, region]))

function range (lo, hi) {
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i)
}
