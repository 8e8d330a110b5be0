import t from 'tap'
import { evaluate } from './arithmetic.ts'

t.test('evaluates precedence, power and parentheses', async t => {
  t.equal(evaluate('2 + 3 * 4'), 14)
  t.equal(evaluate('(2 + 3) * 4'), 20)
  t.equal(evaluate('2 ^ 3 ^ 2'), 512, 'power is right-associative')
  t.equal(evaluate('2 ** 10'), 1024)
  t.equal(evaluate('-2 ^ 2'), -4, 'unary minus binds looser than power')
  t.equal(evaluate('10 % 4'), 2)
  t.equal(evaluate('1.5e3 / 3'), 500)
})

t.test('functions and constants', async t => {
  t.equal(evaluate('sqrt(16) + abs(-2)'), 6)
  t.equal(evaluate('max(1, 7, 3)'), 7)
  t.equal(evaluate('round(pi, 2)'), 3.14)
  t.equal(evaluate('log(1000)'), 3)
  t.equal(evaluate('log(8, 2)'), 3)
})

t.test('rejects what is not arithmetic, saying why', async t => {
  t.throws(() => evaluate('process.exit(1)'), { name: 'ArithmeticError' })
  t.throws(() => evaluate('__proto__'), /unknown name/)
  t.throws(() => evaluate('constructor'), /unknown name "constructor"/)
  t.throws(() => evaluate('1 / 0'), /division by zero/)
  t.throws(() => evaluate('2 +'), /ends too early/)
  t.throws(() => evaluate('(1 + 2'), /expected "\)"/)
  t.throws(() => evaluate('1 2'), /unexpected/)
  t.throws(() => evaluate(''), /empty/)
  t.throws(() => evaluate('sqrt(1, 2)'), /takes 1 argument/)
  t.throws(() => evaluate('('.repeat(100) + '1' + ')'.repeat(100)), /nested too deeply/)
  t.throws(() => evaluate('1+'.repeat(600) + '1'), /longer than/)
  t.throws(() => evaluate('10 ^ 400'), /finite/)
})
