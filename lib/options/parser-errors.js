// The option parser's (yargs') complaints as pgload's own one-line errors: an unknown option or
// command with the closest name when one is close, a value outside an option's choices, and a
// switch given a value that is neither true nor false (yargs would take it as false).

import { PgloadError } from '../errors.js'
import { shownValue } from './shown.js'

/**
 * Edit distance (insertions, deletions, substitutions) between two short names.
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
export function editDistance (a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    row = next
  }
  return row[b.length]
}

/**
 * The name closest to `word`, when it is close: the one name it begins, or a typo (at most a
 * third of the word's letters off, at least one), not just any name.
 * @param {string} word
 * @param {Iterable<string>} names
 * @returns {string|undefined}
 */
export function closestName (word, names) {
  if (word.length > 64) return undefined // no option's name is that long
  const list = [...names]
  // a name cut short names what it starts: stat is status, not start
  const extended = list.filter((n) => n.toLowerCase().startsWith(word.toLowerCase()))
  if (word.length >= 2 && extended.length === 1) return extended[0]
  let best
  let bestDistance = Math.max(1, Math.floor(word.length / 3)) + 1
  for (const name of list) {
    const d = editDistance(word.toLowerCase(), name.toLowerCase())
    if (d < bestDistance && d < word.length) [best, bestDistance] = [name, d]
  }
  return best
}

/** `a, b or c`. */
function orList (items) {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
}

const flagOf = (name) => name.length === 1 ? `-${name}` : `--${name}`

/**
 * The parser's message as pgload says it, on one line.
 * @param {string} message yargs' failure message
 * @param {{ args: string[], optionNames: string[], commandNames: string[] }} context the arguments
 *   after the program name; the long and short option names of the command being parsed (not its
 *   hidden ones); the commands
 * @returns {string}
 */
export function parserMessage (message, { args, optionNames, commandNames }) {
  const unknownOptions = /^Unknown arguments?: (.*)$/.exec(message)
  if (unknownOptions) {
    const names = unknownOptions[1].split(', ')
    const camel = new Set(names.filter((n) => n.includes('-')).map((n) => n.replace(/-([a-z])/g, (_, c) => c.toUpperCase())))
    const flags = names.filter((n) => !camel.has(n)).map((typed) => {
      // the parser names --no-such-flag as such-flag
      const name = args.some((a) => a.split('=')[0] === `--no-${typed}`) && !args.some((a) => a.split('=')[0] === `--${typed}`) ? `no-${typed}` : typed
      const near = typed.length > 1 ? closestName(typed, optionNames.filter((o) => o.length > 1)) : undefined
      return near ? `${flagOf(name)} (did you mean ${flagOf(name === typed ? near : `no-${near}`)}?)` : flagOf(name)
    })
    return `unknown option${flags.length === 1 ? '' : 's'} ${flags.join(', ')}`
  }
  const typedCommand = args.find((a) => !a.startsWith('-'))
  const didYouMean = /^Did you mean (.+)\?$/.exec(message)
  if (didYouMean || /^Unknown commands?: /.test(message)) {
    const near = didYouMean?.[1] ?? (typedCommand === undefined ? undefined : closestName(typedCommand, commandNames))
    return `unknown command ${typedCommand}${near ? ` (did you mean ${near}?)` : ''}`
  }
  const invalid = /Argument: (\S+), Given: (.*?), Choices: (.*)$/m.exec(message)
  if (invalid) {
    const [, name, given, choices] = invalid
    const values = choices.split(', ').map(unquote)
    const asFlag = args.some((a) => a === flagOf(name) || a.startsWith(`${flagOf(name)}=`))
    const near = closestName(String(unquote(given)), values)
    const what = asFlag ? flagOf(name) : `${typedCommand} ${name}`
    return `${what} must be ${orList(values)}, got ${shownValue(unquote(given))}${near ? ` (did you mean ${near}?)` : ''}`
  }
  return message
}

/** A value as yargs quotes it ("foo"), unquoted. */
function unquote (text) {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * Refuse `--switch=VALUE` where VALUE is neither true nor false: yargs takes it as false, silently.
 * @param {string[]} args the arguments after the program name
 * @param {string[]} switches the boolean options' names and aliases of the command being parsed
 */
export function checkSwitchValues (args, switches) {
  const known = new Set(switches)
  for (const arg of args) {
    if (arg === '--') return
    const m = /^--(?:no-)?([^=]+)=(.*)$/s.exec(arg)
    if (!m || !known.has(m[1]) || /^(true|false)$/.test(m[2])) continue
    throw new PgloadError(`--${m[1]} is a switch: give it alone, --no-${m[1]}, or =true or =false, got ${shownValue(m[2])}`, { code: 'BAD_OPTION' })
  }
}
