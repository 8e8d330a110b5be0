// Where the jobs plugin keeps its state in tests: the workspace's PGlite folder (the
// default), or the real PostgreSQL in a schema of its own (with pg-boss's beside it),
// dropped in teardown. Not a test itself: imported by the jobs tests.
import type { Test } from 'tap'
import pg from 'pg'
import { randomBytes } from 'node:crypto'
import { bossSchema } from './boss.ts'
import { repoPlugin, fixturePlugin } from '../../test/helpers/workspace.ts'
import type { Started } from '../../test/helpers/kernel.ts'

export const PG_URI = process.env.TEST_POSTGRES_URI ?? 'postgresql://postgres@127.0.0.1:5432/test'

export interface JobsTarget {
  name: 'pglite' | 'postgres'
  /** SQL options for the jobs plugin (and memory plugins sharing its database). */
  sqlOptions: (t: Test) => Record<string, unknown>
}

export async function dropSchemas (schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URI })
  await c.connect()
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await c.query(`DROP SCHEMA IF EXISTS "${bossSchema(schema)}" CASCADE`)
  } finally { await c.end() }
}

export const uniqueSchema = (): string => `t_${randomBytes(6).toString('hex')}`

export const JOBS_TARGETS: JobsTarget[] = [
  { name: 'pglite', sqlOptions: () => ({}) },
  {
    name: 'postgres',
    sqlOptions: (t) => {
      const schema = uniqueSchema()
      t.teardown(async () => { await dropSchemas(schema) })
      return { backend: 'postgres', postgres_uri: PG_URI, schema }
    },
  },
]

export interface JobSpec { name: string, schedule?: unknown, sleep_ms?: number, fail?: boolean, ignore_signal?: boolean, enabled_by_default?: boolean }

export function plugins (jobs: JobSpec[], sql: Record<string, unknown>, extra: Record<string, unknown> = {}): Array<{ name: string, module: string, options?: Record<string, unknown> }> {
  return [
    { name: 'test-jobs', module: fixturePlugin('test-jobs'), options: { jobs } },
    { name: 'jobs', module: repoPlugin('jobs'), options: { ...sql, poll_seconds: 0.5, ...extra } },
  ]
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any
export const post = async (s: Started, p: string, body?: unknown): Promise<{ status: number, body: Body }> => {
  const res = await fetch(s.url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, body: await res.json() }
}

