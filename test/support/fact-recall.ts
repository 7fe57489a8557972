/**
 * The check of `../shared/datasets/claude-code-transcripts/fact-recall.py`, in TypeScript: a fact is
 * kept by a memory text when every probe group has one alternative in it (case-insensitive
 * substring). Same rule, so the benchmark and the tests need no Python.
 */
import { readFileSync } from 'node:fs'

/** One fact of `session-facts.json`. */
export interface SessionFact {
  id: string
  session: string
  kind: string
  fact: string
  all: (string | string[])[]
}

/** The facts in `path`, optionally only of `kinds`. */
export function readSessionFacts(path: string, kinds?: readonly string[]): SessionFact[] {
  const facts = (JSON.parse(readFileSync(path, 'utf8')) as { facts: SessionFact[] }).facts
  return kinds ? facts.filter((fact) => kinds.includes(fact.kind)) : facts
}

/** The probe groups of `fact` that `text` misses (none: the fact is kept). */
export function missingGroups(fact: SessionFact, text: string): string[][] {
  const lower = text.toLowerCase()
  return fact.all
    .map((group) => (typeof group === 'string' ? [group] : group))
    .filter((group) => !group.some((alternative) => lower.includes(alternative.toLowerCase())))
}

/** Kept / total of `facts` in `text`, with the ids of the missed ones. */
export function factRecall(facts: readonly SessionFact[], text: string) {
  const missed = facts.filter((fact) => missingGroups(fact, text).length > 0).map((fact) => fact.id)
  return { kept: facts.length - missed.length, total: facts.length, missed }
}
