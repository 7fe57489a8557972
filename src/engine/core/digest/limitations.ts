/**
 * A limitation the agent names before it bites: "the generated migration uses `modify`, which
 * SQLite doesn't support", "adding it without a default will fail if rows exist", "AshComputer
 * auto-generates the handler". Followed by an edit that goes around it, that is a gotcha no
 * command had to fail for.
 */
import { oneLine, sentencesOf } from './digest-text.ts'

/** What a tool does not do, or does by itself. */
const LIMITATION =
  /\b(?:(?:will|would) fail\b|(?:doesn't|does not|cannot|can't|won't) (?:support|handle|alter|modify|change)\b|(?:isn't|is not|aren't|are not) supported\b|\bunsupported\b|\bauto-?generates?\b|\bautomatically generates?\b)/i

/** Narration that opens a sentence: the next step, not the reason. */
const NARRATION =
  /^(?:(?:now|next|so|ok(?:ay)?)[,.]?\s+)*(?:let me|let's|i'll|i will|i need to|i should)\b/i

/** The limitation `text` names (its sentence) and the reasoning after it, or null. */
export function limitationIn(text: string): { statement: string; cause: string } | null {
  if (!LIMITATION.test(text)) return null
  const sentences = sentencesOf(oneLine(text.replace(/```[\s\S]*?```/g, ' ')))
  const at = sentences.findIndex((sentence) => LIMITATION.test(sentence))
  if (at === -1) return null
  const statement = (sentences[at] as string).replace(/[:.]+$/, '')
  const cause = sentences
    .slice(at + 1, at + 3)
    .filter((sentence) => !NARRATION.test(sentence))
    .join(' ')
  return { statement, cause }
}
