import type { AssetRecord, IdMap } from '../kit/contract.ts';

/** What a write claimed: the images it may send for download, settled once it has answered. */
export interface ImageClaim {
  mine: Set<string>;
  /** Records what the write stored and lets writes waiting for those images go on (once). */
  settle: (stored: Map<string, number>) => AssetRecord[];
}

/**
 * Settles what a write claimed and did not settle, because it failed part-way (a store that went
 * down): writes waiting for those images go on, and store them themselves.
 */
export function releaseClaims(open: readonly ImageClaim[]): void {
  for (const claim of open) claim.settle(new Map());
}

/**
 * Images stored once per destination. WooCommerce downloads every image it is given by URL into
 * its media library, a new file each time; an image given by its media id is reused (and its
 * title and alternative text set from the request). So each source image URL is downloaded by
 * the first write that needs it, and every later record points at the stored copy by id: one
 * stored earlier in the migration comes from the id map (IdMap.asset), one stored by this
 * connection from here. Within a batch, or while another batch is storing an image, a record that
 * needs an image not stored yet leaves it out of its first write and gets it by id once the write
 * that stores it has answered; a product already at the destination then leaves its whole gallery
 * out of the first write, so that no request cuts its gallery short (write-products.ts).
 */
export class ImageStore {
  private readonly stored = new Map<string, number>();
  private readonly pending = new Map<string, Promise<number | undefined>>();

  /** The destination's media id of a source image, if it is stored already. */
  known(url: string, idMap: IdMap): number | undefined {
    const local = this.stored.get(url);
    if (local !== undefined) return local;
    const mapped = idMap.asset?.('image', url);
    return mapped !== undefined && Number(mapped) > 0 ? Number(mapped) : undefined;
  }

  /**
   * Claims the images a write will store, so no other write stores them meanwhile. Answers the
   * URLs this write may send for download (the rest are stored or being stored by another write)
   * and a function to call with what the write stored.
   */
  claim(urls: readonly string[], idMap: IdMap, open?: ImageClaim[]): ImageClaim {
    const mine = new Set<string>();
    const resolvers = new Map<string, (id: number | undefined) => void>();
    for (const url of urls) {
      if (mine.has(url) || this.known(url, idMap) !== undefined || this.pending.has(url)) continue;
      mine.add(url);
      this.pending.set(
        url,
        new Promise((resolve) => {
          resolvers.set(url, resolve);
        }),
      );
    }
    let settled = false;
    const claim: ImageClaim = {
      mine,
      settle: (stored) => {
        if (settled) return [];
        settled = true;
        const assets: AssetRecord[] = [];
        for (const url of mine) {
          const id = stored.get(url);
          if (id !== undefined && id > 0) {
            this.stored.set(url, id);
            assets.push({ kind: 'image', key: url, destinationId: String(id) });
          }
          this.pending.delete(url);
          resolvers.get(url)?.(id);
        }
        return assets;
      },
    };
    open?.push(claim);
    return claim;
  }

  /** Waits for an image another write is storing; undefined when that write did not store it. */
  async wait(url: string, idMap: IdMap): Promise<number | undefined> {
    const known = this.known(url, idMap);
    if (known !== undefined) return known;
    return (await this.pending.get(url)) ?? this.known(url, idMap);
  }
}
