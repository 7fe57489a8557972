/**
 * Runs a migration's statements one by one: PGlite's extended protocol takes one statement per
 * query, so a migration is written as a list of statements rather than one text cut at `;`.
 */
import { type Kysely, sql } from 'kysely'

/** Runs each statement of `statements` in order. */
export async function runStatements(
  db: Kysely<unknown>,
  statements: readonly string[],
): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db)
}
