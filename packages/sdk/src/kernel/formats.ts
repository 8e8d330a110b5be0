// String formats TypeBox checks (uuid, uri, date-time...), registered once per process.
import { registerAjvFormats } from '@agentd/sdk/typebox/formats'

let done = false
export function registerFormats (): void {
  if (done) return
  done = true
  registerAjvFormats()
}
