/**
 * How much of Claude's closing message the ledger keeps. The ledger is read by every hook, so a
 * 100 MB message made every Stop cost a second; the transcript holds the whole message anyway.
 * Zod-free: the schema and the hook path's one-pass checker both cap with it.
 */

/**
 * 4,000 characters: four times the most any reader shows (the snapshot's 1,000-character
 * "Last session summary"; the changelog takes the first sentence), and above the longest
 * assistant message in the shared data set's real sessions (3,407 characters; 99% of the 278 are
 * under 1,140), so an ordinary message is never cut.
 */
export const MAX_CLOSING_MESSAGE_CHARS = 4_000

/** Ends a cut message, saying where the rest is. */
export const CUT_MARKER = ' […] (cut; the transcript has the whole message)'

/**
 * `message` if it fits; else its start, cut at the last sentence end (or, failing that, the last
 * space) in the second half of the room, with CUT_MARKER; at most MAX_CLOSING_MESSAGE_CHARS long.
 * Capping a capped message changes nothing.
 */
export function capClosingMessage(message: string): string {
  if (message.length <= MAX_CLOSING_MESSAGE_CHARS) return message
  const room = MAX_CLOSING_MESSAGE_CHARS - CUT_MARKER.length
  const head = message.slice(0, room + 1)
  const floor = Math.floor(room / 2)
  let end = -1
  for (const match of head.matchAll(/[.!?](?=\s)|\n/g)) {
    if (match.index + 1 <= room) end = match.index + 1
  }
  if (end < floor) end = head.lastIndexOf(' ', room)
  if (end < floor) end = room
  // Never split a surrogate pair: half an emoji is not text.
  const code = message.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  return `${message.slice(0, end).trimEnd()}${CUT_MARKER}`
}
