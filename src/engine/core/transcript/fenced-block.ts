/** `body` as a markdown code block indented two spaces (to sit inside a list item), then `note`. */
export function fencedBlock(body: string, note: string): string {
  // A fence longer than any backtick run inside keeps code that itself holds fences intact.
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body) + 1))
  const fenced = [fence, ...body.split('\n'), fence, ...(note ? [note] : [])]
  return fenced.map((line) => `  ${line}`).join('\n')
}

function longestBacktickRun(text: string): number {
  let longest = 0
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length)
  return longest
}
