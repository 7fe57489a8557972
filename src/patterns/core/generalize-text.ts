/**
 * One statement for the same lesson told by several sessions: where their words differ in a few
 * places only (a branch name, a ticket id), those places become `<…>` and the rest stays as said,
 * so a skill reads `git push --set-upstream origin spotter-<…>` once instead of three times.
 */

/** Most places in which the texts may differ and still be one statement. */
const MAX_DIFFERING_WORDS = 2

/** `texts` as one statement, or null when they differ in more than a couple of words. */
export function generalizedText(texts: readonly string[]): string | null {
  const distinct = [...new Set(texts)]
  if (distinct.length === 0) return null
  if (distinct.length === 1) return distinct[0] as string
  const split = distinct.map((text) => text.split(/(\s+)/))
  const length = split[0]?.length ?? 0
  if (split.some((words) => words.length !== length)) return null
  const merged: string[] = []
  let differing = 0
  for (let index = 0; index < length; index += 1) {
    const words = split.map((each) => each[index] as string)
    const first = words[0] as string
    if (words.every((word) => word === first)) {
      merged.push(first)
      continue
    }
    differing += 1
    if (differing > MAX_DIFFERING_WORDS) return null
    const prefix = commonPrefix(words)
    const suffix = commonSuffix(words.map((word) => word.slice(prefix.length)))
    merged.push(`${prefix}<…>${suffix}`)
  }
  return merged.join('')
}

function commonPrefix(words: readonly string[]): string {
  let prefix = words[0] ?? ''
  for (const word of words) while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1)
  return prefix
}

function commonSuffix(words: readonly string[]): string {
  let suffix = words[0] ?? ''
  for (const word of words) while (!word.endsWith(suffix)) suffix = suffix.slice(1)
  return suffix
}
