// Every provider in this repository against the one provider contract suite.
import t from 'tap'
import { providerContract } from './provider-contract.ts'
import { TARGETS } from './targets.ts'

for (const target of TARGETS) t.test(target.name, async t => { providerContract(t, target) })
