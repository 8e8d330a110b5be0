// Current time in an IANA time zone, formatted for people and machines.

export function isValidTimeZone (tz: string): boolean {
  try { new Intl.DateTimeFormat('en-US', { timeZone: tz }); return true } catch { return false }
}

/** Offset of a zone at an instant, as "+02:00". */
function offsetOf (date: Date, timeZone: string): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(date).find(p => p.type === 'timeZoneName')?.value ?? 'GMT'
  const m = /GMT([+-]\d{2}):?(\d{2})?/.exec(part)
  return m === null ? '+00:00' : `${m[1]}:${m[2] ?? '00'}`
}

export function currentTime (timeZone: string, now = new Date()): { timezone: string, iso: string, local: string, utc: string, weekday: string, utc_offset: string } {
  if (!isValidTimeZone(timeZone)) throw new Error(`unknown time zone "${timeZone}"; use an IANA name such as "Europe/Paris" or "UTC"`)
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-CA', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(now).map(p => [p.type, p.value]))
  const offset = offsetOf(now, timeZone)
  return {
    timezone: timeZone,
    iso: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset === '+00:00' ? 'Z' : offset}`,
    local: new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'full', timeStyle: 'long' }).format(now),
    utc: now.toISOString(),
    weekday: new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long' }).format(now),
    utc_offset: offset,
  }
}
