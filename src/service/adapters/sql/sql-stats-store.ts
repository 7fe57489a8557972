/** StatsStore on SQL (`consolidation_stats`): batches add into their day's row. */
import { type Kysely, sql } from 'kysely'
import type { ConsolidationStat } from '../../core/consolidation-job.ts'
import type { StatsStore } from '../../ports/service-stores.ts'
import type { ServiceDatabase } from './database-schema.ts'
import { num } from './sql-values.ts'

/** A StatsStore over `db` (the database or a transaction). */
export function sqlStatsStore(db: Kysely<ServiceDatabase>): StatsStore {
  return {
    async add(tenantId, statDate, jobType, delta) {
      const saved = delta.before_tokens - delta.after_tokens
      // The id is the row's key, so no id generator is needed and a retry finds the same row.
      await sql`
        INSERT INTO consolidation_stats AS s (stat_id, tenant_id, stat_date, compression_type,
          before_count, before_tokens, after_count, after_tokens, tokens_saved, percentage_saved)
        VALUES (${`${tenantId}:${statDate}:${jobType}`}, ${tenantId}, ${statDate}::date, ${jobType},
          ${delta.before_count}, ${delta.before_tokens}, ${delta.after_count}, ${delta.after_tokens},
          ${saved}, ${percentage(saved, delta.before_tokens)})
        ON CONFLICT (tenant_id, stat_date, compression_type) DO UPDATE SET
          before_count = s.before_count + excluded.before_count,
          before_tokens = s.before_tokens + excluded.before_tokens,
          after_count = s.after_count + excluded.after_count,
          after_tokens = s.after_tokens + excluded.after_tokens,
          tokens_saved = s.tokens_saved + excluded.tokens_saved,
          percentage_saved = CASE WHEN s.before_tokens + excluded.before_tokens > 0
            THEN greatest(-999.99, least(999.99, round(100.0 * (s.tokens_saved + excluded.tokens_saved)
              / (s.before_tokens + excluded.before_tokens), 2)))
            ELSE 0 END`.execute(db)
    },

    async totalTokensSaved() {
      const row = await db
        .selectFrom('consolidation_stats')
        .select(sql<string>`coalesce(sum(tokens_saved), 0)`.as('total'))
        .executeTakeFirst()
      return num(row?.total ?? 0)
    },

    async list(tenantId, { limit }) {
      const rows = await db
        .selectFrom('consolidation_stats')
        .select([
          sql<string>`to_char(stat_date, 'YYYY-MM-DD')`.as('stat_date'),
          'compression_type',
          'before_count',
          'before_tokens',
          'after_count',
          'after_tokens',
          'tokens_saved',
          'percentage_saved',
        ])
        .where('tenant_id', '=', tenantId)
        .orderBy('stat_date', 'desc')
        .orderBy('compression_type')
        .limit(limit)
        .execute()
      return rows.map(
        (row): ConsolidationStat => ({
          stat_date: row.stat_date,
          compression_type: row.compression_type,
          before_count: num(row.before_count),
          before_tokens: num(row.before_tokens),
          after_count: num(row.after_count),
          after_tokens: num(row.after_tokens),
          tokens_saved: num(row.tokens_saved),
          percentage_saved: num(row.percentage_saved),
        }),
      )
    },
  }
}

function percentage(saved: number, before: number): number {
  if (before <= 0) return 0
  return Math.max(-999.99, Math.min(999.99, Math.round((10_000 * saved) / before) / 100))
}
