// Reading a file a plugin keeps its own state in (data/*.json): a missing file is not an
// error, it is "nothing saved yet".
import { readFile } from 'node:fs/promises'

/** The file's text, or undefined when it does not exist; other read errors are thrown. */
export async function readTextIfExists (file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}
