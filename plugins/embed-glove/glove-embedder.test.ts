import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { GloveEmbedder, GLOVE_DIMENSIONS, readGloveTable } from './glove-embedder.ts'

const cos = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i], 0)
const table = readGloveTable()
const e = new GloveEmbedder({ read: () => table })

t.test('the shipped table: 30,000 words in frequency order', async t => {
  t.equal(table.index.size, 30_000)
  t.equal(table.index.get('the'), 0)
  t.ok((table.index.get('hospital') ?? 0) > 100)
})

t.test('100-d unit vectors, read on first use', async t => {
  const fresh = new GloveEmbedder({ read: () => table })
  t.equal(fresh.status().status, 'not_loaded')
  const [v] = await fresh.embed(['The cat sat on the mat'])
  t.equal(fresh.status().status, 'ready')
  t.equal(v.length, GLOVE_DIMENSIONS)
  t.ok(Math.abs(Math.hypot(...v) - 1) < 1e-9)
  t.equal(fresh.id, 'glove-6b-100d-sif-v1')
})

t.test('a question meets an answer that shares none of its words', async t => {
  const [q, near, far] = await e.embed(['What pets does she have?', 'We adopted a puppy and two kittens', 'I filed my taxes on Monday'])
  t.ok(cos(q, near) > cos(q, far) + 0.2, `near ${cos(q, near)} far ${cos(q, far)}`)
})

t.test('common words weigh next to nothing, rare ones fully', async t => {
  const [q, rare, common] = await e.embed(['what is the bread recipe', 'baking bread at home', 'what is the plan for it'])
  t.ok(cos(q, rare) > cos(q, common), `rare ${cos(q, rare)} common ${cos(q, common)}`)
})

t.test('hyphenated and elided words not in the table count by their parts', async t => {
  const [a, b] = await e.embed(['dog-friendly', 'dog friendly'])
  t.ok(cos(a, b) > 0.999)
})

t.test('text with no known word gives the zero vector, not NaN', async t => {
  const [v, empty] = await e.embed(['zxqv qwzx', ''])
  t.ok(v.every(x => x === 0))
  t.ok(empty.every(x => x === 0))
})

t.test('a table whose files disagree names the script that writes them', async t => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-glove-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  writeFileSync(path.join(dir, 'glove-words.txt'), 'a\nb\n')
  writeFileSync(path.join(dir, 'glove-vectors.bin'), Buffer.alloc(10))
  t.throws(() => readGloveTable(pathToFileURL(dir + '/')), /scripts\/glove-table\.ts/)
})
