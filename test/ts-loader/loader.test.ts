// The tests' TypeScript loader (hooks.mjs): TypeScript-only syntax runs, and a stack trace
// names the .ts file and line (tap's failure locations depend on it).
import t from 'tap'

enum Colour { Red = 'red' }
class Box {
  constructor (readonly size: number) {}
}

t.test('enums and parameter properties run as tsc would emit them', async t => {
  t.equal(Colour.Red, 'red')
  t.equal(new Box(3).size, 3)
})

t.test('a stack trace names the TypeScript line', async t => {
  const line = Number(new Error('here').stack?.split('\n')[1].match(/loader\.test\.ts:(\d+):\d+/)?.[1])
  t.equal(line, 16, 'this line, in this file')
})
