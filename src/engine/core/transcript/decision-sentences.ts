/**
 * The sentences of an agent's text that state a decision: a choice ("we will use X", "going with X
 * over Y", "instead of", "rather than") or a commitment with its reason ("X must change because
 * Y"). Narration ("Let me check...", "Now I'll run the tests.") says what the agent is about to do,
 * not what it chose, and a next session gains nothing from it.
 */

/** Words that state a choice between options. */
const CHOICE =
  /\b(?:decided|decide to|chose|choose|chosen|opted|opt for|going with|go with|will use|(?:I|we|you)'ll use|settled on|switched to|switch to|instead of|rather than|in favou?r of|prefer|trade-?off)\b/i

/** Words that give a reason. */
const REASON =
  /\b(?:because|so that|to avoid|in order to|which means|(?:does not|doesn't|do not|don't|cannot|can't) support)\b/i

/** A sentence that commits to a step (without "let me", which only announces one). */
const COMMITMENT = /^(?:so,?\s+)?(?:i|we) (?:need to|must|have to|should)\b/i

/** How narration opens: the agent announcing its next step. */
const NARRATION_OPENER =
  /^(?:(?:now|next|first|ok(?:ay)?|good|great|perfect|alright|then)[,.!:]?\s+)*(?:let me|let's|let us|i'll|i will|i'm going to|i am going to|i need to|we'll|we need to)\b/i

/** The sentences of `text` that state a decision, in order; empty when it is only narration. */
export function decisionSentences(text: string): string[] {
  const sentences = sentencesOf(text)
  return sentences.filter(
    (sentence, index) =>
      isDecision(sentence) ||
      // "X does not support Y. I need to rewrite it." : the step the reason leads to is the choice.
      (index > 0 && REASON.test(sentences[index - 1] as string) && COMMITMENT.test(sentence)),
  )
}

function isDecision(sentence: string): boolean {
  if (CHOICE.test(sentence)) return true
  return REASON.test(sentence) && !NARRATION_OPENER.test(sentence)
}

/** Lines, list markers and headings removed, then split after `.`, `!` or `?`. */
function sentencesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/^\s*(?:[-*+]|\d+[.)]|#+)\s+/, '').trim())
    .filter((line) => line !== '')
    .flatMap((line) => line.split(/(?<=[^.][.!?])\s+(?=[A-Z`*"'([])/))
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 20)
}
