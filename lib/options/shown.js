// How an option error shows the value it refuses: as typed, on one line, and cut when long, so
// that a 10,000-character --label is named, not echoed whole.

/** Longest value an option error shows whole. */
const MAX_SHOWN_CHARS = 60

/**
 * The value as the user typed it (strings quoted, numbers bare), cut past MAX_SHOWN_CHARS with
 * how long it was.
 * @param {unknown} value
 * @returns {string}
 */
export function shownValue (value) {
  const text = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' || value === undefined ? String(value) : (JSON.stringify(value) ?? String(value))
  if (text.length <= MAX_SHOWN_CHARS) return text
  const length = typeof value === 'string' ? `${value.length.toLocaleString('en-US')} characters` : `${text.length.toLocaleString('en-US')} characters as JSON`
  const quote = typeof value === 'string' ? '"' : ''
  return `${text.slice(0, MAX_SHOWN_CHARS - 3)}...${quote} (${length})`
}

/**
 * A message from the option parser (yargs) on one line, each long word in it cut as shownValue
 * cuts values: it quotes what was typed, however long.
 * @param {string} message
 * @returns {string}
 */
export function cutLongWords (message) {
  return message.replace(/\s*\n\s*/g, ' ').replace(/[^\s,]{61,}/g, (word) => `${word.slice(0, MAX_SHOWN_CHARS - 3)}... (${word.length.toLocaleString('en-US')} characters)`)
}
