// Reading a number from the environment the way every agentd setting is read: unset or
// empty means the default; anything but a non-negative integer is refused with the
// variable's name, at start (or at the reload that read it), not at first use.
import type { Env } from './plugin.ts'

export function envInt (env: Env, name: string, dflt: number): number {
  const v = env[name]
  if (v === undefined || v === '') return dflt
  const n = Number(v)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${v}".`)
  return n
}
