// A gate a test opens by hand: a fake upstream reply or a tool waits on it, so the test
// looks at the state in between (a status, a journal) for as long as it likes, and the
// order of events is the test's, not the scheduler's.
export interface Gate {
  readonly promise: Promise<void>
  open: () => void
  readonly opened: boolean
}

export function gate (): Gate {
  let open!: () => void
  let opened = false
  const promise = new Promise<void>(resolve => { open = () => { opened = true; resolve() } })
  return { promise, open: () => { open() }, get opened () { return opened } }
}

// Named gates reach code the test cannot hand a promise to, such as a tool called by the
// model with JSON arguments (`{ "gate": "b" }`): the test fixtures' tools wait on them.
const named = (): Map<string, Gate> => ((globalThis as { __testGates?: Map<string, Gate> }).__testGates ??= new Map())

/** A gate that a fixture finds by name; opened in the test's teardown at the latest. */
export function namedGate (name: string, t?: { teardown: (fn: () => void) => void }): Gate {
  const g = gate()
  named().set(name, g)
  t?.teardown(() => { g.open(); named().delete(name) })
  return g
}

/** Waits for the named gate (a missing one is open); an abort ends the wait with its reason. */
export async function passGate (name: string, signal?: AbortSignal): Promise<void> {
  const g = named().get(name)
  if (g === undefined) return
  if (signal === undefined) { await g.promise; return }
  signal.throwIfAborted()
  await new Promise<void>((resolve, reject) => {
    const onAbort = (): void => { reject(signal.reason) }
    signal.addEventListener('abort', onAbort, { once: true })
    void g.promise.then(() => { signal.removeEventListener('abort', onAbort); resolve() })
  })
}
