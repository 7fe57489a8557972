/**
 * Total recall's hit: a line of the creature's files, pointing at its file and line
 * (the search itself is the recall engine's: mind/app/recall-mind.ts).
 */

/** One hit. */
export interface RecallHit {
  file: string
  line: number
  score: number
  text: string
  t?: string | undefined
}
