/**
 * The Kysely interface and the migrated schema agree: every table and column of SERVICE_COLUMNS
 * (which the compiler holds equal to `ServiceDatabase`) exists with the same nullability in the
 * schema the migrations make, on PGlite and on PostgreSQL, and the schema has nothing more. A
 * planted difference in the database is reported.
 */
import { type Kysely, sql } from 'kysely'
import { expect, it } from 'vitest'
import { describeEachEngine } from '../../../../test/support/describe-each-engine.ts'
import { type Nullability, SERVICE_COLUMNS, type ServiceDatabase } from './database-schema.ts'

/** Table → column → nullability. */
type ColumnMap = Record<string, Record<string, Nullability>>

/** The columns of the tables in the current schema, Kysely's own migration tables left out. */
async function migratedColumns(db: Kysely<ServiceDatabase>): Promise<ColumnMap> {
  const result = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
    SELECT table_name, column_name, is_nullable FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name NOT LIKE 'kysely\\_%'
    ORDER BY table_name, ordinal_position`.execute(db)
  const columns: ColumnMap = {}
  for (const row of result.rows) {
    const table = columns[row.table_name] ?? {}
    table[row.column_name] = row.is_nullable === 'YES' ? 'nullable' : 'not null'
    columns[row.table_name] = table
  }
  return columns
}

/** Every place where `actual` and `expected` differ, one line each, both ways. */
function differences(actual: ColumnMap, expected: ColumnMap): string[] {
  const found: string[] = []
  const tables = new Set([...Object.keys(actual), ...Object.keys(expected)])
  for (const table of [...tables].sort()) {
    const inSchema = actual[table]
    const inInterface = expected[table]
    if (inSchema === undefined) found.push(`${table}: in the interface, not in the schema`)
    else if (inInterface === undefined) found.push(`${table}: in the schema, not in the interface`)
    else {
      const columns = new Set([...Object.keys(inSchema), ...Object.keys(inInterface)])
      for (const column of [...columns].sort()) {
        const schemaSays = inSchema[column]
        const interfaceSays = inInterface[column]
        if (schemaSays === interfaceSays) continue
        found.push(
          `${table}.${column}: schema ${schemaSays ?? 'absent'}, interface ${interfaceSays ?? 'absent'}`,
        )
      }
    }
  }
  return found
}

describeEachEngine('the service schema', (test) => {
  it('has exactly the tables, columns and nullability of the Kysely interface', async () => {
    expect(differences(await migratedColumns(test.database.db), SERVICE_COLUMNS)).toEqual([])
  })

  it('reports a column the interface lacks and a nullability that differs', async () => {
    const { db } = test.database
    await sql`ALTER TABLE tenants ADD COLUMN planted TEXT`.execute(db)
    await sql`ALTER TABLE api_keys ALTER COLUMN label DROP NOT NULL`.execute(db)
    await sql`DROP TABLE consolidation_stats`.execute(db)
    expect(differences(await migratedColumns(db), SERVICE_COLUMNS)).toEqual([
      'api_keys.label: schema nullable, interface not null',
      'consolidation_stats: in the interface, not in the schema',
      'tenants.planted: schema nullable, interface absent',
    ])
  })
})
