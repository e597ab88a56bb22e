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
    products: new Set<string>(),
    customers: new Set<string>(),
    orders: new Set<string>(),
  };
  /** Destination variation ids from the variations batches' answers, by product and variant. */
  private readonly variations = new Map<string, number>();

  rememberVariation(productId: number, variantSourceId: string, variationId: number): void {
    this.variations.set(`${productId}:${variantSourceId}`, variationId);
  }

  variation(productId: number, variantSourceId: string): number | undefined {
    return this.variations.get(`${productId}:${variantSourceId}`);
  }
}
