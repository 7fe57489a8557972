/** Service test fixtures: dependencies on a test database, and statements with known themes. */
import { createExtractiveLanguageModel } from '../../src/engine/adapters/llm/extractive-language-model.ts'
import { lazyWordVectors } from '../../src/engine/adapters/node/word-vectors-file.ts'
import { fixedClock } from '../../src/engine/ports/clock.ts'
import { sequentialIds } from '../../src/engine/ports/id-generator.ts'
import type { ServiceDependencies } from '../../src/service/app/service-dependencies.ts'
import { resolveServiceConfig } from '../../src/service/core/service-config.ts'
import type { ServiceStores } from '../../src/service/ports/service-stores.ts'

/** The "now" of the service tests. */
export const NOW = new Date('2026-07-01T12:00:00.000Z')

/** An ISO instant `days` before NOW. */
export function daysAgo(days: number): string {
  return new Date(NOW.getTime() - days * 86_400_000).toISOString()
}

/** The shipped word vectors, read once for all the tests of a file (as the service reads them). */
const wordVectors = lazyWordVectors()

/**
 * Dependencies over `stores` with the extractive model as the service composes it (grouping with
 * the word vectors), a fixed clock and sequential ids.
 */
export function serviceDependencies(
  stores: ServiceStores,
  config: unknown = {},
  prefix = 'x',
): ServiceDependencies {
  const ids = sequentialIds()
  return {
    stores,
    model: createExtractiveLanguageModel({ wordVectors }),
    clock: fixedClock(NOW),
    ids: { next: (kind) => ids.next(`${kind}_${prefix}`) },
    config: resolveServiceConfig(config),
  }
}

/** Twelve ways of saying "becoming patient with slow builds". */
export const PATIENCE = [
  'Becoming more patient with slow builds.',
  'I am learning patience when builds are slow.',
  'More patient when the build is slow.',
  'Patience with slow builds instead of frustration.',
  'Growing patient while waiting for slow builds.',
  'Becoming patient with slow test builds.',
  'Learning to stay patient through slow builds.',
  'Patient with slow builds, not rushing them.',
  'More patience for slow builds and long waits.',
  'Becoming calmer and more patient with slow builds.',
  'I try to be patient when builds run slow.',
  'Patient during slow builds.',
]

/** Twelve ways of saying "tests before code". */
export const TESTS_FIRST = [
  'Writing tests before changing code.',
  'I write the failing test before the code change.',
  'Tests first, then code changes.',
  'Becoming someone who writes tests before code.',
  'Writing a test before every code change.',
  'Test first before changing the code.',
  'Learning to write tests before code.',
  'Always a failing test before changing code.',
  'Writing tests first, code second.',
  'More disciplined: tests before code changes.',
  'Tests before code, every time.',
  'I now write tests before I change code.',
]

/** Statements that belong to no theme. */
export const UNRELATED = [
  'Curious about compilers.',
  'Enjoying pair programming with Ada.',
  'Sleeping better.',
]
