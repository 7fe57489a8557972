/**
 * The mind's light entry for surfaces (test/architecture.test.ts ENTRIES): pure core values only,
 * so a CLI command reaches them without loading the mind's stores.
 */
export { plainText } from './core/plain-text.ts'
