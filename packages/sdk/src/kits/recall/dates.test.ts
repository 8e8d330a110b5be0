// Dates as keyword words: a turn's own date and its relative dates resolved against it at
// store time; a query's named time at its own precision.
import t from 'tap'
import { queryDateWords, turnDateWords } from './dates.ts'

const words = async (content: string, timestamp?: string): Promise<string[]> => (await turnDateWords(content, timestamp))?.split(' ') ?? []

t.test('"yesterday" in a turn dated 8 May 2023 is 7 May 2023', async t => {
  const w = await words('I went to a support group yesterday.', '2023-05-08T13:56:00Z')
  t.ok(w.includes('20230507'), w.join(' '))
})

t.test('a turn holds its own day, month and year', async t => {
  t.same(await words('The race was great fun.', '2023-05-08T13:56:00Z'), ['20230508', '202305', '2023'])
})

t.test('a date stamp opening the text is the turn\'s date, not the time it was stored', async t => {
  const w = await words('[1:56 pm on 8 May, 2023] Caroline: I went to a support group yesterday.', '2026-11-28T10:00:00Z')
  t.same(w, ['20230508', '202305', '2023', '20230507'])
})

t.test('"last week" is each day of the week before', async t => {
  const w = await words('Last week I ran a charity race.', '2023-05-08T13:56:00Z')
  t.same(w.filter(x => x.length === 8 && x !== '20230508'), ['20230501', '20230502', '20230503', '20230504', '20230505', '20230506', '20230507'])
})

t.test('"last year" is the year before, with no day or month', async t => {
  t.same(await words('I painted that lake sunrise last year.', '2023-05-08T13:56:00Z'), ['20230508', '202305', '2023', '2022'])
})

t.test('a duration or a habit names no date', async t => {
  t.same(await words('I have had them for 3 years and we hike every Friday.', '2023-05-08T13:56:00Z'), ['20230508', '202305', '2023'])
})

t.test('a query naming a month searches for the month, one naming a day for the day', async t => {
  t.same(await queryDateWords('What setback did Melanie face in October 2023?'), ['202310'])
  t.same(await queryDateWords('what happened on 7 May 2023'), ['20230507'])
})

t.test('a relative time in a query is resolved against now', async t => {
  t.same(await queryDateWords('what did I do yesterday?', new Date('2023-05-08T12:00:00Z')), ['20230507'])
})

t.test('a query naming no time searches for no date', async t => {
  t.same(await queryDateWords('When did Caroline go to the support group?'), [])
  t.same(await queryDateWords('I may go there'), [])
})
