// An optional package that is not installed fails with an error naming it and the fix;
// other import failures pass through unchanged.
import t from 'tap'
import { importOptional, TransformersMissingError } from './transformers.ts'

t.test('a package that is not installed: the given error, naming the package', async t => {
  const err = await importOptional('@agentd/no-such-optional-package', cause => new TransformersMissingError(cause)).catch((e: unknown) => e)
  t.type(err, TransformersMissingError)
  t.match((err as Error).message, /@huggingface\/transformers is not installed.*npm install @huggingface\/transformers/)
  t.match(((err as Error).cause as NodeJS.ErrnoException).code, 'ERR_MODULE_NOT_FOUND')
})

t.test('an installed package loads', async t => {
  const mod = await importOptional<{ join: (...p: string[]) => string }>('node:path', () => new Error('unexpected'))
  t.equal(mod.join('a', 'b'), 'a/b')
})

t.test('a module that is present but fails to load is not reported as missing', async t => {
  const broken = `data:text/javascript,${encodeURIComponent("throw new Error('broken inside')")}`
  await t.rejects(importOptional(broken, () => new Error('reported missing')), /broken inside/)
})
