// The circuit breaker is the memory kit's: every store on a database server shares it.
export { Breaker } from '../memory/breaker.ts'
