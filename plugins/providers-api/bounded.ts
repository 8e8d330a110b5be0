// Runs a provider call with a time limit: the signal is aborted and the promise rejects
// when the limit passes, so a hung upstream cannot hold an endpoint open.
export async function bounded<T> (ms: number, what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => { ac.abort(); reject(new Error(`${what} did not answer within ${ms / 1000} s`)) }, ms)
  })
  try {
    return await Promise.race([fn(ac.signal), limit])
  } finally {
    clearTimeout(timer)
  }
}
