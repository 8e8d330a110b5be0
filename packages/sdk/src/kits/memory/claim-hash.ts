// The duplicate key of a fact: stores keep one fact per (channel, claim_hash), so every
// writer (the memory service, consolidation jobs, tests of a graph store) must hash alike.
import { createHash } from 'node:crypto'

/** SHA-256 of the claim with case, spacing and final punctuation normalised. */
export function claimHash (claim: string): string {
  const norm = claim.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim().replace(/[.!?\s]+$/u, '')
  return createHash('sha256').update(norm).digest('hex')
}
