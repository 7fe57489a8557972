/**
 * The hand-written "becoming" statements identity consolidation is measured on (issue 22 item 6):
 * the labelled set's themes and the paraphrase sets of test/fixtures, one theme said twelve ways
 * beside statements on other things.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from './shared-data.ts'

/** A paraphrase set: twelve ways of saying `theme`, and statements on nothing they say. */
export interface ParaphraseSet {
  theme: string
  paraphrases: string[]
  unrelated: string[]
}

/**
 * The paraphrase sets, in the order they were written: each after the method had been chosen on
 * the labelled set's tune split, the last three before a sentence encoder was tried (bench/README.md).
 */
export const PARAPHRASE_SET_FILES = [
  'becoming-paraphrases-tests-before-shipping.json',
  'becoming-paraphrases-ask-before-deleting.json',
  'becoming-paraphrases-docs-with-code.json',
  'becoming-paraphrases-prefer-simple-solutions.json',
  'becoming-paraphrases-keep-the-user-informed.json',
  'becoming-paraphrases-rest-when-tired.json',
] as const

/** The paraphrase set in test/fixtures/`file`. */
export function paraphraseSet(file: string): ParaphraseSet {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', file), 'utf8'))
}

/** The labelled set's statements of `theme` (test/fixtures/becoming-statements.json). */
export function labelledTheme(theme: string): string[] {
  const labelled = JSON.parse(
    readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'becoming-statements.json'), 'utf8'),
  ) as { themes: { theme: string; statements: string[] }[] }
  const found = labelled.themes.find((candidate) => candidate.theme === theme)
  if (!found) throw new Error(`No theme "${theme}" in becoming-statements.json`)
  return found.statements
}

/** Eight statements on nothing "tests before shipping" says, nor each other. */
export const UNRELATED_STATEMENTS = paraphraseSet(PARAPHRASE_SET_FILES[0]).unrelated
