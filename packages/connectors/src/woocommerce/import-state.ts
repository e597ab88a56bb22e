/** What the writers of one connection learn during an import and share. */
export class ImportState {
  /**
   * Whether a record the id map does not know is looked for at the destination before it is
   * created. True until prepareImport learns that the run starts afresh (ImportOptions.resumed
   * false, and no interrupted import of this migration recorded on the store): then new means new,
   * and only what the store refuses (a SKU it already has, an e-mail in use) is looked up.
   */
  lookFirst = true;
  /**
   * Records whose create this connection sent without learning whether the store made it: a
   * batch's lost answer, or a whole write that failed (a store that went down mid-batch). Found
   * at the destination afterwards, they count as created by this run, not as skipped.
   */
  readonly unanswered = {
    brands: new Set<string>(),
    products: new Set<string>(),
    coupons: new Set<string>(),
    customers: new Set<string>(),
    orders: new Set<string>(),
    reviews: new Set<string>(),
  };
  /**
   * The highest product and account ids the store had when this import began; undefined before
   * prepareImport. The store numbers records in the order it makes them, so anything with a
   * higher id was made after.
   */
  readonly lastIdBefore: { products?: number; customers?: number } = {};

  /**
   * Whether the store made a record after this import began: a record without our markers whose
   * create this connection sent unanswered is then the one it sent, left half-written by a store
   * that went down while saving it, not the merchant's own (which the store made before). Dates
   * are no help: a create sets the source's creation date, and a new post's modification date
   * with it.
   */
  madeDuringImport(kind: 'products' | 'customers', id: number): boolean {
    const last = this.lastIdBefore[kind];
    return last !== undefined && id > last;
  }

  /** Destination variation ids from the variations batches' answers, by product and variant. */
  private readonly variations = new Map<string, number>();

  rememberVariation(productId: number, variantSourceId: string, variationId: number): void {
    this.variations.set(`${productId}:${variantSourceId}`, variationId);
  }

  variation(productId: number, variantSourceId: string): number | undefined {
    return this.variations.get(`${productId}:${variantSourceId}`);
  }
}
