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
  /**
   * When this import began by the store's own clock (its Date header, a second early for the
   * header's precision); undefined before prepareImport.
   */
  startedAt: number | undefined;

  /**
   * Whether the store last saved a record (its `date_modified_gmt`) after this import began: a
   * record without our markers whose create this connection sent unanswered is then the one it
   * sent, left half-written by a store that went down while saving it, not the merchant's own
   * (which the store saved before). Its creation date is no help: a write sets the source's.
   */
  savedDuringImport(dateModifiedGmt: string | null | undefined): boolean {
    if (this.startedAt === undefined || !dateModifiedGmt) return false;
    const zoned = /[zZ]$|[+-]\d\d:?\d\d$/.test(dateModifiedGmt);
    const saved = Date.parse(zoned ? dateModifiedGmt : `${dateModifiedGmt}Z`);
    return !Number.isNaN(saved) && saved >= this.startedAt;
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
