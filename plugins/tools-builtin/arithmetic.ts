// A safe arithmetic evaluator: a recursive-descent parser over numbers, + - * / % ^,
// parentheses, a few functions and constants. No eval, no property access, bounded input.

const FUNCTIONS: Record<string, { arity: [number, number], fn: (...a: number[]) => number }> = {
  sqrt: { arity: [1, 1], fn: Math.sqrt },
  abs: { arity: [1, 1], fn: Math.abs },
  round: { arity: [1, 2], fn: (x, d = 0) => { const f = 10 ** d; return Math.round(x * f) / f } },
  floor: { arity: [1, 1], fn: Math.floor },
  ceil: { arity: [1, 1], fn: Math.ceil },
  ln: { arity: [1, 1], fn: Math.log },
  log: { arity: [1, 2], fn: (x, base = 10) => base === 10 ? Math.log10(x) : base === 2 ? Math.log2(x) : Math.log(x) / Math.log(base) },
  exp: { arity: [1, 1], fn: Math.exp },
  sin: { arity: [1, 1], fn: Math.sin },
  cos: { arity: [1, 1], fn: Math.cos },
  tan: { arity: [1, 1], fn: Math.tan },
  min: { arity: [1, 64], fn: Math.min },
  max: { arity: [1, 64], fn: Math.max },
}
const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI }

export const MAX_EXPRESSION_LENGTH = 1000
const MAX_DEPTH = 64

export class ArithmeticError extends Error {
  override name = 'ArithmeticError'
}

type Token = { kind: 'num', value: number } | { kind: 'id', value: string } | { kind: 'op', value: string }

function tokenize (src: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < src.length) {
    const c = src[i]
    if (/\s/.test(c)) { i++; continue }
    const num = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(src.slice(i))
    if (num !== null) { tokens.push({ kind: 'num', value: Number(num[0].replaceAll('_', '')) }); i += num[0].length; continue }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))
    if (id !== null) { tokens.push({ kind: 'id', value: id[0].toLowerCase() }); i += id[0].length; continue }
    if (src.startsWith('**', i)) { tokens.push({ kind: 'op', value: '^' }); i += 2; continue }
    if ('+-*/%^(),'.includes(c)) { tokens.push({ kind: 'op', value: c }); i++; continue }
    throw new ArithmeticError(`unexpected character "${c}" at position ${i + 1}`)
  }
  return tokens
}

/** Evaluates an arithmetic expression. Throws ArithmeticError with what is wrong and where. */
export function evaluate (expression: string): number {
  if (expression.length > MAX_EXPRESSION_LENGTH) throw new ArithmeticError(`expression is longer than ${MAX_EXPRESSION_LENGTH} characters`)
  const tokens = tokenize(expression)
  let pos = 0
  let depth = 0
  const peek = (): Token | undefined => tokens[pos]
  const isOp = (v: string): boolean => { const t = peek(); return t?.kind === 'op' && t.value === v }
  const expect = (v: string): void => {
    if (!isOp(v)) throw new ArithmeticError(`expected "${v}" ${pos < tokens.length ? `before token ${pos + 1}` : 'at the end'}`)
    pos++
  }
  const enter = (): void => { if (++depth > MAX_DEPTH) throw new ArithmeticError('expression is nested too deeply') }

  // expr := term (('+'|'-') term)*
  const expr = (): number => {
    let v = term()
    while (isOp('+') || isOp('-')) { const op = tokens[pos++].value; const r = term(); v = op === '+' ? v + r : v - r }
    return v
  }
  // term := unary (('*'|'/'|'%') unary)*
  const term = (): number => {
    let v = unary()
    while (isOp('*') || isOp('/') || isOp('%')) {
      const op = tokens[pos++].value
      const r = unary()
      if ((op === '/' || op === '%') && r === 0) throw new ArithmeticError('division by zero')
      v = op === '*' ? v * r : op === '/' ? v / r : v % r
    }
    return v
  }
  // unary := ('-'|'+') unary | power
  const unary = (): number => {
    if (isOp('-')) { pos++; enter(); const v = -unary(); depth--; return v }
    if (isOp('+')) { pos++; enter(); const v = unary(); depth--; return v }
    return power()
  }
  // power := primary ('^' unary)?   (right-associative)
  const power = (): number => {
    const base = primary()
    if (isOp('^')) { pos++; enter(); const v = base ** unary(); depth--; return v }
    return base
  }
  const primary = (): number => {
    const t = peek()
    if (t === undefined) throw new ArithmeticError('expression ends too early')
    if (t.kind === 'num') { pos++; return t.value }
    if (t.kind === 'op' && t.value === '(') { pos++; enter(); const v = expr(); expect(')'); depth--; return v }
    if (t.kind === 'id') {
      pos++
      // Own properties only: `constructor` or `__proto__` must not reach Object.prototype.
      if (Object.hasOwn(CONSTANTS, t.value) && !isOp('(')) return CONSTANTS[t.value]
      const f = Object.hasOwn(FUNCTIONS, t.value) ? FUNCTIONS[t.value] : undefined
      if (f === undefined) throw new ArithmeticError(`unknown name "${t.value}"; functions: ${Object.keys(FUNCTIONS).join(', ')}; constants: ${Object.keys(CONSTANTS).join(', ')}`)
      expect('(')
      enter()
      const args: number[] = []
      if (!isOp(')')) { args.push(expr()); while (isOp(',')) { pos++; args.push(expr()) } }
      expect(')')
      depth--
      if (args.length < f.arity[0] || args.length > f.arity[1]) throw new ArithmeticError(`${t.value}() takes ${f.arity[0] === f.arity[1] ? f.arity[0] : `${f.arity[0]}-${f.arity[1]}`} argument(s), got ${args.length}`)
      return f.fn(...args)
    }
    throw new ArithmeticError(`unexpected "${t.value}" at token ${pos + 1}`)
  }

  if (tokens.length === 0) throw new ArithmeticError('expression is empty')
  const value = expr()
  if (pos < tokens.length) throw new ArithmeticError(`unexpected "${String(tokens[pos].value)}" at token ${pos + 1}`)
  if (!Number.isFinite(value)) throw new ArithmeticError('the result is not a finite number')
  return value
}
