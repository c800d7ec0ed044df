// yargs reads `-T -5s` as the flags -5 and -s and says "Unknown argument: 5"; it takes a bare
// negative number (`-c -1`) as a value but not one with a unit. A token that starts with a minus
// sign and a digit, right after an option, is that option's value: joined as `--option=value`, it
// reaches the option's own check, which refuses it naming the flag.

// what yargs-parser already takes as a value: a negative number without a unit
const BARE_NEGATIVE = /^-(\d+(\.\d+)?|\.\d+)$/
const NEGATIVE_WITH_UNIT = /^-\.?\d/
const OPTION = /^--?[A-Za-z][\w-]*$/

/**
 * @param {string[]} args the command line after the script's name
 * @returns {string[]} the same, with each option followed by a negative value with a unit joined to it
 */
export function joinNegativeValues (args) {
  const out = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === '--') return out.concat(args.slice(i)) // what follows is not options
    const next = args[i + 1]
    if (OPTION.test(arg) && next !== undefined && NEGATIVE_WITH_UNIT.test(next) && !BARE_NEGATIVE.test(next)) {
      out.push(`${arg}=${next}`)
      i++
    } else {
      out.push(arg)
    }
  }
  return out
}
