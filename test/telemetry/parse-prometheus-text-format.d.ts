// The package ships no types: what the tests use of it.
declare module 'parse-prometheus-text-format' {
  interface Sample { labels?: Record<string, string>, value?: string, count?: string, sum?: string, buckets?: Record<string, string> }
  interface MetricFamily { name: string, help: string, type: string, metrics: Sample[] }
  export default function parsePrometheusTextFormat (text: string): MetricFamily[]
}
