import t from 'tap'
import { claimHash } from './claim-hash.ts'

t.test('claim hashes ignore case, spacing and final punctuation', async t => {
  t.equal(claimHash('The sky is blue.'), claimHash('  the SKY is   blue '))
  t.not(claimHash('The sky is blue'), claimHash('The sky is green'))
  t.match(claimHash('x'), /^[0-9a-f]{64}$/)
})
