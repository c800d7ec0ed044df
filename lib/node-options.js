// Whether the user gave node an option: on its command line (process.execArgv) or in
// NODE_OPTIONS, as `--name` or `--name=value`, with dashes or underscores between the words
// (node and V8 accept both).

/**
 * @param {string} name the option as `--words-with-dashes`
 * @param {{ execArgv?: string[], nodeOptions?: string }} [from] where to look (default: this process)
 * @returns {boolean}
 */
export function nodeOptionGiven (name, { execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '' } = {}) {
  const spellings = [name, '--' + name.slice(2).replaceAll('-', '_')]
  const given = (arg) => spellings.some((s) => arg === s || arg.startsWith(s + '='))
  return execArgv.some(given) || nodeOptions.split(/\s+/).some(given)
}
