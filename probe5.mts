import { isSmallTalk, echoOf } from './plugins/memory/consolidation/junk.ts'
import { cleanTurn } from './plugins/memory/consolidation/consolidate-job.ts'
const user = Array.from({ length: 600 }, (_, i) => `My sister Anna lives in Berlin and works at Google, office ${i}.`).join(' ')
const c = cleanTurn(user, echoOf([]))
let t0 = performance.now(); isSmallTalk(c); console.log('isSmallTalk', c.length, Math.round(performance.now() - t0), 'ms')
