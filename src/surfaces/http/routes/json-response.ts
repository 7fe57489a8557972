/** A route's JSON answer, as @hono/zod-openapi's `responses` entries spell it. */
export function jsonResponse<Schema>(schema: Schema, description: string) {
  return { description, content: { 'application/json': { schema } } }
}
