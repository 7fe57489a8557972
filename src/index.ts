/**
 * Somnus as a library, the package root `somnus`: each system's entry, which can also be imported
 * alone (`somnus/engine`, `somnus/patterns`, `somnus/service`, `somnus/mind`). `createSomnus(options)`
 * is the way into the brain: it opens one (a project folder, or memory) and returns every use case
 * bound to it, as the CLI and hooks use them.
 */

// The brain: the sleep ledger, hook use cases, the snapshot, consolidation.
export * from './brain/index.ts'
// The engine: transcripts, tokens, models (any chat transport becomes a LanguageModel), errors.
export * from './engine/index.ts'
// Creatures (seed 004): fatigue, voluntary sleep, dreams, observations, deep sleep, wake-up.
export * from './mind/index.ts'
// Pattern learning (seed 002): encode sessions into domain patterns, crystallize them into skills.
export * from './patterns/index.ts'
// The consolidation service (seed 003): handoffs, jobs, workers and stats on PGlite or PostgreSQL.
export * from './service/index.ts'
