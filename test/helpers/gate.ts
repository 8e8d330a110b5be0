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
