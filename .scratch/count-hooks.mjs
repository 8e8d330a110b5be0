import { appendFileSync } from 'node:fs'
export async function load (url, context, next) { appendFileSync('/tmp/loaded-urls.txt', url + '\n'); return next(url, context) }
