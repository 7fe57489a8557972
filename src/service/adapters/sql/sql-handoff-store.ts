/** HandoffStore on SQL (`session_handoffs`). */
import { type Kysely, type NotNull, type Selectable, sql } from 'kysely'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { Handoff, HandoffTurn } from '../../core/handoff.ts'
import type { CompressionUpdate, HandoffStore, SearchLevel } from '../../ports/service-stores.ts'
import type { ServiceDatabase, SessionHandoffsTable } from './database-schema.ts'
import {
  decodeCursor,
  isForeignKeyViolation,
  iso,
  isoOrNull,
  isUniqueViolation,
  json,
  num,
  PAGE_BYTES,
  rowsThatFit,
  sizedPage,
} from './sql-values.ts'

/** Rows per INSERT: 26 columns each keeps a statement far below PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 500

/**
 * The columns a handoff is read from: every one but `search_vector` (migration 006), which only
 * the database reads, so a list or get never carries it over the wire.
 */
const HANDOFF_COLUMNS = [
  'handoff_id',
  'tenant_id',
  'session_id',
  'with_whom',
  'experienced',
  'noticed',
  'learned',
  'story',
  'becoming',
  'remember',
  'significance',
  'tags',
  'created_at',
  'sources',
  'turns',
  'compression_level',
  'summary',
  'summary_sources',
  'quick_ref',
  'quick_ref_sources',
  'integrated_into',
  'consolidated_at',
  'parent_handoff_id',
  'full_tokens',
  'summary_tokens',
  'quick_ref_tokens',
] as const satisfies readonly (keyof SessionHandoffsTable)[]

/**
 * A row's search vector (migration 006's expression): the original fields and turns weighted D,
 * the summary B, the quick reference A. Computed in the background (`indexPending`), or on the
 * fly for a row not yet indexed.
 */
const SEARCH_VECTOR = sql.raw(`(
  setweight(to_tsvector('english'::regconfig,
    coalesce(experienced, '') || ' ' || coalesce(noticed, '') || ' ' || coalesce(learned, '')
    || ' ' || coalesce(story, '') || ' ' || coalesce(becoming, '') || ' ' || coalesce(remember, '')), 'D')
  || setweight(jsonb_to_tsvector('english'::regconfig, coalesce(turns, '[]'::jsonb), '["string"]'), 'D')
  || setweight(to_tsvector('english'::regconfig, coalesce(summary, '')), 'B')
  || setweight(to_tsvector('english'::regconfig, coalesce(quick_ref, '')), 'A'))`)

/**
 * About how much text one indexing statement reads: a few hundred ordinary handoffs, or one big
 * one. Sizes come from the stored lengths (`octet_length` of a text, `pg_column_size` of the
 * turns), which PostgreSQL knows without reading the values.
 */
const INDEX_STATEMENT_BYTES = 512 * 1024
const PENDING_TEXT_BYTES = sql.raw(`(coalesce(octet_length(experienced), 0)
  + coalesce(octet_length(noticed), 0) + coalesce(octet_length(learned), 0)
  + coalesce(octet_length(story), 0) + coalesce(octet_length(becoming), 0)
  + coalesce(octet_length(remember), 0) + coalesce(pg_column_size(turns), 0)
  + coalesce(octet_length(summary), 0) + coalesce(octet_length(quick_ref), 0))`)

/** The weight migration 006 gives each level's words in `search_vector`. */
const LEVEL_WEIGHTS: Record<SearchLevel, string> = { full: 'D', summary: 'B', quick_ref: 'A' }

/** A handoff's row as the store reads it: every column in HANDOFF_COLUMNS. */
type HandoffRow = Pick<Selectable<SessionHandoffsTable>, (typeof HANDOFF_COLUMNS)[number]>

/** The handoff a row holds. */
export function handoffFromRow(row: HandoffRow): Handoff {
  return {
    handoff_id: row.handoff_id,
    tenant_id: row.tenant_id,
    session_id: row.session_id,
    with_whom: row.with_whom,
    experienced: row.experienced,
    noticed: row.noticed,
    learned: row.learned,
    story: row.story,
    becoming: row.becoming,
    remember: row.remember,
    significance: num(row.significance),
    tags: row.tags,
    created_at: iso(row.created_at),
    sources: row.sources,
    turns: row.turns === null ? null : json<HandoffTurn[]>(row.turns),
    compression_level: row.compression_level,
    summary: row.summary,
    summary_sources: row.summary_sources,
    quick_ref: row.quick_ref,
    quick_ref_sources: row.quick_ref_sources,
    integrated_into: row.integrated_into,
    consolidated_at: isoOrNull(row.consolidated_at),
    parent_handoff_id: row.parent_handoff_id,
    full_tokens: row.full_tokens,
    summary_tokens: row.summary_tokens,
    quick_ref_tokens: row.quick_ref_tokens,
  }
}

/** A HandoffStore over `db` (the database or a transaction). */
export function sqlHandoffStore(
  db: Kysely<ServiceDatabase>,
  { pageBytes = PAGE_BYTES }: { pageBytes?: number } = {},
): HandoffStore {
  // A row is sized by the columns a list returns: `search_vector` (often larger than the text it
  // indexes) never leaves the database, so counting it would cut pages short.
  const returnedBytes = sql<number>`octet_length(row(${sql.join(
    HANDOFF_COLUMNS.map((column) => sql.ref(column)),
  )})::text)`
  return {
    async insert(handoffs) {
      try {
        for (let start = 0; start < handoffs.length; start += INSERT_CHUNK) {
          await db
            .insertInto('session_handoffs')
            .values(handoffs.slice(start, start + INSERT_CHUNK).map(rowOf))
            .execute()
        }
      } catch (error) {
        throw refusal(error)
      }
    },

    async insertNew(handoffs) {
      const inserted: string[] = []
      try {
        for (let start = 0; start < handoffs.length; start += INSERT_CHUNK) {
          const rows = await db
            .insertInto('session_handoffs')
            .values(handoffs.slice(start, start + INSERT_CHUNK).map(rowOf))
            .onConflict((conflict) => conflict.columns(['tenant_id', 'handoff_id']).doNothing())
            .returning('handoff_id')
            .execute()
          for (const row of rows) inserted.push(row.handoff_id)
        }
      } catch (error) {
        throw refusal(error)
      }
      return inserted
    },

    async get(tenantId, handoffId) {
      const row = await db
        .selectFrom('session_handoffs')
        .select(HANDOFF_COLUMNS)
        .where('tenant_id', '=', tenantId)
        .where('handoff_id', '=', handoffId)
        .executeTakeFirst()
      return row ? handoffFromRow(row) : null
    },

    async list(tenantId, { limit, cursor, level }) {
      let query = db
        .selectFrom('session_handoffs')
        .where('tenant_id', '=', tenantId)
        .orderBy('created_at', 'desc')
        .orderBy('handoff_id', 'desc')
        .limit(limit + 1)
      if (level) query = query.where('compression_level', '=', level)
      if (cursor) {
        const after = decodeCursor(cursor)
        query = query.where(
          sql<boolean>`(created_at, handoff_id) < (${after.createdAt}::timestamptz, ${after.id})`,
        )
      }
      // Sized first (by the columns returned), read in full only as far as the page bytes go.
      const sized = await query.select(['handoff_id', returnedBytes.as('bytes')]).execute()
      const fit = rowsThatFit(
        sized.map((row) => Number(row.bytes)),
        limit,
        pageBytes,
      )
      const ids = sized.slice(0, fit).map((row) => row.handoff_id)
      if (ids.length === 0) return { items: [], next_cursor: null }
      const read = await db
        .selectFrom('session_handoffs')
        .select(HANDOFF_COLUMNS)
        .where('tenant_id', '=', tenantId)
        .where('handoff_id', 'in', ids)
        .orderBy('created_at', 'desc')
        .orderBy('handoff_id', 'desc')
        .execute()
      return sizedPage(read.map(handoffFromRow), sized.length > fit, (item) => ({
        createdAt: item.created_at,
        id: item.handoff_id,
      }))
    },

    async search(tenantId, { text, level, limit }) {
      // The query's words as the database stems them, OR-ed (any shared word makes a candidate;
      // the caller ranks), each quoted so that no character is ever tsquery syntax.
      const weight = level === undefined ? '' : `:${LEVEL_WEIGHTS[level]}`
      const columns = sql.join(HANDOFF_COLUMNS.map((column) => sql.ref(column)))
      const result = await sql<HandoffRow>`
        WITH query AS (
          SELECT string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''' || ${weight}, ' | ')::tsquery AS terms
          FROM unnest(tsvector_to_array(to_tsvector('english'::regconfig, ${text}))) AS lexeme)
        SELECT ${columns} FROM session_handoffs, query
        WHERE tenant_id = ${tenantId} AND (search_vector @@ query.terms
          OR (search_vector IS NULL AND ${SEARCH_VECTOR} @@ query.terms))
        ORDER BY ts_rank('{1, 1, 1, 1}', coalesce(search_vector, ${SEARCH_VECTOR}), query.terms, 1) DESC,
          created_at DESC, handoff_id
        LIMIT ${limit}`.execute(db)
      return result.rows.map(handoffFromRow)
    },

    async indexPending(limit) {
      // Rows up to INDEX_STATEMENT_BYTES of text (at least one): a statement over megabytes of
      // text runs for seconds, and embedded PGlite answers nothing else meanwhile.
      const result = await sql`
        UPDATE session_handoffs SET search_vector = ${SEARCH_VECTOR}
        WHERE (tenant_id, handoff_id) IN (
          SELECT tenant_id, handoff_id FROM (
            SELECT tenant_id, handoff_id,
              sum(bytes) OVER (ORDER BY tenant_id, handoff_id) - bytes AS before
            FROM (
              SELECT tenant_id, handoff_id, ${PENDING_TEXT_BYTES} AS bytes
              FROM session_handoffs WHERE search_vector IS NULL
              ORDER BY tenant_id, handoff_id
              LIMIT ${limit} FOR UPDATE SKIP LOCKED) AS pending) AS sized
          WHERE before < ${INDEX_STATEMENT_BYTES})`.execute(db)
      return Number(result.numAffectedRows ?? 0)
    },

    async findCompressible(tenantId, { cutoffs, budgets, afterId, limit }) {
      const rows = await db
        .selectFrom('session_handoffs')
        .select(HANDOFF_COLUMNS)
        .where('tenant_id', '=', tenantId)
        .where('handoff_id', '>', afterId ?? '')
        .where(sql<boolean>`created_at < ${cutoffs.summary}::timestamptz`)
        .where(
          sql<boolean>`((summary IS NULL AND full_tokens > ${budgets.summary})
            OR compression_level = 'full'
            OR (created_at < ${cutoffs.quick_ref}::timestamptz
                AND ((quick_ref IS NULL
                      AND coalesce(summary_tokens, full_tokens) > ${budgets.quick_ref})
                     OR compression_level = 'summary'))
            OR (created_at < ${cutoffs.integrated}::timestamptz
                AND integrated_into IS NOT NULL AND compression_level <> 'integrated'))`,
        )
        .orderBy('handoff_id')
        .limit(limit)
        .execute()
      return rows.map(handoffFromRow)
    },

    async applyCompression(tenantId, updates) {
      if (updates.length === 0) return []
      // One statement per batch: the updates travel as one jsonb parameter.
      const payload = JSON.stringify(updates.map(updateRecord))
      const result = await sql<{ handoff_id: string }>`
        UPDATE session_handoffs AS h SET
          compression_level = u.to_level,
          summary = COALESCE(u.summary, h.summary),
          summary_sources = CASE WHEN u.summary IS NULL THEN h.summary_sources ELSE u.summary_sources END,
          summary_tokens = COALESCE(u.summary_tokens, h.summary_tokens),
          quick_ref = COALESCE(u.quick_ref, h.quick_ref),
          quick_ref_sources = CASE WHEN u.quick_ref IS NULL THEN h.quick_ref_sources ELSE u.quick_ref_sources END,
          quick_ref_tokens = COALESCE(u.quick_ref_tokens, h.quick_ref_tokens),
          consolidated_at = u.consolidated_at,
          search_vector = NULL
        FROM jsonb_to_recordset(${payload}::jsonb) AS u(
          handoff_id text, from_level text, to_level text,
          summary text, summary_sources text[], summary_tokens integer,
          quick_ref text, quick_ref_sources text[], quick_ref_tokens integer,
          consolidated_at timestamptz)
        WHERE h.tenant_id = ${tenantId} AND h.handoff_id = u.handoff_id
          AND h.compression_level = u.from_level
          AND (u.summary IS NULL OR h.summary IS NULL)
          AND (u.quick_ref IS NULL OR h.quick_ref IS NULL)
        RETURNING h.handoff_id`.execute(db)
      return result.rows.map((row) => row.handoff_id)
    },

    async findUnintegratedBecoming(tenantId, { limit, afterId }) {
      return db
        .selectFrom('session_handoffs')
        .select(['handoff_id', 'becoming'])
        .where('tenant_id', '=', tenantId)
        .where('handoff_id', '>', afterId ?? '')
        .where('integrated_into', 'is', null)
        .where(sql<boolean>`length(trim(coalesce(becoming, ''))) > 0`)
        .orderBy('handoff_id')
        .limit(limit)
        .$narrowType<{ becoming: NotNull }>()
        .execute()
    },

    async countBecoming(tenantId) {
      const row = await db
        .selectFrom('session_handoffs')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('tenant_id', '=', tenantId)
        .where(sql<boolean>`length(trim(coalesce(becoming, ''))) > 0`)
        .executeTakeFirstOrThrow()
      return Number(row.count)
    },

    async markIntegrated(tenantId, handoffIds, principleId) {
      if (handoffIds.length === 0) return
      await db
        .updateTable('session_handoffs')
        .set({ integrated_into: principleId })
        .where('tenant_id', '=', tenantId)
        .where('handoff_id', 'in', [...handoffIds])
        .execute()
    },

    async delete(tenantId, handoffId) {
      const row = await db
        .deleteFrom('session_handoffs')
        .where('tenant_id', '=', tenantId)
        .where('handoff_id', '=', handoffId)
        .returning(HANDOFF_COLUMNS)
        .executeTakeFirst()
      return row ? handoffFromRow(row) : null
    },

    async clearIntegration(tenantId, principleId) {
      const result = await db
        .updateTable('session_handoffs')
        .set({ integrated_into: null })
        .where('tenant_id', '=', tenantId)
        .where('integrated_into', '=', principleId)
        .executeTakeFirst()
      return Number(result.numUpdatedRows)
    },

    async levelCounts(tenantId) {
      const rows = await db
        .selectFrom('session_handoffs')
        .select([
          'compression_level',
          sql<string>`count(*)`.as('count'),
          sql<string>`sum(CASE compression_level
            WHEN 'full' THEN full_tokens
            WHEN 'summary' THEN coalesce(summary_tokens, full_tokens)
            ELSE coalesce(quick_ref_tokens, summary_tokens, full_tokens) END)`.as('tokens'),
        ])
        .where('tenant_id', '=', tenantId)
        .groupBy('compression_level')
        .orderBy('compression_level')
        .execute()
      return rows.map((row) => ({
        level: row.compression_level,
        count: num(row.count),
        tokens: num(row.tokens),
      }))
    },
  }
}

/** The row of a handoff. */
function rowOf(handoff: Handoff) {
  return { ...handoff, turns: handoff.turns === null ? null : JSON.stringify(handoff.turns) }
}

/**
 * A store refusal as the client's mistake, naming what was wrong and the field (`details.field`)
 * its SQLSTATE points at (23505 the id, 23503 the parent: the tenant is checked before any
 * insert); other errors as they are.
 */
function refusal(error: unknown): unknown {
  if (isUniqueViolation(error)) {
    return new SomnusError(
      'INVALID_INPUT',
      'A handoff with this handoff_id already exists: leave handoff_id out to get a new one, or use another.',
      { cause: error, details: { field: 'handoff_id' } },
    )
  }
  if (isForeignKeyViolation(error)) {
    // PostgreSQL's detail names the key: `Key (tenant_id, parent_handoff_id)=(acme, h9) is not present…`.
    const detail = (error as { detail?: unknown }).detail
    return new SomnusError(
      'INVALID_INPUT',
      `The tenant or parent_handoff_id of this handoff does not exist${typeof detail === 'string' ? ` (${detail})` : ''}: create the tenant first, or name an existing parent handoff of the same tenant.`,
      { cause: error, details: { field: 'parent_handoff_id' } },
    )
  }
  return error
}

function updateRecord(update: CompressionUpdate) {
  return {
    handoff_id: update.handoff_id,
    from_level: update.from,
    to_level: update.to,
    summary: update.summary?.text ?? null,
    summary_sources: update.summary?.sources ?? null,
    summary_tokens: update.summary?.tokens ?? null,
    quick_ref: update.quick_ref?.text ?? null,
    quick_ref_sources: update.quick_ref?.sources ?? null,
    quick_ref_tokens: update.quick_ref?.tokens ?? null,
    consolidated_at: update.consolidated_at,
  }
}
