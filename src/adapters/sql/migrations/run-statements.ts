/** Runs a migration's DDL statement by statement: PGlite's extended protocol takes one per query. */
import { type Kysely, sql } from 'kysely'

/** Runs each `;`-terminated statement of `text` in order (no `;` inside a statement). */
export async function runStatements(db: Kysely<unknown>, text: string): Promise<void> {
  for (const statement of text.split(/;\s*(?:\n|$)/)) {
    if (statement.trim() !== '') await sql.raw(statement).execute(db)
  }
}
