// Relative dates resolved against the turn's own date: its opening date stamp, else the
// time it was stored with; a turn without one adds nothing.
import t from 'tap'
import { resolvedDates, spanWords } from './turn-dates.ts'

t.test('"yesterday" in a stamped message is the day before the stamp, not before today', async t => {
  t.equal(await resolvedDates('[1:56 pm on 8 May, 2023] Caroline: I went to a support group yesterday.', new Date().toISOString()), '7 May 2023')
})

t.test('without a stamp, the turn\'s stored time is its date', async t => {
  t.equal(await resolvedDates('Last week I ran a charity race.', '2023-05-08T13:56:00Z'), 'May 2023')
  t.equal(await resolvedDates('I painted that lake sunrise last year.', '2023-05-08T13:56:00Z'), '2022')
})

t.test('a turn with no relative date adds nothing', async t => {
  t.equal(await resolvedDates('[8 May 2023] Caroline: I went to a support group.', undefined), undefined)
})

t.test('a span as words: one day, a week across two months, a year', async t => {
  t.equal(spanWords(new Date('2023-05-07T00:00:00Z'), new Date('2023-05-07T23:59:59Z')), '7 May 2023')
  t.equal(spanWords(new Date('2023-04-27T00:00:00Z'), new Date('2023-05-03T23:59:59Z')), 'April May 2023')
  t.equal(spanWords(new Date('2022-01-01T00:00:00Z'), new Date('2022-12-31T23:59:59Z')), '2022')
})
