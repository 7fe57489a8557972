/** DecisionStore on SQL (`decisions`). */
import { type Kysely, type Selectable, sql } from 'kysely'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { Decision } from '../../core/decision.ts'
import type { DecisionStore } from '../../ports/service-stores.ts'
import type { DecisionsTable, ServiceDatabase } from './database-schema.ts'
import {
  decodeCursor,
  isForeignKeyViolation,
  iso,
  isoOrNull,
  isUniqueViolation,
  rowsThatFit,
  sizedPage,
} from './sql-values.ts'

function decisionFromRow(row: Selectable<DecisionsTable>): Decision {
  return {
    decision_id: row.decision_id,
    tenant_id: row.tenant_id,
    kind: row.kind,
    decision: row.decision,
    rationale: row.rationale,
    status: row.status,
    scope: row.scope,
    sources: row.sources,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    superseded_at: isoOrNull(row.superseded_at),
  }
}

/** A DecisionStore over `db` (the database or a transaction). */
export function sqlDecisionStore(db: Kysely<ServiceDatabase>): DecisionStore {
  return {
    async insert(decision) {
      try {
        await db.insertInto('decisions').values(decision).execute()
      } catch (error) {
        if (isUniqueViolation(error) || isForeignKeyViolation(error)) {
          throw new SomnusError(
            'INVALID_INPUT',
            isUniqueViolation(error)
              ? 'A decision with this decision_id already exists: leave decision_id out to get a new one.'
              : 'The tenant of this decision does not exist: create it first.',
            { cause: error },
          )
        }
        throw error
      }
    },

    async get(tenantId, decisionId) {
      const row = await db
        .selectFrom('decisions')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('decision_id', '=', decisionId)
        .executeTakeFirst()
      return row ? decisionFromRow(row) : null
    },

    async list(tenantId, { limit, cursor, status, kind }) {
      let query = db
        .selectFrom('decisions')
        .where('tenant_id', '=', tenantId)
        .orderBy('created_at', 'desc')
        .orderBy('decision_id', 'desc')
        .limit(limit + 1)
      if (status) query = query.where('status', '=', status)
      if (kind) query = query.where('kind', '=', kind)
      if (cursor) {
        const after = decodeCursor(cursor)
        query = query.where(
          sql<boolean>`(created_at, decision_id) < (${after.createdAt}::timestamptz, ${after.id})`,
        )
      }
      // Sized first, read in full only as far as PAGE_BYTES goes.
      const sized = await query
        .select(['decision_id', sql<number>`octet_length(decisions::text)`.as('bytes')])
        .execute()
      const fit = rowsThatFit(
        sized.map((row) => Number(row.bytes)),
        limit,
      )
      const ids = sized.slice(0, fit).map((row) => row.decision_id)
      if (ids.length === 0) return { items: [], next_cursor: null }
      const read = await db
        .selectFrom('decisions')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('decision_id', 'in', ids)
        .orderBy('created_at', 'desc')
        .orderBy('decision_id', 'desc')
        .execute()
      return sizedPage(read.map(decisionFromRow), sized.length > fit, (item) => ({
        createdAt: item.created_at,
        id: item.decision_id,
      }))
    },

    async activePrinciples(tenantId) {
      const rows = await db
        .selectFrom('decisions')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', 'principle')
        .where('status', '=', 'active')
        .orderBy('created_at')
        .orderBy('decision_id')
        .execute()
      return rows.map(decisionFromRow)
    },

    async addSources(tenantId, decisionId, sources, at) {
      // Union in order: the principle's own sources first, then the new ones it lacked.
      await sql`
        UPDATE decisions SET
          sources = sources || ARRAY(
            SELECT s FROM unnest(${[...sources]}::text[]) WITH ORDINALITY AS t(s, n)
            WHERE NOT (s = ANY(decisions.sources)) GROUP BY s ORDER BY min(n)),
          updated_at = ${at}::timestamptz
        WHERE tenant_id = ${tenantId} AND decision_id = ${decisionId}`.execute(db)
    },

    async delete(tenantId, decisionId) {
      const row = await db
        .deleteFrom('decisions')
        .where('tenant_id', '=', tenantId)
        .where('decision_id', '=', decisionId)
        .returningAll()
        .executeTakeFirst()
      return row ? decisionFromRow(row) : null
    },

    async forgetSource(tenantId, sourceId, quote) {
      // The quote leaves as a whole line (`\n- <quote>` up to the next line or the end).
      const result = await sql`
        UPDATE decisions SET
          sources = array_remove(sources, ${sourceId}),
          rationale = CASE WHEN ${quote}::text IS NULL OR rationale IS NULL THEN rationale
            ELSE left(replace(rationale || chr(10), chr(10) || '- ' || ${quote}::text || chr(10), chr(10)), -1)
            END
        WHERE tenant_id = ${tenantId} AND ${sourceId} = ANY(sources)`.execute(db)
      return Number(result.numAffectedRows ?? 0)
    },

    async archiveOlderThan(tenantId, cutoff, at) {
      const rows = await db
        .updateTable('decisions')
        .set({ status: 'superseded', superseded_at: at, updated_at: at })
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', 'decision')
        .where('status', '=', 'active')
        .where(sql<boolean>`created_at < ${cutoff}::timestamptz`)
        .returningAll()
        .execute()
      return rows.map(decisionFromRow)
    },
  }
}
