/**
 * One suite per service database engine (PGlite always, PostgreSQL when it answers), each with a
 * fresh migrated database opened before its tests and dropped after them; where PostgreSQL is
 * down, a skipped test says why. What the SQL test files used to repeat one by one.
 */
import { afterAll, beforeAll, describe, it } from 'vitest'
import {
  ENGINES,
  type Engine,
  engineAvailable,
  openTestDatabase,
  POSTGRES_SKIP_REASON,
  type TestDatabase,
} from './service-database.ts'

/**
 * Runs `body` once per engine inside `describe(`${title} on ${engine}`)`. `body` gets the suite's
 * database as a view that reads the one opened in `beforeAll`, so its tests can use it directly.
 */
export function describeEachEngine(
  title: string,
  body: (test: TestDatabase, engine: Engine) => void,
): void {
  for (const engine of ENGINES) {
    describe.skipIf(!engineAvailable(engine))(`${title} on ${engine}`, () => {
      let opened: TestDatabase | undefined
      const current = (): TestDatabase => {
        if (!opened)
          throw new Error(
            `The ${engine} test database is opened in beforeAll; use it inside a test.`,
          )
        return opened
      }
      beforeAll(async () => {
        opened = await openTestDatabase(engine)
      })
      afterAll(async () => {
        await opened?.dispose()
      })
      body(
        {
          get database() {
            return current().database
          },
          get stores() {
            return current().stores
          },
          get location() {
            return current().location
          },
          dispose: () => current().dispose(),
        },
        engine,
      )
    })
  }
  // Only where PostgreSQL is down: a skipped describe still counts its tests as skipped.
  if (!engineAvailable('postgres')) {
    describe(`${title} on postgres`, () => {
      it.skip(POSTGRES_SKIP_REASON, () => {})
    })
  }
}
