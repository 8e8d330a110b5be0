// The package ships no types: one function, word in, stem out.
declare module 'wink-porter2-stemmer' {
  const stem: (word: string) => string
  export default stem
}
