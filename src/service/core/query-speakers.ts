/**
 * Who a search question is about. In a conversation "When did Nate win his third tourney?" is
 * answered by what Nate said far more often than by what was said to him; the speaker's name is
 * left out of the turns' indexed text (service/core/handoff-search.ts: it is mostly how one
 * speaker addresses the other), so the question's names are matched against who said each turn.
 */
import { queryTerms, recallTerms } from '../../engine/core/recall/recall-terms.ts'

/**
 * What each unit's score is multiplied by for the speakers the question names: 1 + the IDF of
 * "said by one of them" for their turns (so naming one of two speakers counts as a common word
 * does, and naming every speaker counts for nothing), 1 for the others; null when the question
 * names no speaker of these units.
 */
export function speakerBoosts(
  question: string,
  unitSpeakers: readonly (string | null)[],
): number[] | null {
  const asked = new Set(queryTerms(question))
  const named = new Set<string>()
  for (const speaker of new Set(unitSpeakers)) {
    if (speaker === null || speaker.trim() === '') continue
    const terms = recallTerms(speaker)
    if (terms.length > 0 && terms.every((term) => asked.has(term))) named.add(speaker)
  }
  if (named.size === 0) return null
  const saidByNamed = unitSpeakers.map((speaker) => speaker !== null && named.has(speaker))
  const matching = saidByNamed.filter(Boolean).length
  const total = unitSpeakers.length
  const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5))
  return saidByNamed.map((said) => (said ? 1 + idf : 1))
}
