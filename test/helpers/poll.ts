// Polls until a condition holds: for state that settles in the background (a list refresh,
// a cancelled upstream request). Returns the last value read, so the caller asserts on it
// and a timeout fails with the real value in the message, not a generic one.
export async function pollUntil<T> (read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 5000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() >= deadline) return value
    await new Promise(resolve => setTimeout(resolve, everyMs))
  }
}
