// PostgreSQL text cannot hold U+0000: a parameter carrying one fails the whole statement
// ("invalid byte sequence"). Every bound string is cleaned here, once, for every query:
// NUL becomes U+FFFD, so text with one is stored (visibly marked) and a search or an id
// with one simply finds nothing instead of failing.
import { OperationNodeTransformer, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow, type ValueNode, type PrimitiveValueListNode } from 'kysely'

const clean = (v: unknown): unknown => {
  if (typeof v === 'string') return v.includes('\u0000') ? v.replaceAll('\u0000', '\uFFFD') : v
  if (Array.isArray(v)) return v.map(clean)
  return v
}

class NulTransformer extends OperationNodeTransformer {
  protected override transformValue (node: ValueNode): ValueNode {
    return { ...super.transformValue(node), value: clean(node.value) }
  }

  protected override transformPrimitiveValueList (node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...super.transformPrimitiveValueList(node), values: node.values.map(clean) }
  }
}

export class NulSafePlugin implements KyselyPlugin {
  readonly #t = new NulTransformer()
  transformQuery (args: PluginTransformQueryArgs): RootOperationNode { return this.#t.transformNode(args.node) }
  async transformResult (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> { return args.result }
}
